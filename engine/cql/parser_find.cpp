// find and sort.
#include <algorithm>

#include "engine/cql/parser.h"

namespace cqlindex::cql {

// find, sort; nullptr (not moving) for another word.
NodePtr Parser::find_filter() {
  if (cur().text == "find") return find();
  if (cur().text == "sort") return sort();
  return nullptr;
}

NodePtr Parser::find() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Find, ValueType::Position, start);
  bool all = false, ranged = false;
  while (true) {
    if (keyword("quiet")) n->options.push_back(Option::Quiet);
    else if (keyword("all")) all = true;
    else if (special("<--")) n->options.push_back(Option::Backward);
    else if (!ranged && match_range(*n)) ranged = true;
    else break;
  }
  if (all && ranged) error("find with both a range and 'all': use one or the other");
  if (all) n->options.push_back(Option::All);
  if (all || ranged) n->type = ValueType::Numeric;
  n->add(Role::Body, require(node(), "Expected a filter following 'find'"));
  return n;
}

namespace {

// Whether `n` or a filter under it is of `kind`.
bool contains_kind(const Node& n, NodeKind kind) {
  if (n.kind == kind) return true;
  for (const Child& k : n.kids)
    if (k.node && contains_kind(*k.node, kind)) return true;
  return false;
}

}  // namespace

NodePtr Parser::sort() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Sort, ValueType::Logical, start);
  // `sort [quiet] [min|max] [description] target`, in that order; as CQL 6.2 (sort-parse.cpp), min or max must
  // be followed by a description, so that `sort min ply` is not a sort of the function min
  if (keyword("quiet")) n->options.push_back(Option::Quiet);
  const bool ordered = cur().is_keyword("min") || cur().is_keyword("max");
  if (ordered) {
    n->options.push_back(cur().is_keyword("min") ? Option::Min : Option::Max);
    forward();
    if (cur().kind != TokenKind::String || cur().text.empty())
      error("When 'max' or 'min' is explicitly specified following 'sort', you must include a nonempty "
            "documentation string following. For example 'sort min \"npieces\"'");
  }
  if (cur().kind == TokenKind::String) {
    n->text = cur().text;
    forward();
  }
  std::sort(n->options.begin(), n->options.end(), option_spelled_before);
  const Token& first = cur();
  NodePtr body = require(node(), "expected a filter following 'sort'");
  // CQL 6.2 (sort-parse.cpp) refuses a bare number as the target (`sort 5` once meant a range; `sort 0 >= 6` and
  // `sort {3}` are fine)
  if (body->kind == NodeKind::Number && !first.is_special("{"))
    error_at(first, "Following 'sort' saw a number with value: " + std::to_string(body->a) +
                        " Although not illegal, this is likely an error (ranges are no longer supported in 'sort')");
  // CQL 6.2 (sort-parse.cpp) sorts by a number, a set (its count) or a string only: a position is refused too
  if (body->type != ValueType::Numeric && body->type != ValueType::Set && body->type != ValueType::String)
    error_at(start, "Unable to get numeric or set filter or string filter in argument to 'sort'");
  // CQL 6.2 (sort-parse.cpp) refuses min or max (which it reads as min) of a target holding an echo
  if (ordered && contains_kind(*body, NodeKind::Echo)) error("min sorting is not supported with an echo filter");
  n->type = body->type;
  n->add(Role::Body, std::move(body));
  return n;
}

}  // namespace cqlindex::cql
