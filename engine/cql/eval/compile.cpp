// Compiling the bound tree into Ops: transforms expanded, names resolved to enums, children put in the
// fixed order each op family reads them in. The families are compiled in compile_<family>.cpp, beside the
// eval_<family>.cpp that runs them; here: the dispatch, the shared helpers and the program's finishing touches.
#include <algorithm>
#include <unordered_set>

#include "engine/cql/error.h"
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/transform.h"
#include "engine/cql/similar/submission_files.h"

namespace cqlindex::cql::eval {
namespace {

// The literals matched as position filters, where CQL 6.2 stops the run when it evaluates them (its
// match_position of a number, a string literal, `fen`, `sqrt`, `lastgamenumber`, `str`, and of the position
// navigations `distance` and `lca`, whose value is what they are for): the filters whose truth
// alone is used (the top level, all but the last filter of {...}, the arguments of and/or/not, conditions, loop
// and line bodies, ...).
// `position` says whether n itself is in such a place.
void mark_position_uses(const Node& n, bool position, std::unordered_set<const Node*>& out) {
  if (position && (n.kind == NodeKind::Number || n.kind == NodeKind::StringLiteral || n.kind == NodeKind::Sqrt ||
                   (n.kind == NodeKind::Fen && n.type == ValueType::String) ||
                   (n.kind == NodeKind::Counter && n.text == "lastgamenumber") || n.kind == NodeKind::ToString ||
                   n.kind == NodeKind::Distance || n.kind == NodeKind::Lca))
    out.insert(&n);
  auto each = [&](bool pos, std::optional<Role> role = std::nullopt) {
    for (const Child& k : n.kids)
      if (k.node && (!role || k.role == *role)) mark_position_uses(*k.node, pos, out);
  };
  auto role_is = [](const Child& k, Role role) { return k.role == role; };
  switch (n.kind) {
    case NodeKind::Compound:
      for (size_t i = 0; i < n.kids.size(); ++i)
        mark_position_uses(*n.kids[i].node, position || i + 1 < n.kids.size(), out);
      return;
    case NodeKind::And: case NodeKind::Or: case NodeKind::Not: case NodeKind::Loop: case NodeKind::While:
    case NodeKind::Assert: case NodeKind::SeqFilter: case NodeKind::SeqChain: case NodeKind::SeqRepeat:
    case NodeKind::DictionaryIterate:
      each(true);
      return;
    case NodeKind::If:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::If) || position, out);
      return;
    case NodeKind::SquareLoop: case NodeKind::PieceLoop: case NodeKind::Find:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Body), out);
      return;
    case NodeKind::Echo:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Body) && k.node->type != ValueType::Numeric, out);
      return;
    case NodeKind::Line: case NodeKind::Path:
      each(true, Role::Arg);
      return;
    case NodeKind::Dash:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Target), out);
      return;
    case NodeKind::Transform: {  // expanded: its images; a counted transform only asks whether each matches
      const bool counted = n.has(Option::Count) || n.child(Role::Low);
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Image) && (position || counted), out);
      return;
    }
    case NodeKind::NoTransform: case NodeKind::FunctionCall:
      each(position, Role::Body);
      return;
    case NodeKind::WithPosition:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Body) && position, out);
      return;
    default:
      each(false);
  }
}

// CQL 6.2's message for a literal matched as a position filter.
std::string position_use_message(const Node& n) {
  switch (n.kind) {
    case NodeKind::Number:
      return "An attempt to match a position against the number: " + std::to_string(n.a) +
             " was made. Although this is not technically an error, it is likely a result of an unexpected parse.";
    case NodeKind::StringLiteral:
      return "Attempt to match the position to a string literal, which is unnecessary because string literals always "
             "match so is probably inadvertent. The string literal is: " + n.text;
    case NodeKind::Sqrt:
      return "Attempt to match an sqrt value node (which may have arisen from a 'type' filter). Although technically "
             "legal, this is likely unintended";
    case NodeKind::ToString:
      return "attempt to use 'str ...' but the string value it returns is ignored. The 'str' filter is always true "
             "however";
    case NodeKind::Distance:
      return "attempt to match position of distance filter. Although legal, this is likely an error";
    case NodeKind::Lca:
      return "attempt to match position of LCA filter. Although legal, this is likely an error";
    case NodeKind::Fen:
      return "attempt to determine if 'currentfen' matches the current position, which it always does. Perhaps you "
             "intended to use its string value";
    default:
      return "'lastgamenumber' invoked in a context where it is used for whether it matches, but this filter always "
             "matches. Do not ignore its numeric value";
  }
}

}  // namespace

