// Parser infrastructure, the precedence levels of CQL 6.2 (spec/cql-precedence.txt) and the header.
#include "engine/cql/parser.h"

#include <algorithm>

#include "engine/cql/lexer.h"

namespace cqlindex::cql {
namespace {

bool is_relational(const std::string& s) {
  static const char* ops[] = {"<", "<=", ">", ">=", "==", "!=", "[<]", "[<=]", "[>]", "[>=]"};
  return std::any_of(std::begin(ops), std::end(ops), [&](const char* o) { return s == o; });
}
bool is_position_order(const std::string& s) { return s.size() > 2 && s[0] == '['; }

constexpr int kMaxDepth = 400;

struct DepthGuard {
  int& d;
  DepthGuard(int& depth, const Parser*, const Token& at) : d(depth) {
    if (++d > kMaxDepth) throw CqlError("filters nested too deeply", at.line, at.column);
  }
  ~DepthGuard() { --d; }
};

}  // namespace

bool Parser::keyword(const char* k) {
  if (!cur().is_keyword(k)) return false;
  forward();
  return true;
}

bool Parser::keywords(const char* k1, const char* k2) {
  if (cur().is_keyword(k1) && peek().is_keyword(k2)) {
    forward();
    forward();
    return true;
  }
  return false;
}

bool Parser::special(const char* s) {
  if (!cur().is_special(s)) return false;
  forward();
  return true;
}

void Parser::error(const std::string& message) const { error_at(cur(), message); }

void Parser::error_at(const Token& t, const std::string& message) const {
  if (t.kind == TokenKind::End) throw CqlError(message + " (end of file)", t.line, t.column);
  throw CqlError(message + " (at '" + describe(t) + "')", t.line, t.column);
}

NodePtr Parser::require(NodePtr n, const std::string& message) const {
  if (!n) error(message);
  return n;
}

// ---------------------------------------------------------------- precedence levels

NodePtr Parser::node() {
  DepthGuard g(depth_, this, cur());
  NodePtr left = or_x();
  if (!left) return nullptr;
  while (cur().is_keyword("or")) {
    const Token& op = cur();
    forward();
    NodePtr right = require(or_x(), "Missing right side of 'or'");
    NodePtr n = mk(NodeKind::Or, ValueType::Logical, op);
    n->add(Role::Left, std::move(left));
    n->add(Role::Right, std::move(right));
    left = std::move(n);
  }
  return left;
}

NodePtr Parser::or_x() {
  NodePtr left = and_x();
  if (!left) return nullptr;
  while (cur().is_keyword("and")) {
    const Token& op = cur();
    forward();
    NodePtr right = require(and_x(), "Missing right side of 'and'");
    NodePtr n = mk(NodeKind::And, ValueType::Logical, op);
    n->add(Role::Left, std::move(left));
    n->add(Role::Right, std::move(right));
    left = std::move(n);
  }
  return left;
}

NodePtr Parser::and_x() {
  NodePtr left = in_x();
  if (!left) return nullptr;
  if (!cur().is_keyword("in")) return left;
  const Token& op = cur();
  forward();
  if (left->type == ValueType::Set) {
    NodePtr right = require(match_set(), "Cannot parse right side of 'in': not a set or not a filter");
    NodePtr n = mk(NodeKind::Subset, ValueType::Logical, op);
    n->add(Role::Left, std::move(left));
    n->add(Role::Right, std::move(right));
    return n;
  }
  if (left->type == ValueType::String) {
    NodePtr right = in_x();
    if (!right || right->type != ValueType::String)
      error("Unable to obtain a filter from the right side of 'in' filter");
    NodePtr n = mk(NodeKind::StringIn, ValueType::Logical, op);
    n->add(Role::Left, std::move(left));
    n->add(Role::Right, std::move(right));
    return n;
  }
  error_at(op, "left side of 'in' is not a set or a string");
}

NodePtr Parser::in_x() {
  NodePtr left = relop_x();
  if (!left) return nullptr;
  if (left->type == ValueType::Logical || left->type == ValueType::Dictionary) return left;
  if (cur().kind != TokenKind::Special || !is_relational(cur().text)) return left;
  const Token& op = cur();
  forward();
  NodePtr right = require(in_x(), "missing right side of relation operator: " + op.text);
  return relation(op, std::move(left), std::move(right));
}

NodePtr Parser::count_of(NodePtr set) const {
  NodePtr n = make_node(NodeKind::CountSquares, ValueType::Numeric, set->line, set->column);
  n->add(Role::Arg, std::move(set));
  return n;
}

NodePtr Parser::relation(const Token& op, NodePtr l, NodePtr r) {
  const std::string& o = op.text;
  if (is_position_order(o)) {
    if (l->type != ValueType::Position || r->type != ValueType::Position)
      error("Tried to make a comparison of two filters using the operation: " + o +
            " which expects position filters on its left and right sides");
    NodePtr n = mk(NodeKind::PositionOrder, ValueType::Logical, op);
    n->text = o;
    n->add(Role::Left, std::move(l));
    n->add(Role::Right, std::move(r));
    return n;
  }
  if (l->type == ValueType::Set && r->type == ValueType::Set && (o == "==" || o == "!=")) {
    NodePtr n = mk(NodeKind::SetEquality, ValueType::Logical, op);
    n->text = o;
    n->add(Role::Left, std::move(l));
    n->add(Role::Right, std::move(r));
    return n;
  }
  if (l->type == ValueType::Set && r->type == ValueType::Numeric) l = count_of(std::move(l));
  else if (l->type == ValueType::Numeric && r->type == ValueType::Set) r = count_of(std::move(r));
  bool ok = l->type == r->type && (l->type == ValueType::Numeric || l->type == ValueType::String ||
                                   l->type == ValueType::Position);
  if (!ok) {
    if (l->type != ValueType::Numeric && l->type != ValueType::String && l->type != ValueType::Position)
      error("left side of relational operator must be numeric or string: " + o);
    if (r->type != ValueType::Numeric && r->type != ValueType::String && r->type != ValueType::Position)
      error("right side of relational operator must be numeric or string: " + o);
    error("left side and right sides of relational operator are not both numeric or both string or both position: " + o);
  }
  // a comparison has the value of its left side; != is a plain logical filter
  NodePtr n = mk(NodeKind::Relation, o == "!=" ? ValueType::Logical : l->type, op);
  n->text = o;
  n->add(Role::Left, std::move(l));
  n->add(Role::Right, std::move(r));
  return n;
}

NodePtr Parser::arithmetic(const Token& op, NodePtr l, NodePtr r) {
  if (op.text == "+" && l->type == ValueType::String && r->type == ValueType::String) {
    NodePtr n = mk(NodeKind::Concat, ValueType::String, op);
    n->add(Role::Left, std::move(l));
    n->add(Role::Right, std::move(r));
    return n;
  }
  if (l->type != ValueType::Numeric || r->type != ValueType::Numeric)
    error("Invalid types of operands to arithmetic operator. Both sides must be numeric: " + op.text);
  NodePtr n = mk(NodeKind::Arithmetic, ValueType::Numeric, op);
  n->text = op.text;
  n->add(Role::Left, std::move(l));
  n->add(Role::Right, std::move(r));
  return n;
}

// True if a '+' or '*' at the cursor is a wildcard (followed by something that ends a constituent).
static bool wildcard_terminator(const Token& t) {
  return t.kind == TokenKind::End || t.is_special("}") || t.is_special(")") || t.is_special("-->") ||
         t.is_special("<--") || t.kind == TokenKind::BraceRep || t.is_special("?") || t.is_special("{*}") ||
         t.is_special("{+}") || t.is_special("+") || t.is_special("*");
}

bool Parser::wildcard_after() const { return wildcard_terminator(peek()); }

NodePtr Parser::relop_x() {
  NodePtr left = addop_x();
  if (!left) return nullptr;
  bool isstr = left->type == ValueType::String;
  bool isnum = left->type == ValueType::Numeric;
  if (!isstr && !isnum) return left;
  while (true) {
    size_t start = save();
    const Token& op = cur();
    bool plus = op.is_special("+"), minus = op.is_special("-");
    if (!(plus || (minus && isnum))) return left;
    if (plus && (op.path_wildcard || wildcard_terminator(peek()))) return left;
    if (plus && left->kind == NodeKind::Line)
      error("Attempt to add a 'line' filter to another filter. This is likely due to the last wildcard in the line filter being '+' and being interpreted as addition. If so, enclose the entire line filter in braces");
    forward();
    NodePtr right = require(addop_x(), "missing right side of operator: " + op.text);
    if (isnum && plus && right->type == ValueType::String) { restore(start); return left; }
    if (isnum && right->type != ValueType::Numeric)
      error("when left side of arithmetic operator is numeric, right side must be too: " + op.text);
    if (isstr && right->type == ValueType::Numeric) { restore(start); return left; }
    if (isstr && right->type != ValueType::String)
      error("when left side of arithmetic operator is string, right side must be too: " + op.text);
    left = arithmetic(op, std::move(left), std::move(right));
  }
}

NodePtr Parser::addop_x() {
  NodePtr left = mulop_x();
  if (!left || left->type != ValueType::Numeric) return left;
  while (true) {
    const Token& op = cur();
    if (!(op.is_special("*") || op.is_special("/") || op.is_special("%"))) return left;
    if (op.is_special("*") && (op.path_wildcard || wildcard_terminator(peek()))) return left;
    if (op.is_special("*") && left->kind == NodeKind::Line)
      error("Attempt to multiply a 'line' filter by another filter. If '*' was meant as a wildcard, enclose the entire line filter in braces");
    forward();
    NodePtr right = require(mulop_x(), "missing right side of operator: " + op.text);
    if (right->type != ValueType::Numeric) error("right side of operator is not numeric: " + op.text);
    left = arithmetic(op, std::move(left), std::move(right));
  }
}

NodePtr Parser::mulop_x() {
  if (cur().kind == TokenKind::Dash) {
    const Token& d = cur();
    forward();
    return dash_from(nullptr, d, false);
  }
  NodePtr left = dash_tie_x();
  if (!left || left->type != ValueType::Set) return left;
  if (cur().kind == TokenKind::Dash && !cur().space_before) {
    const Token& d = cur();
    forward();
    return dash_from(std::move(left), d, false);
  }
  return left;
}

NodePtr Parser::take_reparse(bool arrows) {
  if (!reparse_ || reparse_->begin != pos_ || reparse_->scope != scope_generation_) return nullptr;
  // dash_tie_x differs from attackarrow_x only on a set followed by an arrow
  if (!arrows && reparse_->with_arrows && reparse_->node->type == ValueType::Set) return nullptr;
  NodePtr n = std::move(reparse_->node);
  pos_ = reparse_->end;
  reparse_.reset();
  return n;
}

NodePtr Parser::dash_tie_x() {
  if (NodePtr parsed = take_reparse(true)) return parsed;
  NodePtr left = attackarrow_x();
  if (!left || left->type != ValueType::Set) return left;
  if (!(at_special("->") || at_special("<-"))) return left;
  const Token& first = cur();
  std::string dir = first.text;
  std::vector<NodePtr> args;
  args.push_back(std::move(left));
  while (true) {
    forward();  // the arrow
    NodePtr arg = attackarrow_x();
    if (!arg || arg->type != ValueType::Set) error("unable to get right set argument to -> or <-");
    args.push_back(std::move(arg));
    if (!at_special(dir.c_str())) break;
  }
  if (args.size() == 2) {
    NodePtr n = mk(dir == "->" ? NodeKind::Attacks : NodeKind::AttackedBy, ValueType::Set, first);
    if (dir == "->") {
      n->add(Role::Left, std::move(args[0]));
      n->add(Role::Right, std::move(args[1]));
    } else {  // A <- B: squares of A attacked by B
      n->add(Role::Left, std::move(args[0]));
      n->add(Role::Right, std::move(args[1]));
    }
    n->text = dir;
    return n;
  }
  NodePtr n = mk(NodeKind::AttackRay, ValueType::Set, first);
  n->text = dir;
  for (NodePtr& a : args) n->add(Role::Arg, std::move(a));
  return n;
}

NodePtr Parser::attackarrow_x() {
  NodePtr left = union_x();
  if (!left || left->type != ValueType::Set) return left;
  while (at_special("|")) {
    const Token& op = cur();
    forward();
    NodePtr right = require(union_x(), "missing right side of operator: |");
    if (right->type != ValueType::Set) error("right side of operator | is not a set filter");
    NodePtr n = mk(NodeKind::Union, ValueType::Set, op);
    n->add(Role::Left, std::move(left));
    n->add(Role::Right, std::move(right));
    left = std::move(n);
  }
  return left;
}

NodePtr Parser::union_x() {
  NodePtr left = intersect_x();
  if (!left) return nullptr;
  if (left->type != ValueType::Set && left->type != ValueType::Position) return left;
  while (true) {
    if (cur().is_keyword("on")) error("the 'on' keyword has been replaced by the & symbol in CQL version 6");
    if (!at_special("&")) return left;
    const Token& op = cur();
    forward();
    NodePtr right = require(intersect_x(), "missing right side of operator: &");
    NodePtr n;
    if (left->type == ValueType::Set && right->type == ValueType::Set)
      n = mk(NodeKind::Intersect, ValueType::Set, op);
    else if (left->type == ValueType::Position && right->type == ValueType::Position)
      n = mk(NodeKind::PositionIntersect, ValueType::Set, op);
    else
      error("right side of '&' does not match left side (they should both be either sets or positions)");
    n->add(Role::Left, std::move(left));
    n->add(Role::Right, std::move(right));
    left = std::move(n);
  }
}

NodePtr Parser::intersect_x() {
  NodePtr left = attack_x();
  if (!left || left->type != ValueType::Set) return left;
  while (true) {
    const Token& op = cur();
    bool attacks = false;
    if (keyword("attacks") || keyword("attack")) attacks = true;
    else if (keyword("attackedby") || keywords("attacked", "by")) attacks = false;
    else return left;
    NodePtr right = attack_x();
    if (!right || right->type != ValueType::Set) error("right side of 'attacks' or 'attackedby' is not a set filter");
    NodePtr n = mk(attacks ? NodeKind::Attacks : NodeKind::AttackedBy, ValueType::Set, op);
    n->add(Role::Left, std::move(left));
    n->add(Role::Right, std::move(right));
    left = std::move(n);
  }
}

NodePtr Parser::attack_x() {
  NodePtr left = substring_x();
  if (!left || left->type != ValueType::String) return left;
  while (true) {
    const Token& op = cur();
    if (at_special("[")) {
      forward();
      NodePtr from, to;
      bool colon = false;
      if (!at_special(":")) from = require(match_numeric(), "expected a numeric index in '[...]'");
      if (special(":")) {
        colon = true;
        if (!at_special("]")) to = require(match_numeric(), "expected a numeric index after ':' in '[...]'");
      }
      if (!special("]")) error("expected ']' after string index");
      if (at_special("=") && left->kind == NodeKind::Variable) {
        forward();
        NodePtr rhs = require(match_string(), "expecting a string following var[...]=");
        NodePtr n = mk(NodeKind::Substring, ValueType::Logical, op);
        n->options.push_back(Option::Assign);
        if (colon) n->options.push_back(Option::Slice);
        n->add(Role::Arg, std::move(left));
        if (from) n->add(Role::From, std::move(from));
        if (to) n->add(Role::To, std::move(to));
        n->add(Role::Value, std::move(rhs));
        return n;
      }
      NodePtr n = mk(NodeKind::Substring, ValueType::String, op);
      if (colon) n->options.push_back(Option::Slice);
      n->add(Role::Arg, std::move(left));
      if (from) n->add(Role::From, std::move(from));
      if (to) n->add(Role::To, std::move(to));
      left = std::move(n);
    } else if (at_special("~~")) {
      forward();
      if (cur().kind != TokenKind::String) error("The right hand side of ~~ must be a string literal, e.g. x ~~ \"h*llo\"");
      NodePtr n = mk(NodeKind::RegexMatch, ValueType::String, op);
      n->text = cur().text;
      forward();
      n->add(Role::Arg, std::move(left));
      left = std::move(n);
    } else {
      return left;
    }
  }
}

NodePtr Parser::substring_x() {
  NodePtr left = primitive();
  if (!left || left->type != ValueType::Position) return left;
  if (!at_special(":")) return left;
  const Token& op = cur();
  forward();
  NodePtr right = require(substring_x(), "could not get right hand side of operator ':'");
  NodePtr n = mk(NodeKind::WithPosition, right->type, op);
  n->add(Role::Position, std::move(left));
  n->add(Role::Body, std::move(right));
  return n;
}

NodePtr Parser::primitive() {
  DepthGuard g(depth_, this, cur());
  // Typed arguments are parsed by trying and backtracking (as CQL 6.2 does); on nested pathological input
  // that is exponential, so the work is bounded instead of hanging. The 740 queries of the shared examples
  // take at most 1.33 primitives a token; the bound is 64 a token plus room for function bodies read at each call.
  if (++steps_ > 200000 + 64 * static_cast<long>(toks_.size()))
    error("query too complex to parse (too much backtracking)");
  if (cur().kind == TokenKind::Dash) return require(mulop_x(), "Unable to parse apparent -- operator");
  return complex();
}

// ---------------------------------------------------------------- typed argument helpers

NodePtr Parser::match_set() {
  size_t x = save();
  NodePtr n = mulop_x();
  if (!n || n->type != ValueType::Set) { restore(x); return nullptr; }
  return n;
}

NodePtr Parser::match_setparameter() {
  size_t x = save();
  NodePtr n = substring_x();
  if (!n || n->type != ValueType::Set) { restore(x); return nullptr; }
  return n;
}

NodePtr Parser::match_numeric() {
  size_t x = save();
  NodePtr n = relop_x();
  if (!n || n->type != ValueType::Numeric) { restore(x); return nullptr; }
  return n;
}

NodePtr Parser::match_string() {
  size_t x = save();
  NodePtr n = relop_x();
  if (!n || n->type != ValueType::String) { restore(x); return nullptr; }
  return n;
}

NodePtr Parser::match_sortable() {
  size_t x = save();
  NodePtr n = relop_x();
  if (!n || (n->type != ValueType::Numeric && n->type != ValueType::String)) { restore(x); return nullptr; }
  return n;
}

std::vector<NodePtr> Parser::some_nodes() {
  std::vector<NodePtr> v;
  while (NodePtr n = node()) v.push_back(std::move(n));
  return v;
}

// An integer or existing numeric variable not followed by an operator (CQL's range constituent).
bool Parser::range_constituent(NodePtr& out) {
  size_t x = save();
  const Token& t = cur();
  bool negative = false;
  if (at_special("-") && peek().kind == TokenKind::Int) { negative = true; forward(); }
  if (cur().kind == TokenKind::Int) {
    out = mk(NodeKind::Number, ValueType::Numeric, t);
    out->a = negative ? -cur().number : cur().number;
    forward();
  } else if (cur().kind == TokenKind::Identifier) {
    int v = find_variable(cur().text);
    if (v < 0 || q_.variables[v].kind != VariableKind::Numeric) { restore(x); return false; }
    out = variable_node(v, cur());
    forward();
  } else {
    restore(x);
    return false;
  }
  if (!cur().may_follow_range()) {
    restore(x);
    out.reset();
    return false;
  }
  return true;
}

bool Parser::match_range(Node& owner) {
  if (cur().is_keyword("count")) {
    forward();
    owner.options.push_back(Option::Count);
    return true;
  }
  NodePtr lo, hi;
  if (!range_constituent(lo)) return false;
  if (!range_constituent(hi)) hi = lo->clone();
  owner.add(Role::Low, std::move(lo));
  owner.add(Role::High, std::move(hi));
  return true;
}

// ---------------------------------------------------------------- header and body

void Parser::parse_header() {
  if (!cur().is_keyword("cql")) error("Expected 'cql' word to start :cql specification but got:");
  forward();
  if (!special("(")) error("Expected '(' following 'cql'");
  Header& h = q_.header;
  auto constant_range = [&](const char* what) {
    Node holder(NodeKind::Compound, ValueType::Logical);
    if (!match_range(holder) || holder.has(Option::Count) || holder.kids.size() != 2 ||
        holder.kids[0].node->kind != NodeKind::Number || holder.kids[1].node->kind != NodeKind::Number)
      error(std::string("missing constant range, eg. '1 20', following '") + what + "' keyword");
    return Range{holder.kids[0].node->a, holder.kids[1].node->a};
  };
  while (!special(")")) {
    const Token& t = cur();
    if (t.kind == TokenKind::FileName) {
      (t.text == "input" ? h.input : h.output) = t.file;
      forward();
    } else if (keywords("sort", "matchcount")) {
      if (h.matchcount) error_at(t, "unexpected two matchcount ranges");
      h.matchcount = constant_range("matchcount");
      h.sort_matchcount = true;
    } else if (keyword("matchcount")) {
      if (h.matchcount) error_at(t, "unexpected two matchcount ranges");
      h.matchcount = constant_range("matchcount");
    } else if (keyword("gamenumber")) {
      h.gamenumber = constant_range("gamenumber");
    } else if (keyword("result")) {
      if (cur().kind != TokenKind::Result) error("expecting 1-0 or 0-1 or 1/2-1/2 following result");
      h.result = cur().text;
      forward();
    } else if (keyword("variations")) {
      h.variations = true;
    } else if (keyword("matchstring")) {
      if (cur().kind != TokenKind::String) error("expected a quoted string following 'matchstring'");
      h.matchstring = cur().text;
      forward();
    } else if (keyword("silent")) {
      h.silent = !h.quiet;  // the first comment level named wins (CQL 6.2: `cql(quiet silent)` is quiet)
    } else if (keyword("quiet")) {
      h.quiet = !h.silent;
    } else {
      error("Unknown parameter in the cql(...) header");
    }
  }
}

NodePtr Parser::parse_body(bool may_be_empty) {
  const Token& first = cur();
  std::vector<NodePtr> nodes = some_nodes();
  if (nodes.empty() && may_be_empty && eof()) return mk(NodeKind::Compound, ValueType::Logical, first);
  if (nodes.empty()) error("Expected one or more filters following CQL specification, got none");
  if (!eof()) error("Extra text following the filters after the CQL specification, or unspecified syntax error");
  NodePtr body = mk(NodeKind::Compound, nodes.back()->type, first);
  for (NodePtr& n : nodes) body->add(Role::Arg, std::move(n));
  return body;
}

Query parse_query(std::string_view source, bool body_may_be_empty) {
  Query q;
  Parser p(source, lex(source), q);
  p.parse_header();
  q.body = p.parse_body(body_may_be_empty);
  p.finish();
  return q;
}

NodePtr parse_filters(std::string_view source, Query& query) {
  Parser p(source, lex(source), query);
  NodePtr body = p.parse_body();
  p.finish();
  return body;
}

}  // namespace cqlindex::cql
