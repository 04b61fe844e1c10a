// Named filters: the dispatch at a token (literals, designators, { }, ( ), the special tokens, the keywords
// without an argument); the families of keyword filters are in parser_<family>.cpp.
#include <algorithm>

#include "engine/cql/parser.h"

namespace cqlindex::cql {

namespace {

struct Simple {
  const char* word;
  NodeKind kind;
  ValueType type;
  const char* canonical = nullptr;  // a synonym's one spelling in the tree (and so in the printed query)
};
// Filters that are one keyword with no argument.
constexpr Simple kSimple[] = {
    {"check", NodeKind::Predicate, ValueType::Logical}, {"mate", NodeKind::Predicate, ValueType::Logical},
    {"stalemate", NodeKind::Predicate, ValueType::Logical}, {"wtm", NodeKind::Predicate, ValueType::Logical},
    {"btm", NodeKind::Predicate, ValueType::Logical}, {"initial", NodeKind::Predicate, ValueType::Logical},
    {"terminal", NodeKind::Predicate, ValueType::Logical}, {"mainline", NodeKind::Predicate, ValueType::Logical},
    {"variation", NodeKind::Predicate, ValueType::Logical},
    {"virtualmainline", NodeKind::Predicate, ValueType::Logical},
    {"puremate", NodeKind::Predicate, ValueType::Set}, {"modelmate", NodeKind::Predicate, ValueType::Set},
    {"idealmate", NodeKind::Predicate, ValueType::Set},
    {"purestalemate", NodeKind::Predicate, ValueType::Set},
    {"modelstalemate", NodeKind::Predicate, ValueType::Set},
    {"idealstalemate", NodeKind::Predicate, ValueType::Set}, {"try", NodeKind::Predicate, ValueType::Logical},
    {"pathdebug", NodeKind::Predicate, ValueType::Logical},
    {"cql_hhdbhascook", NodeKind::Predicate, ValueType::Logical},
    {"extension", NodeKind::Extension, ValueType::Logical}, {"removecomment", NodeKind::RemoveComment, ValueType::Logical},
    {"true", NodeKind::True, ValueType::Logical}, {"false", NodeKind::False, ValueType::Logical},
    {"cql_abort", NodeKind::Abort, ValueType::Logical},
    {"ply", NodeKind::Counter, ValueType::Numeric}, {"movenumber", NodeKind::Counter, ValueType::Numeric},
    {"depth", NodeKind::Counter, ValueType::Numeric}, {"positionid", NodeKind::Counter, ValueType::Numeric},
    {"gamenumber", NodeKind::Counter, ValueType::Numeric}, {"lastgamenumber", NodeKind::Counter, ValueType::Numeric},
    {"sidetomove", NodeKind::Counter, ValueType::Numeric}, {"pathcount", NodeKind::Counter, ValueType::Numeric},
    {"pathcountunfocused", NodeKind::Counter, ValueType::Numeric}, {"year", NodeKind::Counter, ValueType::Numeric},
    {"currentposition", NodeKind::CurrentPosition, ValueType::Position},
    {"curpos", NodeKind::CurrentPosition, ValueType::Position, "currentposition"},
    {"initialposition", NodeKind::InitialPosition, ValueType::Position},
    {"parent", NodeKind::Parent, ValueType::Position}, {"pathstart", NodeKind::PathInfo, ValueType::Position},
    {"pathlastposition", NodeKind::PathInfo, ValueType::Position},
    {"connectedpawns", NodeKind::PieceAttribute, ValueType::Set},
    {"isolatedpawns", NodeKind::PieceAttribute, ValueType::Set},
    {"doubledpawns", NodeKind::PieceAttribute, ValueType::Set},
    {"passedpawns", NodeKind::PieceAttribute, ValueType::Set},
    {"currenttransform", NodeKind::CurrentTransform, ValueType::String},
    {"castle", NodeKind::PastMove, ValueType::Logical}, {"o-o", NodeKind::PastMove, ValueType::Logical},
    {"o-o-o", NodeKind::PastMove, ValueType::Logical}, {"enpassant", NodeKind::PastMove, ValueType::Logical},
    {"nullmove", NodeKind::PastMove, ValueType::Logical}, {"primary", NodeKind::PastMove, ValueType::Logical},
    {"secondary", NodeKind::PastMove, ValueType::Logical},
    {"from", NodeKind::FromSquare, ValueType::Set}, {"to", NodeKind::ToSquare, ValueType::Set},
    {"enpassantsquare", NodeKind::EnPassantSquare, ValueType::Set},
};

// Set-argument filters below | (rank, file, #, type, power, ...): word, kind, result type.
constexpr Simple kSetArg[] = {
    {"power", NodeKind::Power, ValueType::Numeric}, {"type", NodeKind::PieceAttribute, ValueType::Numeric},
    {"colortype", NodeKind::PieceAttribute, ValueType::Numeric},
    {"typename", NodeKind::PieceAttribute, ValueType::String},
    {"piecename", NodeKind::PieceAttribute, ValueType::String},
    {"pieceid", NodeKind::PieceAttribute, ValueType::Numeric}, {"rank", NodeKind::Coordinate, ValueType::Numeric},
    {"file", NodeKind::Coordinate, ValueType::Numeric},
};

constexpr const char* kTransforms[] = {"flipcolor", "reversecolor", "flip", "dihedral", "flipdihedral",
                                       "flipvertical", "fliphorizontal", "rotate90", "rotate45", "shift",
                                       "shifthorizontal", "shiftvertical"};
}  // namespace

NodePtr Parser::complex() {
  NodePtr n;
  const Token& t = cur();
  switch (t.kind) {
    case TokenKind::End: return nullptr;
    case TokenKind::Int: return number();
    case TokenKind::Piece: return piece_designator();
    case TokenKind::PieceDecl: {
      if ((n = symbolic_loop())) return n;
      if ((n = piece_assign())) return n;
      return nullptr;
    }
    case TokenKind::String: {
      n = mk(NodeKind::StringLiteral, ValueType::String, t);
      n->text = t.text;
      forward();
      return n;
    }
    case TokenKind::GroupRef: {
      n = mk(NodeKind::GroupRef, t.number2 ? ValueType::Numeric : ValueType::String, t);
      n->a = t.number;
      if (t.number2) n->options.push_back(Option::Index);
      forward();
      return n;
    }
    case TokenKind::Identifier: {
      if ((n = symbolic_loop())) return n;
      if ((n = assignment())) return n;
      if ((n = dictionary())) return n;
      if ((n = function_call())) return n;
      return variable_use();
    }
    case TokenKind::Special: return special_filter();
    case TokenKind::Keyword: return keyword_filter();
    default: return nullptr;
  }
}

// { } ( ) . [] ~ # - and the symbolic loops, at a special token.
NodePtr Parser::special_filter() {
  const Token& t = cur();
  NodePtr n;
  if (t.text == "{") return compound();
  if (t.text == "(") return parens();
  if (t.text == "[forall]" || t.text == "[element]") return symbolic_loop();
  if (t.text == "///") return string_converter();
  if (t.text == ".") {
    forward();
    return mk(NodeKind::AllSquares, ValueType::Set, t);
  }
  if (t.text == "[]") {
    forward();
    return mk(NodeKind::EmptySet, ValueType::Set, t);
  }
  if (t.text == "~") {
    forward();
    NodePtr s = intersect_x();
    if (!s || s->type != ValueType::Set) error("Could not get set for argument to '~'");
    n = mk(NodeKind::Complement, ValueType::Set, t);
    n->add(Role::Arg, std::move(s));
    return n;
  }
  if (t.text == "#") {
    forward();
    if (cur().kind == TokenKind::Identifier) {
      int v = find_variable(cur().text);
      if (v >= 0 && q_.variables[v].kind == VariableKind::Dictionary && !peek().is_special("[")) {
        n = mk(NodeKind::DictionaryCount, ValueType::Numeric, t);
        n->add(Role::Arg, variable_node(v, cur()));
        forward();
        return n;
      }
    }
    if (NodePtr s = match_set()) {
      n = mk(NodeKind::CountSquares, ValueType::Numeric, t);
      n->add(Role::Arg, std::move(s));
      return n;
    }
    if (NodePtr s = match_string()) {
      n = mk(NodeKind::StringLength, ValueType::Numeric, t);
      n->add(Role::Arg, std::move(s));
      return n;
    }
    error("Expected either a string filter or a set filter following '#' but the filter parsed was of neither type");
  }
  if (t.text == "-") {
    if (peek().kind == TokenKind::Int) return number();
    forward();
    NodePtr a = substring_x();
    if (!a || a->type != ValueType::Numeric) error("No numeric filter following '-' symbol");
    n = mk(NodeKind::Negate, ValueType::Numeric, t);
    n->add(Role::Arg, std::move(a));
    return n;
  }
  // --> and <-- start no filter here (line)
  return nullptr;
}

// A keyword's filter: the keywords without an argument, the set functions, transforms and directions here, the
// others by family (parser_<family>.cpp); nullptr for a keyword that starts no filter.
NodePtr Parser::keyword_filter() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  for (const Simple& s : kSimple)
    if (t.text == s.word) {
      forward();
      n = mk(s.kind, s.type, t);
      n->text = s.canonical ? s.canonical : s.word;
      return n;
    }
  for (const Simple& s : kSetArg)
    if (t.text == s.word) {
      forward();
      NodePtr a = match_set();
      if (!a) error(std::string("expected a set filter following '") + s.word + "'");
      n = mk(s.kind, s.type, t);
      n->text = s.word;
      n->add(Role::Arg, std::move(a));
      return n;
    }
  for (const char* tr : kTransforms)
    if (t.text == tr) return transform();
  if (is_direction(t))  // parser_sets.cpp
    return vector_filter();
  if (w == "any") error("The 'any' keyword has been replaced by the '.' character since version 5.2. Use '_' instead of '.' to denote an empty square");
  if (w == "lightsquares") error("'lightsquares' has been replaced by 'light .' in CQL 6. 'light set' is the light squares in set");
  if (w == "darksquares") error("'darksquares' has been replaced by 'dark .' in CQL 6. 'dark set' is the dark squares in set");
  if (w == "piecepath") error("'piecepath' is only a parameter of 'path'");
  // each family returns nullptr, without moving, for a keyword not its own; a dictionary's `persistent dictionary D`
  // comes before a variable's `persistent x = ...`
  using Family = NodePtr (Parser::*)();
  static constexpr Family kFamilies[] = {
      &Parser::control_filter, &Parser::find_filter,   &Parser::echo_filter,      &Parser::string_filter,
      &Parser::dictionary_filter, &Parser::variable_filter, &Parser::set_filter, &Parser::number_filter,
      &Parser::move_filter,    &Parser::game_info_filter, &Parser::hhdb_filter};
  for (Family family : kFamilies)
    if ((n = (this->*family)())) return n;
  return nullptr;
}