void unsupported(const Node& n, const std::string& what) {
  throw CqlError("'" + what + "' is not supported by the evaluator yet", n.line, n.column);
}

OpPtr Compiler::compile(const Node& n) {
  if (position_uses.count(&n)) {
    auto o = op(OpCode::RuntimeError, n);
    o->type = ValueType::Logical;
    o->text = position_use_message(n);
    prog.may_fail = true;
    return o;
  }
  // each node kind is owned by exactly one family; the others return nullptr for it
  using Family = OpPtr (Compiler::*)(const Node&);
  static constexpr Family kFamilies[] = {
      &Compiler::compile_logic,     &Compiler::compile_variables, &Compiler::compile_sets,
      &Compiler::compile_piece_attributes, &Compiler::compile_moves, &Compiler::compile_line,
      &Compiler::compile_path,      &Compiler::compile_find,      &Compiler::compile_echo,
      &Compiler::compile_game_info, &Compiler::compile_predicates, &Compiler::compile_control,
      &Compiler::compile_dictionary, &Compiler::compile_strings,  &Compiler::compile_hhdb,
      &Compiler::compile_similar};
  for (Family family : kFamilies)
    if (OpPtr o = (this->*family)(n)) return o;
  unsupported(n, kind_name(n.kind));
}

int Compiler::sort_slot(const Node& n, const std::string& description, bool min, bool quiet, bool text) {
  // CQL 6.2 numbers only the sorts without a description: `sort "a" ply sort #A` labels the second <sort-id-1>
  const auto unnamed = std::count_if(prog.sorts.begin(), prog.sorts.end(),
                                     [](const auto& s) { return s.description.rfind("<sort-id-", 0) == 0; });
  std::string desc = description.empty() ? "<sort-id-" + std::to_string(unnamed + 1) + ">" : description;
  size_t slot = prog.sorts.size();
  for (size_t i = 0; i < prog.sorts.size(); ++i)
    if (!description.empty() && prog.sorts[i].description == desc) slot = i;
  if (slot == prog.sorts.size()) prog.sorts.push_back({desc, min, quiet, text});
  else if (prog.sorts[slot].min != min || prog.sorts[slot].text != text)  // conjoined: one order, one type
    throw CqlError("sort \"" + desc + "\": sorts sharing a description must have the same order (min or max) "
                   "and type (string or numeric)", n.line, n.column);
  return int(slot);
}

OpPtr Compiler::op(OpCode code, const Node& n) {
  auto o = std::make_unique<Op>();
  o->code = code;
  o->type = n.type;
  o->text = n.text;
  o->a = n.a;
  o->b = n.b;
  o->squares = n.squares;
  o->pieces = n.pieces;
  o->var = n.var;
  o->line = n.line;
  o->column = n.column;
  return o;
}

OpPtr Compiler::child(const Node& n, Role role) {
  const Node* c = n.child(role);
  return c ? compile(*c) : nullptr;
}

void Compiler::all_kids(const Node& n, Op& o, std::optional<Role> role) {
  for (const Child& k : n.kids)
    if (!role || k.role == *role) o.kids.push_back(compile(*k.node));
}

bool Compiler::range(const Node& n, Op& o) {
  const Node* lo = n.child(Role::Low);
  const Node* hi = n.child(Role::High);
  if (n.has(Option::Count)) {
    o.a = 0;
    o.b = -1;
    return true;
  }
  if (!lo) return false;
  // a bound that is not a number (a numeric variable) is read each time the filter is (range_holds)
  o.a = lo->kind == NodeKind::Number ? lo->a : 0;
  if (lo->kind != NodeKind::Number) o.range_low = compile(*lo);
  const Node* top = hi ? hi : lo;
  o.b = top->kind == NodeKind::Number ? top->a : 0;
  if (top->kind != NodeKind::Number) o.range_high = compile(*top);
  return true;
}

