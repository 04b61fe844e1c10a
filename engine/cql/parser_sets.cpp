// Set filters with arguments: directions (up, diagonal, ...), ray, xray, pin, light, dark, between, makesquare.
#include <algorithm>

#include "engine/cql/parser.h"

namespace cqlindex::cql {

namespace {
constexpr const char* kDirections[] = {"up", "down", "left", "right", "northeast", "northwest", "southeast",
                                       "southwest", "horizontal", "vertical", "diagonal", "orthogonal",
                                       "maindiagonal", "offdiagonal", "anydirection"};
}  // namespace

bool is_direction(const Token& t) {
  if (t.kind != TokenKind::Keyword) return false;
  return std::any_of(std::begin(kDirections), std::end(kDirections), [&](const char* d) { return t.text == d; });
}

// ray, xray, pin, light, dark, between, makesquare; nullptr (not moving) for another word.
NodePtr Parser::set_filter() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  if (w == "ray" || w == "xray") return ray();
  if (w == "pin") return pin();
  if (w == "light" || w == "dark") {
    forward();
    NodePtr s = match_setparameter();
    if (!s) error("expected a set filter following 'light' or 'dark'");
    n = mk(NodeKind::LightDark, ValueType::Set, t);
    n->text = w;
    n->add(Role::Arg, std::move(s));
    return n;
  }
  if (w == "between") {
    forward();
    if (!special("(")) error("arguments to 'between' should be enclosed in parens: missing '('");
    NodePtr a = match_set();
    if (!a) error("Expected a source set following 'between'");
    NodePtr b = match_set();
    if (!b) error("Expected a target set following 'between' and the source");
    if (!special(")")) error("arguments to 'between' should be enclosed in parens: missing ')'");
    n = mk(NodeKind::Between, ValueType::Set, t);
    n->add(Role::Left, std::move(a));
    n->add(Role::Right, std::move(b));
    return n;
  }
  if (w == "makesquare") {
    forward();
    bool paren = special("(");
    NodePtr a = match_sortable();
    if (!a) error("Invalid makesquare syntax: no valid argument");
    n = mk(NodeKind::MakeSquare, ValueType::Set, t);
    n->add(Role::Arg, std::move(a));
    if (n->kids[0].node->type == ValueType::String) {
      if (paren && !special(")")) error("missing right paren after 'makesquare (string'");
      return n;
    }
    if (!paren) error("Invalid makesquare syntax: missing left paren with numeric argument");
    NodePtr b = match_numeric();
    if (!b) error("could not parse second numeric argument to 'makesquare'");
    if (!special(")")) error("missing ')' following 'makesquare (numeric numeric'");
    n->add(Role::Arg, std::move(b));
    return n;
  }
  return nullptr;
}

// up [m [n]] S and the other 14 directions
NodePtr Parser::vector_filter() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Direction, ValueType::Set, start);
  n->text = start.text;
  match_range(*n);
  NodePtr s = match_setparameter();
  if (!s) error("expecting a set specifier following the direction parameter");
  n->add(Role::Arg, std::move(s));
  return n;
}

NodePtr Parser::ray() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Ray, ValueType::Set, start);
  n->text = start.text;
  if (start.text == "ray") {
    if (keyword("attack") || keyword("attacks")) {
      n->options.push_back(Option::Attack);
    } else {
      while (is_direction(cur())) {
        const Option direction = option_named(cur().text).value();  // is_direction: one of kDirections
        if (n->has(direction)) error("Duplicate directions in ray specification");
        n->options.push_back(direction);
        forward();
      }
    }
  } else if (cur().is_keyword("attack")) {
    error("cannot specify 'xray attack'");
  }
  if (!special("(")) error("Expecting '(' character after list of directions in the ray");
  size_t count = 0;
  while (NodePtr a = node()) {
    if (a->type != ValueType::Set) error("All parameters to ray must be sets");
    n->add(Role::Arg, std::move(a));
    ++count;
  }
  if (!special(")")) error("Expected ')' character after arguments to ray");
  if (count < 2) error_at(start, "Must have at least two arguments to a ray");
  return n;
}

NodePtr Parser::pin() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Pin, ValueType::Set, start);
  bool first = true;
  while (true) {
    const std::optional<Role> role = cur().is_keyword("from") ? Role::From : cur().is_keyword("through") ? Role::Through
                                     : cur().is_keyword("to") ? Role::To : std::optional<Role>();
    if (!role) break;
    const std::string word = role_name(*role);
    if (n->child(*role)) error("Multiple '" + word + "' detected in 'pin'");
    forward();
    NodePtr s = match_setparameter();
    if (!s) error("Missing set filter following '" + word + "' in 'pin'");
    if (first) n->text = word;  // the value is the set named first (through by default)
    first = false;
    n->add(*role, std::move(s));
  }
  if (n->text.empty() || (n->text != "from" && n->text != "to")) n->text = "through";
  return n;
}

}  // namespace cqlindex::cql
