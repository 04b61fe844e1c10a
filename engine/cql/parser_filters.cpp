// Named CQL filters: literals, designators, variables, loops, find/echo/sort, transforms, tags, strings.
#include <algorithm>
#include <cstring>
#include <set>

#include "engine/cql/lexer.h"
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
constexpr const char* kDirections[] = {"up", "down", "left", "right", "northeast", "northwest", "southeast",
                                       "southwest", "horizontal", "vertical", "diagonal", "orthogonal",
                                       "maindiagonal", "offdiagonal", "anydirection"};

bool is_direction(const Token& t) {
  if (t.kind != TokenKind::Keyword) return false;
  return std::any_of(std::begin(kDirections), std::end(kDirections), [&](const char* d) { return t.text == d; });
}

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
    case TokenKind::Special: {
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
      if (t.text == "-->" || t.text == "<--") return nullptr;
      return nullptr;
    }
    case TokenKind::Keyword: break;
    default: return nullptr;
  }
  // keywords
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
  if (is_direction(t)) return vector_filter();
  if (t.text == "square" || t.text == "piece") {
    if ((n = piece_assign())) return n;
    return square_or_piece_loop();
  }
  if (t.text == "find") return find();
  if (t.text == "echo") return echo();
  if (t.text == "consecutivemoves") return consecutive_moves();
  if (t.text == "sort") return sort();
  if (t.text == "comment" || t.text == "message" || t.text == "str") return string_converter();
  if (t.text == "dictionary") return dictionary();
  // CQL 6.1's dictionary iteration `string k in D F`, still read by 6.2: D must have string keys
  if (t.text == "string" && peek().kind == TokenKind::Identifier && peek(2).is_keyword("in") &&
      peek(3).kind == TokenKind::Identifier) {
    const int d = find_variable(peek(3).text);
    if (d >= 0 && q_.variables[d].kind == VariableKind::Dictionary) {
      const Token& var = peek();
      forward();
      forward();
      forward();
      if (q_.variables[d].key_type != ValueType::Logical && q_.variables[d].key_type != ValueType::String)
        error("type of dictionary must be string here for 'string x in D'");
      return dictionary_iteration(t, var, d);
    }
  }
  if (t.text == "local" && peek().is_keyword("dictionary")) {
    forward();
    return dictionary(true);
  }
  if (t.text == "persistent" && peek().is_keyword("dictionary")) {  // the default kind, said explicitly
    forward();
    return dictionary();
  }
  if (t.text == "function") return function_definition();
  if (t.text == "persistent" || t.text == "atomic") return assignment();
  if (t.text == "ray" || t.text == "xray") return ray();
  if (t.text == "pin") return pin();
  if (t.text == "move") return move();
  if (t.text == "legal" || t.text == "pseudolegal") return legal_dash();
  if (t.text == "countmoves") return count_moves();
  if (t.text == "currentmove" || t.text == "previous") return previous_dash();
  if (t.text == "line") return line();
  if (t.text == "path") return path();
  if ((n = tag_filters())) return n;
  return misc_filters();
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

// ---------------------------------------------------------------- variables

int Parser::find_variable(const std::string& name) const {
  for (size_t i = 0; i < q_.variables.size(); ++i)
    if (q_.variables[i].name == name) return static_cast<int>(i);
  return -1;
}

int Parser::declare(const std::string& name, VariableKind kind, ValueType type, const Token& at) {
  int v = find_variable(name);
  if (v >= 0) {
    if (q_.variables[v].kind != kind)
      error_at(at, "variable '" + name + "' was already declared with another type");
    return v;
  }
  if (functions_.count(name)) error_at(at, "'" + name + "' is a function, not a variable");
  q_.variables.push_back(Variable{name, kind, type});
  var_assigned_.push_back(false);
  return static_cast<int>(q_.variables.size() - 1);
}

NodePtr Parser::variable_node(int index, const Token& at) const {
  const Variable& v = q_.variables[index];
  NodePtr n = mk(NodeKind::Variable, v.type, at);
  n->var = index;
  n->text = v.name;
  return n;
}

