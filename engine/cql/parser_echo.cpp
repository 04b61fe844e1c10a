// echo and the navigation between positions: consecutivemoves, child, position, lca, distance, ancestor,
// descendant, equal.
#include "engine/cql/parser.h"

namespace cqlindex::cql {

// echo, consecutivemoves, child, position, lca, distance, ancestor, descendant, equal; nullptr (not moving) for
// another word.
NodePtr Parser::echo_filter() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  if (w == "echo") return echo();
  if (w == "consecutivemoves") return consecutive_moves();
  if (w == "child") {
    forward();
    n = mk(NodeKind::Child, ValueType::Position, t);
    if (special("(")) {
      NodePtr a = match_numeric();
      if (!a) error("Expected a numeric filter following 'child ('");
      if (!special(")")) error("expected a ')' following 'child(filter'");
      n->add(Role::Arg, std::move(a));
    }
    return n;
  }
  if (w == "position") {
    forward();
    NodePtr a = match_numeric();
    if (!a) error("'position' requires a numeric filter following it");
    n = mk(NodeKind::PositionById, ValueType::Position, t);
    n->add(Role::Arg, std::move(a));
    return n;
  }
  if (w == "lca" || w == "distance" || w == "ancestor" || w == "descendant") {
    forward();
    if (!special("(")) error("missing '(' following '" + w + "'");
    NodePtr a = require(node(), "expected filter following '" + w + " ('");
    if (a->type != ValueType::Position) error("first argument to '" + w + "' not a position filter");
    NodePtr b = require(node(), "expected filter following '" + w + " (filter'");
    if (b->type != ValueType::Position) error("second argument to '" + w + "' not a position filter");
    if (!special(")")) error("missing right paren following two arguments to '" + w + "'");
    NodeKind k = w == "lca" ? NodeKind::Lca : w == "distance" ? NodeKind::Distance : NodeKind::Descendant;
    ValueType ty = w == "lca" ? ValueType::Position : w == "distance" ? ValueType::Numeric : ValueType::Logical;
    n = mk(k, ty, t);
    n->text = w;
    n->add(Role::Left, std::move(a));
    n->add(Role::Right, std::move(b));
    return n;
  }
  if (w == "equal") {
    forward();
    if (!special("(")) error("expected '(' following 'equal'");
    NodePtr a = require(node(), "expected two filters in 'equal(...)'");
    NodePtr b = require(node(), "expected two filters in 'equal(...)'");
    if (!special(")")) error("expected ')' after the arguments of 'equal'");
    n = mk(NodeKind::GenericEqual, ValueType::Logical, t);
    n->add(Role::Left, std::move(a));
    n->add(Role::Right, std::move(b));
    return n;
  }
  return nullptr;
}

NodePtr Parser::echo() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Echo, ValueType::Logical, start);
  if (keyword("quiet")) n->options.push_back(Option::Quiet);
  if (!special("(")) error("'echo' must be followed by '('");
  if (cur().kind != TokenKind::Identifier) error("missing position variable after 'echo ('");
  const Token& s = cur();
  forward();
  if (cur().kind != TokenKind::Identifier) error("missing second position variable in echo");
  const Token& t = cur();
  forward();
  if (s.text == t.text) error("source and target variables in 'echo' must be distinct");
  if (!special(")")) error("missing right parenthesis after variables in 'echo(...'");
  int sv = declare(s.text, VariableKind::Position, ValueType::Position, s);
  int tv = declare(t.text, VariableKind::Position, ValueType::Position, t);
  if (keywords("in", "all")) n->options.push_back(Option::InAll);
  push_loop_var(sv);
  push_loop_var(tv);
  NodePtr body = node();
  pop_loop_var();
  pop_loop_var();
  if (!body) error("expected filter following 'echo(...)'");
  if (body->type == ValueType::Numeric) n->type = ValueType::Numeric;
  n->add(Role::Source, variable_node(sv, s));
  n->add(Role::Target, variable_node(tv, t));
  n->add(Role::Body, std::move(body));
  return n;
}

NodePtr Parser::consecutive_moves() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::ConsecutiveMoves, ValueType::Numeric, start);
  if (keyword("quiet")) n->options.push_back(Option::Quiet);
  match_range(*n);
  if (keyword("quiet")) n->options.push_back(Option::Quiet);
  if (!special("(")) error("consecutivemovesnode: missing lparen following 'consecutivemoves'");
  for (Role role : {Role::Left, Role::Right}) {
    if (cur().kind != TokenKind::Identifier) error("expected a position variable in 'consecutivemoves (...)'");
    int v = find_variable(cur().text);
    if (v < 0 || q_.variables[v].kind != VariableKind::Position)
      error("expected a position variable in 'consecutivemoves (...)'");
    n->add(role, variable_use());
  }
  if (!special(")")) error("missing right paren following two arguments to 'consecutivemoves'");
  return n;
}

}  // namespace cqlindex::cql