NodePtr Parser::number() {
  const Token& t = cur();
  bool negative = special("-");
  NodePtr n = mk(NodeKind::Number, ValueType::Numeric, t);
  n->a = negative ? -cur().number : cur().number;
  forward();
  return n;
}

NodePtr Parser::piece_designator() {
  const Token& t = cur();
  forward();
  NodePtr n = mk(NodeKind::PieceSet, ValueType::Set, t);
  n->pieces = t.pieces;
  n->squares = t.squares;
  n->text = t.spelling;
  return n;
}

NodePtr Parser::compound() {
  const Token& open = cur();
  if (open.kind == TokenKind::BraceRep) return nullptr;
  forward();
  std::vector<NodePtr> nodes = some_nodes();
  if (nodes.empty()) error("syntax error following a '{' : expected a filter");
  if (!special("}")) error("Syntax error while trying to parse list of filters: could not parse filter inside '{...}'");
  // {F} is F itself, except for a variable (pass by value), a line and a path (as in CQL 6.2)
  NodeKind k = nodes.front()->kind;
  if (nodes.size() == 1 && k != NodeKind::Variable && k != NodeKind::Line && k != NodeKind::Path)
    return std::move(nodes.front());
  NodePtr n = mk(NodeKind::Compound, nodes.back()->type, open);
  for (NodePtr& c : nodes) n->add(Role::Arg, std::move(c));
  return n;
}

NodePtr Parser::parens() {
  const Token& open = cur();
  forward();
  if (at_special(")")) error("An empty parenthesized expression was unexpectedly seen");
  NodePtr n = require(node(), "Cannot parse expression after '(', expected a filter");
  if (!special(")"))
    error("A parenthesized expression must contain exactly one filter here. Expected a ')' following the first filter");
  if (n->kind == NodeKind::Variable) {  // (x) passes a variable by value
    NodePtr c = mk(NodeKind::Compound, n->type, open);
    c->add(Role::Arg, std::move(n));
    return c;
  }
  return n;
}

// Checks that need the whole tree. A literal matched as a position filter (`check 3`) is not one of them: CQL 6.2
// stops only when it evaluates it, and so does the evaluator (eval/compile.cpp, mark_position_uses).
void Parser::finish() {
  if (unbound_) throw *unbound_;
}

}  // namespace cqlindex::cql