NodePtr Parser::variable_use() {
  const Token& t = cur();
  if (t.kind != TokenKind::Identifier) return nullptr;
  if (!arg_frames_.empty()) {
    auto it = arg_frames_.back().find(t.text);
    if (it != arg_frames_.back().end()) {
      forward();
      return it->second->clone();
    }
  }
  int v = find_variable(t.text);
  if (v < 0) return nullptr;
  const Variable& var = q_.variables[v];
  if ((var.kind == VariableKind::Square || var.kind == VariableKind::Piece ||
       var.kind == VariableKind::Position) &&
      !var_assigned_[v] &&
      std::find(active_loop_vars_.begin(), active_loop_vars_.end(), v) == active_loop_vars_.end()) {
    // CQL 6.2 only finds this when the filter runs ("Unexpected unbound piece variable"); we know it now.
    const char* what = var.kind == VariableKind::Piece ? "piece" : var.kind == VariableKind::Square ? "square" : "position";
    if (!unbound_)
      unbound_ = CqlError(std::string("Unexpected unbound ") + what + " variable: " + t.text +
                              " (used outside the filter that binds it)",
                          t.line, t.column);
  }
  forward();
  return variable_node(v, t);
}

NodePtr Parser::assignment() {
  size_t x = save();
  const Token& start = cur();
  bool persistent = false, quiet = false, atomic = false;
  if (keywords("atomic", "piece")) error("'atomic piece' detected. atomic piece variables are not supported in this version of CQL.");
  if (keywords("persistent", "atomic") || keywords("atomic", "persistent"))
    error("combining 'atomic' and 'persistent' keywords is not currently supported");
  if (keywords("persistent", "quiet")) persistent = quiet = true;
  else if (keyword("persistent")) persistent = true;
  else if (keyword("atomic")) atomic = true;
  if (cur().kind != TokenKind::Identifier) {
    if (persistent || atomic) error("expected a variable name");
    restore(x);
    return nullptr;
  }
  const Token& name = cur();
  forward();
  const Token& op = cur();
  std::string opname;
  if (at_special("=") || at_special("=?")) {
    opname = op.text;
  } else if (op.kind == TokenKind::Special && op.text.size() == 2 && op.text[1] == '=' &&
             std::strchr("+-*/%|&", op.text[0])) {
    opname = op.text;
  } else {
    if (persistent || atomic) error("expected an assignment after the variable name");
    restore(x);
    return nullptr;
  }
  forward();
  // a parameter of a function being expanded stands for the variable passed to it
  std::string target = name.text;
  if (!arg_frames_.empty()) {
    auto it = arg_frames_.back().find(target);
    if (it != arg_frames_.back().end()) {
      if (it->second->kind != NodeKind::Variable) error_at(name, "cannot assign to a function parameter bound to a non-variable");
      target = it->second->text;
    }
  }
  NodePtr rhs = require(relop_x(), "could not parse right side of assignment statement for variable: " + target);
  int v = find_variable(target);
  if (v < 0 && persistent && rhs->type != ValueType::Logical && rhs->type != ValueType::Dictionary) {
    v = declare(target, rhs->type == ValueType::Numeric ? VariableKind::Numeric
                        : rhs->type == ValueType::String ? VariableKind::String : VariableKind::Set,
                rhs->type, name);
    q_.variables[v].persistent = true;
    q_.variables[v].quiet = quiet;
    q_.needs_single_thread = true;
  }
  if (opname.size() == 2 && opname != "=?") {
    if (v < 0) error_at(op, "Cannot use operation-assignment when variable does not exist: " + target + " " + opname);
    const Variable& var = q_.variables[v];
    char o = opname[0];
    bool ok = (o == '+' && var.type == ValueType::String && rhs->type == ValueType::String) ||
              ((o == '|' || o == '&') && var.type == ValueType::Set && rhs->type == ValueType::Set) ||
              (std::strchr("+-*/%", o) && var.type == ValueType::Numeric && rhs->type == ValueType::Numeric);
    if (!ok) error("Invalid types of operands to operator-assignment: " + opname);
  }
  if (rhs->type == ValueType::Logical) error("cannot assign a filter that has no value to variable: " + target);
  if (rhs->type == ValueType::Dictionary) error("cannot assign a dictionary to variable: " + target);
  VariableKind kind = rhs->type == ValueType::Numeric ? VariableKind::Numeric
                      : rhs->type == ValueType::String ? VariableKind::String
                      : rhs->type == ValueType::Position ? VariableKind::Position
                      : VariableKind::Set;
  if (v >= 0) {
    Variable& var = q_.variables[v];
    bool compatible = var.type == rhs->type;
    if (!compatible) error_at(op, "variable '" + target + "' has type " + type_name(var.type) + " but is assigned a " + type_name(rhs->type));
    if (var.kind == VariableKind::Piece) error_at(op, "a piece variable is set with 'piece " + target + " = set'");
    if (persistent && !var.persistent)
      error("Assignment specifies persistent variable but variable is already declared not persistent: " + target);
    if (atomic && !var.atomic)  // atomic: the first assignment says it
      error_at(start, "Assignment specifies atomic variable but variable is already declared not atomic: " + target);
  } else {
    v = declare(target, kind, rhs->type, name);
    q_.variables[v].persistent = persistent;
    q_.variables[v].quiet = quiet;
    q_.variables[v].atomic = atomic;
    if (persistent) q_.needs_single_thread = true;
  }
  var_assigned_[v] = true;
  NodePtr n = mk(NodeKind::Assign, opname == "=?" ? ValueType::Logical : rhs->type, start);
  n->text = opname;
  n->var = v;
  if (persistent) n->options.push_back(quiet ? Option::PersistentQuiet : Option::Persistent);
  if (atomic) n->options.push_back(Option::Atomic);
  n->add(Role::Target, variable_node(v, name));
  n->add(Role::Value, std::move(rhs));
  return n;
}

