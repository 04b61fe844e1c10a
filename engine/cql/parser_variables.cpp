// Variables: their table, a use, an assignment (=, op=, =?, persistent, atomic), `piece x = S`, unbind, isbound.
#include <algorithm>
#include <cstring>

#include "engine/cql/parser.h"

namespace cqlindex::cql {

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
  if (persistent && rhs->type == ValueType::Position)  // as CQL 6.2: a position is of one game only
    error("Only string, set, and numeric variables can be persistent: " + target);
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

// persistent/atomic assignments, unbind, isbound, isunbound; nullptr (not moving) for another word.
NodePtr Parser::variable_filter() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  if (w == "persistent" || w == "atomic") return assignment();
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
  return nullptr;
}

}  // namespace cqlindex::cql
