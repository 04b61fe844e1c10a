// Control: not, if, loop, while, assert, notransform, the square and piece loops (x∊S F, `square x in S F`),
// user functions (defined once, their body bound at each call).
#include "engine/cql/parser.h"

namespace cqlindex::cql {

// not, if, loop, notransform, assert, while, square, piece, function; nullptr (not moving) for another word.
NodePtr Parser::control_filter() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  if (w == "square" || w == "piece") {
    if ((n = piece_assign())) return n;
    return square_or_piece_loop();
  }
  if (w == "function") return function_definition();
  if (w == "not") {
    forward();
    NodePtr a = require(and_x(), "could not get filter argument for 'not'");
    n = mk(NodeKind::Not, ValueType::Logical, t);
    n->add(Role::Arg, std::move(a));
    return n;
  }
  if (w == "if") {
    forward();
    NodePtr c = require(node(), "No legal test clause found after the keyword 'if'");
    keyword("then");
    NodePtr th = require(node(), "missing consequent following 'if testfilter' or 'if testfilter then'");
    NodePtr el;
    if (keyword("else")) el = require(node(), "expected a filter following 'else'");
    ValueType type = ValueType::Logical;
    if (el && el->type == th->type) type = th->type;
    n = mk(NodeKind::If, type, t);
    n->add(Role::If, std::move(c));
    n->add(Role::Then, std::move(th));
    if (el) n->add(Role::Else, std::move(el));
    return n;
  }
  if (w == "loop" || w == "notransform" || w == "assert") {
    forward();
    NodePtr a = require(node(), "Missing filter following '" + w + "'");
    NodeKind k = w == "loop" ? NodeKind::Loop : w == "assert" ? NodeKind::Assert : NodeKind::NoTransform;
    n = mk(k, k == NodeKind::NoTransform ? a->type : ValueType::Logical, t);
    n->add(Role::Body, std::move(a));
    return n;
  }
  if (w == "while") {
    forward();
    if (!special("(")) error("expected '(' following 'while'");
    NodePtr c = require(node(), "expected a filter in 'while (...)'");
    if (!special(")")) error("expected ')' after the condition of 'while'");
    NodePtr b = require(node(), "expected a filter following 'while (...)'");
    n = mk(NodeKind::While, ValueType::Logical, t);
    n->add(Role::If, std::move(c));
    n->add(Role::Body, std::move(b));
    return n;
  }
  return nullptr;
}

// x∊S F, ∀x∊S F, ◭x∊S F, k∊D F
NodePtr Parser::symbolic_loop() {
  size_t x = save();
  const Token& start = cur();
  bool all = special("[forall]");
  const Token& var = cur();
  bool piece = var.kind == TokenKind::PieceDecl;
  if (var.kind != TokenKind::Identifier && !piece) { restore(x); return nullptr; }
  forward();
  if (!at_special("[element]")) {
    if (all) error("expected '\u220A' after the variable of '\u2200'");
    restore(x);
    return nullptr;
  }
  forward();
  // dictionary iteration
  if (!piece && !all && cur().kind == TokenKind::Identifier) {
    int d = find_variable(cur().text);
    if (d >= 0 && q_.variables[d].kind == VariableKind::Dictionary && !peek().is_special("[")) {
      return dictionary_iteration(start, var, d);
    }
  }
  int v = declare(var.text, piece ? VariableKind::Piece : VariableKind::Square, ValueType::Set, var);
  NodePtr domain = require(match_set(), "Expecting a set expression following '\u220A'");
  return loop_over(start, var, v, piece, all, std::move(domain), "No filter following the loop variable and its set");
}

