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

NodePtr Parser::sort() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Sort, ValueType::Logical, start);
  bool has_doc = false;
  while (true) {
    if (keyword("quiet")) {
      n->options.push_back(Option::Quiet);
    } else if (cur().is_keyword("min") || cur().is_keyword("max")) {
      // spec/cql-sort.txt: `sort [quiet] [min|max] [description] target`; the description stays optional after
      // min/max (CQL 6.2's parser wants one there: the spec wins)
      n->options.push_back(cur().is_keyword("min") ? Option::Min : Option::Max);
      forward();
    } else if (!has_doc && cur().kind == TokenKind::String) {
      n->text = cur().text;
      has_doc = true;
      forward();
    } else {
      break;
    }
  }
  std::sort(n->options.begin(), n->options.end(), option_spelled_before);  // written in any order
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
  // spec/cql-sort.txt ("any Numeric or String filter") wins over CQL 6.2's sort-parse.cpp, which also refuses
  // `sort min` of an echo: it runs here
  n->type = body->type;
  n->add(Role::Body, std::move(body));
  return n;
}

}  // namespace cqlindex::cql