namespace {

// True when op's value depends only on the game's tags (never on the position), and it writes no comment.
bool game_constant(const Op& op) {
  switch (op.code) {
    case OpCode::Number: case OpCode::String: case OpCode::True: case OpCode::False: case OpCode::Result:
    case OpCode::TagValue: case OpCode::Player: case OpCode::Elo: case OpCode::Year: case OpCode::GameNumber:
    case OpCode::StringIn: case OpCode::RegexMatch: case OpCode::Relation: case OpCode::Arithmetic:
    case OpCode::Not: case OpCode::And: case OpCode::Or: case OpCode::Compound: case OpCode::Orbit:
    case OpCode::Negate: case OpCode::Abs: case OpCode::Concat: case OpCode::StringLength:
      for (const auto& k : op.kids)
        if (k && !game_constant(*k)) return false;
      return true;
    default: return false;
  }
}

// lang: true when op (or a filter under it) acts beyond the game's output: message, writefile.
bool has_effects(const Op& op) {
  if (op.code == OpCode::Message || op.code == OpCode::WriteFile) return true;
  for (const auto& k : op.kids)
    if (k && has_effects(*k)) return true;
  return false;
}

// Whether a read under `op` may find its variable unbound, which stops CQL 6.2 with an error where it is
// evaluated (eval_variable). A read is safe after its variable's plain assignment earlier in an enclosing
// compound or `and` (each of their filters is reached only when the ones before it matched; `assigned`, by
// variable), or when the variable is persistent; comment, message and str write an unbound variable instead.
bool may_read_unbound(const Op& op, const Program& prog, std::vector<uint8_t>& assigned) {
  auto can_fail = [&](int var) {
    const VariableKind kind = prog.variable_kinds[size_t(var)];
    return !prog.always_bound[size_t(var)] && !assigned[size_t(var)] &&
           (kind == VariableKind::Numeric || kind == VariableKind::String || kind == VariableKind::Set ||
            kind == VariableKind::Position);
  };
  if (op.code == OpCode::Variable) return op.var >= 0 && can_fail(op.var);
  const bool sequence = op.code == OpCode::Compound || op.code == OpCode::And;
  const bool writes = op.code == OpCode::Comment || op.code == OpCode::Message || op.code == OpCode::ToString;
  // A binder gives its variables a value before its body is evaluated: echo its source and target, a square or
  // piece loop and a dictionary's iteration their variable.
  std::vector<uint8_t> bound = assigned;
  auto bind = [&](int64_t var) {
    if (var >= 0 && size_t(var) < bound.size()) bound[size_t(var)] = 1;
  };
  if (op.code == OpCode::Echo) {
    bind(op.a);
    bind(op.b);
  } else if (op.code == OpCode::SquareLoop || op.code == OpCode::PieceLoop || op.code == OpCode::DictIterate) {
    bind(op.var);
  }
  std::vector<uint8_t> inner = bound;
  for (const auto& k : op.kids) {
    if (!k || (writes && k->code == OpCode::Variable)) continue;
    if (!sequence) inner = bound;
    if (may_read_unbound(*k, prog, inner)) return true;
    if (sequence && (k->code == OpCode::Assign || k->code == OpCode::PieceAssign) && k->var >= 0)
      inner[size_t(k->var)] = 1;
  }
  return false;
}

}  // namespace

Program compile(const Query& query, EvalOptions options) {
  Program prog;
  prog.options = std::move(options);
  if (!prog.options.submissions) prog.options.submissions = std::make_shared<similar::SubmissionFiles>();
  prog.variable_count = query.variables.size();
  prog.variables = query.variables;
  prog.always_bound.assign(query.variables.size(), 0);
  for (size_t i = 0; i < query.variables.size(); ++i) {
    const Variable& v = query.variables[i];
    prog.variable_kinds.push_back(v.kind);
    // a persistent variable holds its value from game to game, so it is bound from the start (0, "", [])
    if (v.persistent && v.kind != VariableKind::Dictionary) prog.always_bound[i] = 1;
    if (v.atomic) prog.atomic_vars.push_back(int(i));  // atomic
    prog.variable_names.push_back(v.name);
  }
  // `sort matchcount`: sort slot 0, filled with the number of matching positions after the scan
  if (prog.options.sort_matchcount) prog.sorts.push_back({"matchcount", false, false});
  NodePtr expanded = expand_transforms(*query.body);
  Compiler c{prog, {}};
  mark_position_uses(*expanded, true, c.position_uses);
  prog.body = c.compile(*expanded);
  fuse_count_compares(*prog.body);  // speed
  mark_hhdb_filters(*prog.body);    // hhdb
  mark_case_filters(*prog.body);
  if (!prog.options.player.empty()) prog.player_regex = std::make_shared<const text::Regex>(prog.options.player);
  prog.body_game_constant = game_constant(*prog.body);
  std::vector<uint8_t> assigned(prog.variable_count, 0);
  if (may_read_unbound(*prog.body, prog, assigned)) prog.may_fail = true;
  // lang: a query that acts beyond the game (persistent state, message, writefile) must evaluate the conjuncts
  // before a failing tag test, so only the leading tag tests may be tried first then
  const bool effects = query.needs_single_thread || has_effects(*prog.body);
  if (prog.body->code == OpCode::Compound)
    for (const auto& k : prog.body->kids) {
      if (game_constant(*k)) prog.game_constant.push_back(k.get());
      else if (effects) break;
    }
  return prog;
}

}  // namespace cqlindex::cql::eval
