// Numeric functions: abs, sqrt, max, min.
#include "engine/cql/parser.h"

namespace cqlindex::cql {

// abs, sqrt, max, min; nullptr (not moving) for another word.
NodePtr Parser::number_filter() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  if (w == "abs" || w == "sqrt") {
    forward();
    NodePtr a = match_numeric();
    if (!a) error("expected a numeric filter following '" + w + "'");
    n = mk(w == "abs" ? NodeKind::Abs : NodeKind::Sqrt, ValueType::Numeric, t);
    n->add(Role::Arg, std::move(a));
    return n;
  }
  if (w == "max" || w == "min") {
    forward();
    if (!special("(")) error("expected left parentheses following function: " + w);
    n = mk(NodeKind::MinMax, ValueType::Numeric, t);
    n->text = w;
    while (!special(")")) {
      NodePtr a = match_sortable();
      if (!a) error("Expected a list of numeric or string filters in parentheses following: " + w);
      if (!n->kids.empty() && a->type != n->kids[0].node->type)
        error("The arguments to 'max' or 'min' must either all be numeric or all be string");
      n->add(Role::Arg, std::move(a));
    }
    if (n->kids.size() < 2) error("Expected at least two arguments to: " + w);
    n->type = n->kids[0].node->type;
    return n;
  }
  return nullptr;
}

}  // namespace cqlindex::cql