// k∊D F (and CQL 6.1's `string k in D F`): F for each key of D, k bound to it. The cursor is on D.
NodePtr Parser::dictionary_iteration(const Token& start, const Token& var, int d) {
  const Token& dt = cur();
  forward();
  // the key variable takes the type of the keys, known from an assignment earlier in the text (CQL 6.2)
  const Variable& dv = q_.variables[d];
  if (dv.key_type == ValueType::Logical || dv.value_type == ValueType::Logical)
    error_at(dt, "type of dictionary is not yet set. You must first assign to a dictionary before using "
                 "'varname \u220A dictionaryname body'");
  const ValueType kt = dv.key_type;
  const VariableKind kk = kt == ValueType::Numeric ? VariableKind::Numeric
                          : kt == ValueType::Set ? VariableKind::Set
                          : kt == ValueType::Position ? VariableKind::Position
                          : VariableKind::String;
  const int known = find_variable(var.text);
  if (known >= 0 && q_.variables[known].type != kt)
    error_at(var, std::string("type of variable in dictionary iteration ") + type_name(q_.variables[known].type) +
                      " does not match that of the key of the dictionary " + type_name(kt));
  int k = declare(var.text, kk, kt, var);
  var_assigned_[k] = true;
  NodePtr body = require(node(), "expected a filter following the dictionary iteration");
  NodePtr n = mk(NodeKind::DictionaryIterate, ValueType::Logical, start);
  n->var = k;
  n->text = var.text;
  n->add(Role::Dictionary, variable_node(d, dt));
  n->add(Role::Body, std::move(body));
  return n;
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
  active_loop_vars_.push_back(v);
  NodePtr body = require(node(), "No filter following the loop variable and its set");
  active_loop_vars_.pop_back();
  NodePtr n = mk(piece ? NodeKind::PieceLoop : NodeKind::SquareLoop, all ? ValueType::Logical : ValueType::Set, start);
  n->var = v;
  n->text = var.text;
  if (all) n->options.push_back(Option::All);
  n->add(Role::Domain, std::move(domain));
  n->add(Role::Body, std::move(body));
  return n;
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
  active_loop_vars_.push_back(v);
  NodePtr body = node();
  active_loop_vars_.pop_back();
  if (!body) error(piece ? "missing body in piece filter" : "No filter following 'square .. in expr..'");
  NodePtr n = mk(piece ? NodeKind::PieceLoop : NodeKind::SquareLoop, all ? ValueType::Logical : ValueType::Set, start);
  n->var = v;
  n->text = var.text;
  if (all) n->options.push_back(Option::All);
  n->add(Role::Domain, std::move(domain));
  n->add(Role::Body, std::move(body));
  return n;
}