NodePtr Parser::square_or_piece_loop() {
  const Token& start = cur();
  bool piece = start.is_keyword("piece");
  forward();
  bool all = keyword("all");
  const Token& var = cur();
  if (var.kind != TokenKind::Identifier && var.kind != TokenKind::PieceDecl)
    error(piece ? "Expecting a piece variable in 'piece' keyword specification"
                : "Expecting a square variable in 'square' keyword specification");
  forward();
  int v = declare(var.text, piece ? VariableKind::Piece : VariableKind::Square, ValueType::Set, var);
  if (!keyword("in"))
    error(piece ? "Expected 'piece variable in setfilter filter' or 'piece variable = setfilter' but  neither 'in' nor '=' followed 'piece' " + var.text
                : "Missing 'in' following the variable name in 'square' expression");
  NodePtr domain = match_set();
  if (!domain) error("Expecting a set expression following the 'in' keyword in 'square' expression");
  return loop_over(start, var, v, piece, all, std::move(domain),
                   piece ? "missing body in piece filter" : "No filter following 'square .. in expr..'");
}

NodePtr Parser::loop_over(const Token& start, const Token& var, int v, bool piece, bool all, NodePtr domain,
                          const std::string& no_body) {
  push_loop_var(v);
  NodePtr body = node();
  pop_loop_var();
  if (!body) error(no_body);
  NodePtr n = mk(piece ? NodeKind::PieceLoop : NodeKind::SquareLoop, all ? ValueType::Logical : ValueType::Set, start);
  n->var = v;
  n->text = var.text;
  if (all) n->options.push_back(Option::All);
  n->add(Role::Domain, std::move(domain));
  n->add(Role::Body, std::move(body));
  return n;
}

NodePtr Parser::function_definition() {
  forward();
  if (cur().kind != TokenKind::Identifier) error("expected a function name following 'function'");
  const Token& name = cur();
  if (find_variable(name.text) >= 0) error("function name already used as a variable: " + name.text);
  forward();
  if (!special("(")) error("expected '(' following the function name");
  Function f;
  while (!special(")")) {
    if (cur().kind != TokenKind::Identifier) error("expected a parameter name or ')'");
    f.params.push_back(cur().text);
    forward();
  }
  if (!at_special("{")) error("expected '{' to start the function body");
  f.body_begin = save();
  int level = 0;
  do {
    if (eof()) error("unterminated function body");
    if (at_special("{")) ++level;
    if (at_special("}")) --level;
    forward();
  } while (level > 0);
  f.body_end = save();
  functions_[name.text] = f;
  // a definition matches like true; the body is bound at each call. Its source is kept for printing.
  NodePtr n = mk(NodeKind::FunctionDef, ValueType::Logical, name);
  n->text = name.text;
  const Token& keyword_token = toks_[f.body_begin - 3 - f.params.size() - 1];
  NodePtr src = mk(NodeKind::StringLiteral, ValueType::String, keyword_token);
  src->text = std::string(source_.substr(keyword_token.offset, toks_[f.body_end - 1].end - keyword_token.offset));
  n->add(Role::Source, std::move(src));
  return n;
}

NodePtr Parser::function_call() {
  const Token& name = cur();
  auto it = functions_.find(name.text);
  if (it == functions_.end()) return nullptr;
  if (!peek().is_special("(")) error_at(peek(), "expected '(' after function name " + name.text);
  forward();
  forward();
  std::vector<NodePtr> args;
  while (!special(")")) {
    NodePtr a = node();
    if (!a) error("expected an argument or ')' in the call of " + name.text);
    args.push_back(std::move(a));
  }
  const Function f = it->second;
  if (args.size() != f.params.size())
    error_at(name, "function " + name.text + " takes " + std::to_string(f.params.size()) + " arguments, got " +
                       std::to_string(args.size()));
  if (arg_frames_.size() > 50) error_at(name, "function calls nested too deeply (recursion?)");
  std::map<std::string, const Node*> frame;
  for (size_t i = 0; i < args.size(); ++i) frame[f.params[i]] = args[i].get();
  size_t resume = save();
  push_arg_frame(std::move(frame));
  restore(f.body_begin);
  NodePtr body;
  try {
    body = compound();
  } catch (...) {
    pop_arg_frame();
    throw;
  }
  if (save() != f.body_end) error("internal: function body not fully parsed");
  pop_arg_frame();
  restore(resume);
  NodePtr n = mk(NodeKind::FunctionCall, body->type, name);
  n->text = name.text;
  for (NodePtr& a : args) n->add(Role::Arg, std::move(a));
  n->add(Role::Body, std::move(body));
  return n;
}

}  // namespace cqlindex::cql