NodePtr Parser::piece_assign() {
  size_t x = save();
  const Token& start = cur();
  std::string name;
  if (start.kind == TokenKind::PieceDecl) {
    name = start.text;
    forward();
  } else if (keyword("piece")) {
    if (cur().is_keyword("all") || cur().kind != TokenKind::Identifier) { restore(x); return nullptr; }
    name = cur().text;
    forward();
  } else {
    return nullptr;
  }
  const Token& var = toks_[save() - 1];
  if (!special("=")) { restore(x); return nullptr; }
  NodePtr set = match_set();
  if (!set) error("Missing set filter following 'piece " + name + "='");
  int v = declare(name, VariableKind::Piece, ValueType::Set, var);
  var_assigned_[v] = true;
  NodePtr n = mk(NodeKind::PieceAssign, ValueType::Set, start);
  n->var = v;
  n->text = name;
  n->add(Role::Value, std::move(set));
  return n;
}

// ---------------------------------------------------------------- find, echo, sort, transforms

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
  active_loop_vars_.push_back(sv);
  active_loop_vars_.push_back(tv);
  NodePtr body = node();
  active_loop_vars_.pop_back();
  active_loop_vars_.pop_back();
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

NodePtr Parser::transform() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Transform, ValueType::Logical, start);
  n->text = start.text == "dihedral" || start.text == "flipdihedral" ? "flip" : start.text;
  bool ranged = match_range(*n);
  NodePtr body = require(node(), "expected a filter following '" + start.text + "'");
  // a transform of a position is not a position (CQL 6.2: `flipcolor count {flipcolor (parent == child)} >= 1`
  // counts, random-differential C32-1): its images are tried as filters
  n->type = ranged ? ValueType::Numeric : body->type == ValueType::Position ? ValueType::Logical : body->type;
  n->add(Role::Body, std::move(body));
  return n;
}

// comment(...) message(...) str(...) and the line form ///
NodePtr Parser::string_converter() {
  const Token& start = cur();
  forward();
  NodeKind kind = start.text == "str" ? NodeKind::ToString : start.text == "message" ? NodeKind::Message : NodeKind::Comment;
  NodePtr n = mk(kind, kind == NodeKind::ToString ? ValueType::String : ValueType::Logical, start);
  if (start.text == "///") {
    while (!eof() && cur().line == start.line) {
      NodePtr a = node();
      if (!a) break;
      n->add(Role::Arg, std::move(a));
    }
    if (n->kids.empty()) error("expected filters following '///'");
    return n;
  }
  if (kind == NodeKind::Message && keyword("quiet")) n->options.push_back(Option::Quiet);
  if (special("(")) {
    while (!special(")")) {
      if (cur().is_keyword("fen") && peek().kind == TokenKind::String) {
        // CQL 6.2 reads `comment(fen "x")` as the position's FEN, then the string: two arguments
        n->add(Role::Arg, mk(NodeKind::Fen, ValueType::String, cur()));
        forward();
        continue;
      }
      NodePtr a = node();
      if (!a) error("expected a filter or ')' in '" + start.text + "(...)'");
      n->add(Role::Arg, std::move(a));
    }
  } else {
    n->add(Role::Arg, require(substring_x(), "expected '(' or a filter following '" + start.text + "'"));
  }
  return n;
}

NodePtr Parser::dictionary(bool local) {
  const Token& start = cur();
  if (start.is_keyword("dictionary")) {
    // CQL 6.2 writes the kind before the keyword (`local dictionary D`, `persistent dictionary D`); what
    // follows `dictionary` is the name
    forward();
    if (cur().kind != TokenKind::Identifier) error("expected name after keyword 'dictionary'");
    const Token& name = cur();
    forward();
    int v = declare(name.text, VariableKind::Dictionary, ValueType::Dictionary, name);
    var_assigned_[v] = true;
    if (!local) {
      q_.variables[v].persistent = true;
      q_.needs_single_thread = true;
    }
    NodePtr n = mk(NodeKind::DictionaryDecl, ValueType::Logical, start);
    n->var = v;
    n->text = name.text;
    if (local) n->options.push_back(Option::Local);
    return n;
  }
  if (start.kind != TokenKind::Identifier || !peek().is_special("[")) return nullptr;
  int v = find_variable(start.text);
  if (v < 0 || q_.variables[v].kind != VariableKind::Dictionary) return nullptr;
  forward();
  forward();
  NodePtr key = require(node(), "expected a key inside '[...]' of dictionary " + start.text);
  if (!special("]")) error("expected ']' after the dictionary key");
  const bool assign = at_special("=");
  dictionary_key(v, *key, start, assign ? KeyUse::Assign : KeyUse::Read);
  if (special("=")) {
    NodePtr value = require(relop_x(), "expected a value following '" + start.text + "[...]='");
    Variable& dv = q_.variables[v];
    if (value->type == ValueType::Position && dv.persistent)
      error_at(start, "Attempt to insert a position value into a dictionary that is not a local dictionary");
    if (dv.value_type == ValueType::Logical) dv.value_type = value->type;
    else if (dv.value_type != value->type) error_at(start, "dictionary " + start.text + " holds values of another type");
    NodePtr n = mk(NodeKind::Assign, value->type, start);
    n->text = "=";
    n->var = v;
    n->options.push_back(Option::Dictionary);
    n->add(Role::Target, variable_node(v, start));
    n->add(Role::Key, std::move(key));
    n->add(Role::Value, std::move(value));
    return n;
  }
  ValueType vt = q_.variables[v].value_type == ValueType::Logical ? ValueType::String : q_.variables[v].value_type;
  NodePtr n = mk(NodeKind::DictionaryGet, vt, start);
  n->var = v;
  n->add(Role::Dictionary, variable_node(v, start));
  n->add(Role::Key, std::move(key));
  // the value type is fixed by the first assignment (we only know strings and numbers statically)
  return n;
}

// The lexer reads `[e1]`, `[x]` and `[Kk]` as a square list, a capture and a piece set; right after the name
// of a dictionary (declared earlier in the text, no space between) they are an index: '[' key ']', the key
// lexed again from the bracketed text. A square list keeps its squares as one key (`D[e1,h8]`).
void Parser::split_dictionary_keys() {
  std::set<std::string> dicts;
  for (const Variable& v : q_.variables)
    if (v.kind == VariableKind::Dictionary) dicts.insert(v.name);
  std::vector<Token> out;
  out.reserve(toks_.size() + 8);
  size_t declared = SIZE_MAX;  // index of the name in `dictionary NAME`: not an access
  for (size_t i = 0; i < toks_.size(); ++i) {
    const Token& t = toks_[i];
    out.push_back(t);
    if (t.is_keyword("dictionary")) {
      size_t j = i + 1;
      if (j < toks_.size() && (toks_[j].is_keyword("local") || toks_[j].is_keyword("persistent"))) ++j;
      if (j < toks_.size() && toks_[j].kind == TokenKind::Identifier) {
        dicts.insert(toks_[j].text);
        declared = j;
      }
      continue;
    }
    if (i == declared || t.kind != TokenKind::Identifier || !dicts.count(t.text) || i + 1 >= toks_.size()) continue;
    const Token& b = toks_[i + 1];
    if (b.space_before || b.kind == TokenKind::Special || b.end < b.offset + 3 || source_[b.offset] != '[' ||
        source_[b.end - 1] != ']')
      continue;
    Token open = b, close = b;
    open.kind = close.kind = TokenKind::Special;
    open.text = "[";
    close.text = "]";
    open.end = open.offset + 1;
    close.offset = b.end - 1;
    close.column = b.column + int(b.end - b.offset) - 1;  // the bracketed text is ASCII
    close.space_before = false;
    out.push_back(open);
    std::string_view inner = source_.substr(b.offset + 1, b.end - b.offset - 2);
    if (b.kind == TokenKind::Piece && b.pieces == 0) {  // a square list: its set is the key
      Token key = b;
      key.offset += 1;
      key.end -= 1;
      key.column += 1;
      key.space_before = false;
      if (inner.find(',') == std::string_view::npos) key.spelling = std::string(inner);
      out.push_back(key);
    } else {
      std::vector<Token> keys;
      try {
        keys = lex(inner);
      } catch (const CqlError& e) {
        throw CqlError(e.what(), b.line, b.column + e.column);
      }
      for (Token& k : keys) {
        if (k.kind == TokenKind::End) continue;
        k.line = b.line;
        k.column += b.column;
        k.offset += b.offset + 1;
        k.end += b.offset + 1;
        out.push_back(std::move(k));
      }
    }
    out.push_back(close);
    ++i;
  }
  toks_ = std::move(out);
}

// The keys of a dictionary all have one type, fixed by its first assignment (as in CQL 6.2), so that the
// variable of an iteration over the keys has that type too (and D[k] finds the entry again).
void Parser::dictionary_key(int dict, const Node& key, const Token& at, KeyUse use) {
  Variable& dv = q_.variables[dict];
  if (key.type == ValueType::Logical || key.type == ValueType::Dictionary)
    error_at(at, "The type of the key in " + dv.name + "[key] must be set, number, position, or string");
  if (key.type == ValueType::Position && dv.persistent)
    error_at(at, "Attempt to use a position-valued key for a dictionary that is not a local dictionary");
  if (use == KeyUse::Unbind && dv.key_type == ValueType::Logical)
    error_at(at, "'unbind " + dv.name + "[key]': no entry was assigned to " + dv.name + " before");
  if (dv.key_type != ValueType::Logical && dv.key_type != key.type)
    error_at(at, "dictionary " + dv.name + " has " + type_name(dv.key_type) + " keys, not " + type_name(key.type));
  if (use == KeyUse::Assign) dv.key_type = key.type;
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
  arg_frames_.push_back(frame);
  restore(f.body_begin);
  NodePtr body;
  try {
    body = compound();
  } catch (...) {
    arg_frames_.pop_back();
    throw;
  }
  if (save() != f.body_end) error("internal: function body not fully parsed");
  arg_frames_.pop_back();
  restore(resume);
  NodePtr n = mk(NodeKind::FunctionCall, body->type, name);
  n->text = name.text;
  for (NodePtr& a : args) n->add(Role::Arg, std::move(a));
  n->add(Role::Body, std::move(body));
  return n;
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

// ---------------------------------------------------------------- tags and game information

// Implicit search: a non-empty quoted string after a string tag filter means `"s" in filter`.
NodePtr Parser::trailing_search(NodePtr n) {
  if (n->type != ValueType::String || cur().kind != TokenKind::String || cur().text.empty()) return n;
  const Token& s = cur();
  const std::string& p = s.text;
  size_t lb = p.find('[');
  if ((lb != std::string::npos && p.find(']', lb) != std::string::npos) ||
      p.find_first_of("*+?", 1) != std::string::npos)
    error("Use of the search pattern \"" + p + "\" in a context in which this pattern is interpreted literally "
          "but might have been intended to be a regular expression; prefix it with ~~ or write \"" + p + "\" in ...");
  forward();
  NodePtr lit = mk(NodeKind::StringLiteral, ValueType::String, s);
  lit->text = p;
  NodePtr in = mk(NodeKind::StringIn, ValueType::Logical, s);
  in->options.push_back(Option::Implicit);
  in->add(Role::Left, std::move(lit));
  in->add(Role::Right, std::move(n));
  return in;
}

NodePtr Parser::tag_filters() {
  const Token& t = cur();
  if (t.kind != TokenKind::Keyword) return nullptr;
  static const char* builtin[][2] = {{"site", "Site"}, {"event", "Event"}, {"date", "Date"},
                                     {"eventdate", "EventDate"}, {"eco", "ECO"}};
  for (auto& b : builtin)
    if (t.text == b[0]) {
      forward();
      NodePtr n = mk(NodeKind::TagBuiltin, ValueType::String, t);
      n->text = b[1];
      return trailing_search(std::move(n));
    }
  if (t.text == "player") {
    forward();
    NodePtr n = mk(NodeKind::Player, ValueType::String, t);
    if (keyword("white")) n->text = "white";
    else if (keyword("black")) n->text = "black";
    return trailing_search(std::move(n));
  }
  if (t.text == "elo") {
    forward();
    NodePtr n = mk(NodeKind::Elo, ValueType::Numeric, t);
    if (keyword("white")) n->text = "white";
    else if (keyword("black")) n->text = "black";
    return n;
  }
  if (t.text == "white" || t.text == "black") {
    forward();
    NodePtr n = mk(NodeKind::ColorValue, ValueType::Numeric, t);
    n->text = t.text;
    return n;
  }
  if (t.text == "result") {
    forward();
    bool quoted_result = cur().kind == TokenKind::String &&
                         (cur().text == "1-0" || cur().text == "0-1" || cur().text == "1/2-1/2");
    if (cur().kind != TokenKind::Result && !quoted_result)
      error("Expecting '1-0' or '0-1' or '1/2-1/2' following 'result'");
    NodePtr n = mk(NodeKind::Result, ValueType::Logical, t);
    n->text = cur().text;
    forward();
    return n;
  }
  if (t.text == "tag") {
    forward();
    if (cur().kind != TokenKind::String || cur().text.empty()) error("expected a nonempty quoted tag name following 'tag'");
    // any name, the built-in ones too (`tag "White"`: CQL 6.2 reads the tag)
    NodePtr n = mk(NodeKind::Tag, ValueType::String, t);
    n->text = cur().text;
    forward();
    return n;
  }
  if (t.text == "settag") {
    forward();
    if (!special("(")) error("'settag' should be followed by '(' which is missing here (and then the two arguments)");
    if (cur().kind != TokenKind::String || cur().text.empty())
      error("'settag' must be followed by a left paren and nonempty quoted string");
    // settag is for custom tags: CQL 6.2 refuses the tags it writes itself (its TagSection's list; the manual
    // says any name starting with White or Black, the program refuses only the player and rating tags)
    static const char* builtin[] = {"Event", "Site", "Date", "ECO", "FEN", "Round", "Result", "EventDate",
                                    "White", "WhiteBCF", "WhiteDWZ", "WhiteElo", "WhiteICCF", "WhiteRapid",
                                    "WhiteRating", "WhiteUSCF", "Black", "BlackBCF", "BlackDWZ", "BlackElo",
                                    "BlackICCF", "BlackRapid", "BlackRating", "BlackUSCF"};
    const std::string& tag_name = cur().text;
    if (std::find(std::begin(builtin), std::end(builtin), tag_name) != std::end(builtin))
      error("'settag' cannot set the tag \"" + tag_name + "\": it is for custom tags (not the ones CQL writes itself: "
            "Event, Site, Date, Round, Result, ECO, EventDate, FEN, the players and their ratings)");
    NodePtr n = mk(NodeKind::SetTag, ValueType::Logical, t);
    n->text = cur().text;
    forward();
    NodePtr v = require(node(), "'settag' must be followed by a left paren, a nonempty quoted string and then a filter");
    if (v->type != ValueType::String) error("Expected a string filter following 'settag(\"xx\" '");
    if (!special(")")) error("'settag': the closing ')' is missing");
    n->add(Role::Value, std::move(v));
    return n;
  }
  if (t.text == "hascomment" || t.text == "originalcomment") {
    forward();
    NodePtr n = mk(NodeKind::HasComment, ValueType::String, t);
    n->text = t.text;
    return trailing_search(std::move(n));
  }
  if (t.text == "fen") {
    forward();
    if (cur().kind == TokenKind::String) {
      // the board part of a FEN: 8 ranks of pieces and digits, each 8 squares wide
      const std::string board = cur().text.substr(0, cur().text.find(' '));
      int ranks = 1, width = 0;
      bool ok = !board.empty();
      for (char c : board) {
        if (c == '/') {
          ok = ok && width == 8;
          ++ranks;
          width = 0;
        } else if (c >= '1' && c <= '8') {
          width += c - '0';
        } else if (std::strchr("KQRBNPkqrbnp", c)) {
          ++width;
        } else {
          ok = false;
        }
      }
      if (!ok || ranks != 8 || width != 8) error("invalid FEN board following 'fen'");
      NodePtr n = mk(NodeKind::Fen, ValueType::Logical, t);
      n->text = cur().text;
      forward();
      return n;
    }
    return mk(NodeKind::Fen, ValueType::String, t);
  }
  if (t.text == "similarposition") {
    forward();
    NodePtr n = mk(NodeKind::SimilarPosition, ValueType::Logical, t);
    while (true) {
      if (keyword("nosort")) n->options.push_back(Option::NoSort);
      else if (keyword("notransform")) n->options.push_back(Option::NoTransform);
      else break;
    }
    if (cur().kind != TokenKind::String || cur().text.empty()) error("expected a quoted .pgn file name following 'similarposition'");
    n->text = cur().text;
    forward();
    return n;
  }
  return nullptr;
}

NodePtr Parser::misc_filters() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  if (w == "any") error("The 'any' keyword has been replaced by the '.' character since version 5.2. Use '_' instead of '.' to denote an empty square");
  if (w == "lightsquares") error("'lightsquares' has been replaced by 'light .' in CQL 6. 'light set' is the light squares in set");
  if (w == "darksquares") error("'darksquares' has been replaced by 'dark .' in CQL 6. 'dark set' is the dark squares in set");
  if (w == "piecepath") error("'piecepath' is only a parameter of 'path'");
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
    if (a->type != b->type) error("the arguments of 'equal' must have the same type");
    if (!special(")")) error("expected ')' after the arguments of 'equal'");
    n = mk(NodeKind::GenericEqual, ValueType::Logical, t);
    n->add(Role::Left, std::move(a));
    n->add(Role::Right, std::move(b));
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
  if (w == "unbind") {
    forward();
    if (cur().kind != TokenKind::Identifier) error("expected a variable following 'unbind'");
    int v = find_variable(cur().text);
    if (v < 0) error("unknown variable following 'unbind': " + cur().text);
    const Token& vt = cur();
    forward();
    n = mk(NodeKind::Unbind, ValueType::Logical, t);
    n->var = v;
    n->add(Role::Target, variable_node(v, vt));
    if (q_.variables[v].kind == VariableKind::Dictionary && special("[")) {
      n->add(Role::Key, require(node(), "expected a key in 'unbind d[...]'"));
      if (!special("]")) error("expected ']' after the key");
      dictionary_key(v, *n->child(Role::Key), vt, KeyUse::Unbind);
    }
    return n;
  }
  if (w == "isbound" || w == "isunbound") {
    forward();
    std::string name;
    if (cur().kind == TokenKind::String && !cur().text.empty()) name = cur().text;
    else if (cur().kind == TokenKind::Identifier) name = cur().text;
    else error("'isbound' and 'isunbound' must be followed by a quoted string or a variable name");
    forward();
    n = mk(NodeKind::IsBound, ValueType::Logical, t);
    n->text = name;
    if (w == "isunbound") n->options.push_back(Option::Not);
    return n;
  }
  if (w == "uppercase" || w == "lowercase" || w == "int" || w == "readfile") {
    forward();
    NodePtr a = w == "int" ? match_string() : match_string();
    if (!a) error("expected a string filter following '" + w + "'");
    NodeKind k = w == "int" ? NodeKind::StringToInt : w == "readfile" ? NodeKind::ReadFile : NodeKind::CaseConvert;
    n = mk(k, w == "int" ? ValueType::Numeric : ValueType::String, t);
    n->text = w;
    n->add(Role::Arg, std::move(a));
    if (k == NodeKind::ReadFile) q_.needs_single_thread = true;
    return n;
  }
  if (w == "ascii") {
    forward();
    NodePtr a = match_sortable();
    if (!a) error("expected a string filter or numeric filter following 'ascii'");
    n = mk(NodeKind::Ascii, a->type == ValueType::String ? ValueType::Numeric : ValueType::String, t);
    n->add(Role::Arg, std::move(a));
    return n;
  }
  if (w == "indexof" || w == "writefile") {
    forward();
    if (!special("(")) error("expecting '(' following '" + w + "'");
    NodePtr a = match_string();
    if (!a) error("could not get first argument to '" + w + "', which must be a string");
    NodePtr b = match_string();
    if (!b) error("could not get second argument to '" + w + "', which must be a string");
    if (!special(")")) error("expected ')' after the arguments of '" + w + "'");
    n = mk(w == "indexof" ? NodeKind::IndexOf : NodeKind::WriteFile,
           w == "indexof" ? ValueType::Numeric : ValueType::Logical, t);
    n->add(Role::Left, std::move(a));
    n->add(Role::Right, std::move(b));
    if (w == "writefile") q_.needs_single_thread = true;
    return n;
  }
  if (w == "cql_assertvariations") {
    forward();
    if (cur().kind != TokenKind::String || cur().text.empty())
      error("cql_assertvariations must be followed by nonempty quoted string");
    n = mk(NodeKind::AssertVariations, ValueType::Logical, t);
    n->text = cur().text;
    forward();
    return n;
  }
  if (w == "hhdb") return hhdb();  // parser_hhdb.cpp
  return nullptr;
}

// Checks that need the whole tree. A literal matched as a position filter (`check 3`) is not one of them: CQL 6.2
// stops only when it evaluates it, and so does the evaluator (eval/compile.cpp, mark_position_uses).
void Parser::finish() {
  if (unbound_) throw *unbound_;
}

}  // namespace cqlindex::cql
