// The evaluation core: dispatch on the op code, logic, numbers, variables, transforms' orbits, comments,
// and the per-game scan (every searched position, matchcount, CQL's comments).
#include "engine/cql/eval/evaluator.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "engine/chess/movegen.h"
#include "engine/cql/error.h"
#include "engine/cql/eval/checked_arithmetic.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/deep_stack.h"
#include "engine/cql/eval/square_pattern.h"
#include "engine/cql/similar/similar_match.h"

namespace cqlindex::cql::eval {

namespace {

[[gnu::noinline]] bool eval_logic(const Op& op, Ctx& ctx, Value& v) {
  Value tmp;
  switch (op.code) {
    case OpCode::Compound: {
      for (const auto& k : op.kids)
        if (!evaluate(*k, ctx, v)) return false;
      return true;
    }
    case OpCode::And: return evaluate(*op.kids[0], ctx, tmp) && evaluate(*op.kids[1], ctx, tmp);
    case OpCode::Or: return evaluate_smart(*op.kids[0], ctx, tmp) || evaluate_smart(*op.kids[1], ctx, tmp);
    case OpCode::Not: {
      size_t mark = ctx.comments.size();
      bool r = evaluate(*op.kids[0], ctx, tmp);
      ctx.comments.resize(mark);
      return !r;
    }
    case OpCode::If: {
      size_t mark = ctx.comments.size();
      if (evaluate(*op.kids[0], ctx, tmp)) return evaluate(*op.kids[1], ctx, v);
      ctx.comments.resize(mark);
      return op.kids[2] ? evaluate(*op.kids[2], ctx, v) : true;
    }
    default: return false;
  }
}

[[gnu::noinline]] bool eval_number(const Op& op, Ctx& ctx, Value& v) {
  Value l, r;
  switch (op.code) {
    case OpCode::Arithmetic: {
      if (!evaluate(*op.kids[0], ctx, l) || !evaluate(*op.kids[1], ctx, r)) return false;
      switch (op.sub) {
        case kAdd: v.num = checked_arithmetic(op, '+', l.num, r.num); return true;
        case kSub: v.num = checked_arithmetic(op, '-', l.num, r.num); return true;
        case kMul: v.num = checked_arithmetic(op, '*', l.num, r.num); return true;
        case kDiv: if (r.num == 0) return false; v.num = checked_arithmetic(op, '/', l.num, r.num); return true;
        default: if (r.num == 0) return false; v.num = checked_arithmetic(op, '%', l.num, r.num); return true;
      }
    }
    case OpCode::Negate:
      if (!evaluate(*op.kids[0], ctx, l)) return false;
      v.num = checked_negation(op, l.num, "-");
      return true;
    case OpCode::Abs:
      if (!evaluate(*op.kids[0], ctx, l)) return false;
      v.num = l.num < 0 ? checked_negation(op, l.num, "abs") : l.num;
      return true;
    case OpCode::MinMax: {
      // the extreme of the arguments that match (CQL manual, max: "matches a position if at least one of its
      // arguments match"); strings compare bytewise
      const bool strings = op.type == ValueType::String;
      bool any = false;
      for (const auto& k : op.kids) {
        if (!evaluate(*k, ctx, l)) continue;
        const int c = strings ? l.str.compare(v.str) : l.num < v.num ? -1 : l.num > v.num ? 1 : 0;
        if (!any || (op.flag ? c < 0 : c > 0)) {
          if (strings) v.str = std::move(l.str);
          else v.num = l.num;
        }
        any = true;
      }
      return any;
    }
    case OpCode::CountSquares:
      v.num = std::popcount(set_of(*op.kids[0], ctx));
      return true;
    case OpCode::StringLength:
      if (!evaluate(*op.kids[0], ctx, l)) return false;
      v.num = int64_t(l.str.size());
      return true;
    case OpCode::Concat:
      if (!evaluate(*op.kids[0], ctx, l) || !evaluate(*op.kids[1], ctx, r)) return false;
      v.str = l.str + r.str;
      return true;
    case OpCode::Relation: {
      if (op.sub == kNe) {
        // CQL 6.2 builds `a != b` as `not (a == b)`: true when a side has no value, its comments dropped
        const size_t mark = ctx.comments.size();
        bool equal = evaluate(*op.kids[0], ctx, l) && evaluate(*op.kids[1], ctx, r);
        if (equal) {
          const ValueType t = op.kids[0]->type;
          equal = t == ValueType::String     ? l.str == r.str
                  : t == ValueType::Position ? l.pos == r.pos
                                             : l.num == r.num;
        }
        ctx.comments.resize(mark);
        return !equal;
      }
      if (!evaluate(*op.kids[0], ctx, l) || !evaluate(*op.kids[1], ctx, r)) return false;
      int c;
      ValueType t = op.kids[0]->type;
      if (t == ValueType::String) c = l.str.compare(r.str);
      else if (t == ValueType::Position) c = ctx.tree->position_id[l.pos] - ctx.tree->position_id[r.pos];
      else c = l.num < r.num ? -1 : l.num > r.num ? 1 : 0;
      bool ok = false;
      switch (op.sub) {
        case kLt: ok = c < 0; break;
        case kLe: ok = c <= 0; break;
        case kGt: ok = c > 0; break;
        case kGe: ok = c >= 0; break;
        case kEq: ok = c == 0; break;
        default: ok = c != 0; break;
      }
      if (ok) v = std::move(l);
      return ok;
    }
    case OpCode::SetEquality: {
      l.set = set_of(*op.kids[0], ctx);
      r.set = set_of(*op.kids[1], ctx);
      return op.sub == kEq ? l.set == r.set : l.set != r.set;
    }
    default: return false;
  }
}

[[gnu::noinline]] bool eval_orbit(const Op& op, Ctx& ctx, Value& v) {
  Value tmp;
  // speed (square_pattern.h): rows screen the images by their one-square designators; an image made only of
  // designators matches when they hold, with the last one's square as its value
  const SquarePattern* pattern = op.pattern.get();
  uint64_t have[SquarePattern::kMaxKinds];
  if (pattern) pattern->pieces_in(ctx.position(), have);
  const size_t n = pattern ? pattern->rows() : op.kids.size();
  const bool decided = pattern && pattern->whole();
  auto matches = [&](size_t r, Value& out) {
    if (!pattern) return evaluate_smart(*op.kids[r], ctx, out);
    if (!pattern->holds(r, have)) return false;
    if (!decided) return evaluate_smart(*op.kids[pattern->image(r)], ctx, out);
    out.set = pattern->value(r);
    return true;
  };
  if (op.flag) {  // with a range: how many images match
    int64_t count = 0;
    for (size_t r = 0; r < n; ++r)
      if (matches(r, tmp)) ++count;
    v.num = count;
    return range_holds(op, ctx, count);
  }
  switch (op.type) {
    case ValueType::Set: {
      bool any = false;
      uint64_t s = 0;
      for (size_t r = 0; r < n; ++r)
        if (matches(r, tmp)) {
          any = true;
          s |= tmp.set;
        }
      v.set = s;
      return any;
    }
    case ValueType::Numeric: {
      bool any = false;
      for (size_t r = 0; r < n; ++r)
        if (matches(r, tmp)) {
          if (!any || tmp.num > v.num) v.num = tmp.num;
          any = true;
        }
      return any;
    }
    default: {
      // every image is evaluated (each may comment), in CQL's order; images decided by their designators have no
      // effect, so the first match settles it
      bool any = false;
      for (size_t r = 0; r < n && !(any && decided); ++r)
        if (matches(r, any ? tmp : v)) any = true;
      return any;
    }
  }
}

// CQL 6.2's message when a variable of `kind` is read before it has a value (a run-time error), or null for the
// kinds whose read just fails.
const char* unbound_read_message(VariableKind kind) {
  switch (kind) {
    case VariableKind::Numeric: return "Numeric variable is not bound but attempt to access its value was made: ";
    case VariableKind::String:
      return "CQL internal error: string variable is not bound but attempt to access its value was made: ";
    case VariableKind::Set: return "attempt to access unbound square variable: ";
    case VariableKind::Position: return "Position variable is not bound but attempt to access its value was made: ";
    default: return nullptr;
  }
}

[[gnu::noinline]] bool eval_variable(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::Variable: {
      if (!ctx.bound[op.var]) {
        if (const char* what = unbound_read_message(ctx.prog->variable_kinds[op.var]))
          throw CqlError(what + ctx.prog->variables[op.var].name, op.line, op.column);
        return false;
      }
      if (ctx.prog->variable_kinds[op.var] == VariableKind::Piece) {
        // a piece variable holds an identity; its value is where that piece stands now
        uint8_t id = uint8_t(ctx.vars[op.var].num);
        ctx.tree->build_ids();
        const uint8_t s = ctx.tree->where[ctx.cur][id];
        v.set = s < 64 ? uint64_t{1} << s : 0;
        return v.set != 0;
      }
      const Value& x = ctx.vars[op.var];
      switch (op.type) {  // speed: a set, number or position variable leaves the string alone
        case ValueType::Set: v.set = x.set; return v.set != 0;
        case ValueType::Numeric: v.num = x.num; return true;
        case ValueType::Position: v.pos = x.pos; return true;
        default: v = x; return true;
      }
    }
    case OpCode::Assign: {
      Value x;
      // a set is assigned even when empty (the assignment still matches)
      if (!evaluate(*op.kids[0], ctx, x) && op.kids[0]->type != ValueType::Set) return false;
      ctx.vars[op.var] = x;
      ctx.bound[op.var] = 1;
      v = std::move(x);
      return true;
    }
    default: return false;
  }
}

[[gnu::noinline]] bool eval_loop(const Op& op, Ctx& ctx, Value& v) {
  Value dom, tmp;
  if (op.code == OpCode::PieceAssign) {
    if (!evaluate(*op.kids[0], ctx, dom)) return false;
    if (std::popcount(dom.set) != 1) return false;
    ctx.tree->build_ids();
    uint8_t id = ctx.tree->ids[ctx.cur][std::countr_zero(dom.set)];
    if (!id) return false;
    ctx.vars[op.var].num = id;
    ctx.bound[op.var] = 1;
    v.set = dom.set;
    return true;
  }
  dom.set = set_of(*op.kids[0], ctx);  // an empty domain: 'all' holds vacuously
  const bool piece = op.code == OpCode::PieceLoop;
  if (piece) ctx.tree->build_ids();
  uint64_t result = 0;
  bool all = true;
  for (uint64_t b = dom.set; b; b &= b - 1) {
    ctx.step();
    int s = std::countr_zero(b);
    if (piece) {
      uint8_t id = ctx.tree->ids[ctx.cur][s];
      if (!id) continue;
      ctx.vars[op.var].num = id;
    } else {
      ctx.vars[op.var].set = uint64_t{1} << s;
    }
    ctx.bound[op.var] = 1;
    if (evaluate_smart(*op.kids[1], ctx, tmp)) {
      result |= uint64_t{1} << s;
    } else {
      all = false;
      if (op.flag) break;  // `all` has failed: the remaining squares cannot change that
    }
  }
  ctx.bound[op.var] = 0;
  if (op.flag) return all;
  v.set = result;
  return result != 0;
}

[[gnu::noinline]] bool eval_position(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::CurrentPosition: v.pos = ctx.cur; return true;
    case OpCode::InitialPosition: v.pos = 0; return true;
    case OpCode::Parent: {
      int p = ctx.tree->parent(ctx.cur);
      if (p < 0) return false;
      v.pos = p;
      return true;
    }
    case OpCode::WithPosition: {
      Value p;
      if (!evaluate(*op.kids[0], ctx, p) || p.pos < 0) return false;
      return evaluate_at(*op.kids[1], ctx, p.pos, v);
    }
    default: return false;
  }
}

// sort: the best value of the game is kept with the comments of the first evaluation that gave it
[[gnu::noinline]] bool eval_sort(const Op& op, Ctx& ctx, Value& v) {
  size_t mark = ctx.comments.size();
  const bool set = op.kids[0]->type == ValueType::Set;
  if (!evaluate(*op.kids[0], ctx, v)) {
    ctx.comments.resize(mark);
    if (!set) return false;
    v.set = 0;  // a set is sorted by its count, and an empty one counts 0 (CQL 6.2: `sort "d" Ne4` matches)
  }
  SortValue value;
  if (op.kids[0]->type == ValueType::String) value = v.str;
  else value = set ? int64_t(std::popcount(v.set)) : v.num;
  Ctx::SortSlot& slot = ctx.sorts[size_t(op.var)];
  if (!slot.best || (op.flag ? value < *slot.best : value > *slot.best)) {
    slot.best = value;
    slot.comments.assign(ctx.comments.begin() + long(mark), ctx.comments.end());
  }
  ctx.comments.resize(mark);
  if (const int64_t* n = std::get_if<int64_t>(&value)) v.num = *n;  // a string sort keeps v.str
  return true;
}

// equal(x y): CQL 6.2 matches when both have a value and the values are equal; of different types they never
// are (`equal(ply "1")` runs and fails)
[[gnu::noinline]] bool eval_generic_equal(const Op& op, Ctx& ctx) {
  Value x, y;
  const Op &a = *op.kids[0], &b = *op.kids[1];
  if (!evaluate(a, ctx, x) || !evaluate(b, ctx, y) || a.type != b.type) return false;
  switch (a.type) {
    case ValueType::Numeric: return x.num == y.num;
    case ValueType::String: return x.str == y.str;
    case ValueType::Set: return x.set == y.set;
    case ValueType::Position: return x.pos == y.pos;
    default: return true;
  }
}

// similarposition: the submissions' comments at a matching position, and (without nosort) the least submission
// game listed there offered to its sort slot, as a `sort min` would be
[[gnu::noinline]] bool eval_similar(const Op& op, Ctx& ctx, Value&) {
  std::vector<std::string> texts;
  uint32_t least_game = 0;
  if (!similar::match_position(*op.submissions, ctx.position(), texts, least_game)) return false;
  if (op.var >= 0) {
    Ctx::SortSlot& slot = ctx.sorts[size_t(op.var)];
    const SortValue value = int64_t(least_game);
    if (!slot.best || value < *slot.best) slot.best = value;
  }
  if (!ctx.prog->options.silent)
    for (std::string& t : texts) ctx.comment(std::move(t));
  return true;
}

}  // namespace

bool evaluate_argument(const Op& op, Ctx& ctx, Value& v) {
  if (op.code == OpCode::Variable && !ctx.bound[size_t(op.var)]) return false;  // written "<unbound: V>"
  return evaluate(op, ctx, v);
}

std::string value_text(const Op& op, Ctx& ctx, const Value& v, bool matched) {
  // an argument without a value is written, and the comment still matches (CQL 6.2)
  if (!matched && op.code == OpCode::Variable && !ctx.bound[size_t(op.var)])
    return "<unbound: " + ctx.prog->variables[size_t(op.var)].name + ">";
  if (!matched && op.type != ValueType::Logical && op.type != ValueType::Set) return "<false>";
  switch (op.type) {
    case ValueType::String: return v.str;
    case ValueType::Numeric: return std::to_string(v.num);
    case ValueType::Set:
      if (op.code == OpCode::Variable && ctx.prog->variable_kinds[op.var] == VariableKind::Piece && std::popcount(v.set) == 1) {
        // a piece variable is written as the piece letter and its square ("na1")
        chess::Square s = chess::Square(std::countr_zero(v.set));
        return std::string(1, chess::piece_char(ctx.position().piece_on(s))) + chess::square_name(s);
      }
      return set_text(v.set);
    case ValueType::Position: return position_reference(ctx, v.pos);  // "id:N" at a position off the main line
    default: return matched ? "<true>" : "<false>";
  }
}

namespace {

[[gnu::noinline]] bool eval_comment(const Op& op, Ctx& ctx, Value&) {
  std::string text;
  for (const auto& k : op.kids) {
    Value x;
    bool ok = evaluate_argument(*k, ctx, x);
    text += value_text(*k, ctx, x, ok);
  }
  if (!ctx.prog->options.silent) ctx.comment(std::move(text));
  return true;
}

}  // namespace

std::string set_text(uint64_t set) {
  if (std::popcount(set) == 1) return chess::square_name(chess::Square(std::countr_zero(set)));
  std::string s = "[";
  bool first = true;
  for (uint64_t b = set; b; b &= b - 1) {
    if (!first) s += ',';
    s += chess::square_name(chess::Square(std::countr_zero(b)));
    first = false;
  }
  return s + "]";
}

std::string position_name(const Ctx& ctx, int node) {
  std::string s = "move " + std::to_string(ctx.tree->move_number(node)) +
                  (ctx.tree->pos[node].side_to_move() == chess::WHITE ? "(wtm)" : "(btm)");
  if (ctx.tree->depth[node] > 0) s += "[" + std::to_string(ctx.tree->position_id[node]) + "]";
  return s;
}

bool evaluate_smart(const Op& op, Ctx& ctx, Value& v) {
  const size_t mark = ctx.comments.size();
  if (evaluate(op, ctx, v)) return true;
  if (ctx.comments.size() != mark && !ctx.prog->options.alwayscomment) ctx.comments.resize(mark);
  return false;
}

bool evaluate_at(const Op& op, Ctx& ctx, int node, Value& v) {
  int saved = ctx.cur;
  ctx.cur = node;
  bool r = evaluate_smart(op, ctx, v);
  ctx.cur = saved;
  return r;
}

bool range_holds(const Op& op, Ctx& ctx, int64_t n) {
  int64_t lo = op.a, hi = op.b;
  Value x;
  if (op.range_low) {
    if (!evaluate(*op.range_low, ctx, x)) return false;
    lo = x.num;
  }
  if (op.range_high) {
    if (!evaluate(*op.range_high, ctx, x)) return false;
    hi = x.num;
    if (hi < lo) return false;  // (an unbounded range has no high bound filter)
  }
  return n >= lo && (hi < 0 || n <= hi);
}

bool evaluate(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::Number: v.num = op.a; return true;
    case OpCode::String: v.str = op.text; return true;
    case OpCode::True: return true;
    case OpCode::False: return false;
    case OpCode::PieceSet:  // the commonest leaves, here rather than through eval_set
      v.set = pieces_of(ctx.position(), op.pieces) & op.squares;
      return v.set != 0;
    case OpCode::Squares: v.set = op.squares; return v.set != 0;
    case OpCode::Compound: case OpCode::And: case OpCode::Or: case OpCode::Not: case OpCode::If:
      return eval_logic(op, ctx, v);
    case OpCode::Arithmetic: case OpCode::Negate: case OpCode::Abs: case OpCode::MinMax:
    case OpCode::CountSquares: case OpCode::StringLength: case OpCode::Concat: case OpCode::Relation:
    case OpCode::SetEquality:
      return eval_number(op, ctx, v);
    case OpCode::Orbit: return eval_orbit(op, ctx, v);
    case OpCode::Variable: case OpCode::Assign: return eval_variable(op, ctx, v);
    case OpCode::SquareLoop: case OpCode::PieceLoop: case OpCode::PieceAssign: return eval_loop(op, ctx, v);
    case OpCode::CurrentPosition: case OpCode::InitialPosition: case OpCode::Parent: case OpCode::WithPosition:
      return eval_position(op, ctx, v);
    case OpCode::Comment: return eval_comment(op, ctx, v);
    case OpCode::Move: case OpCode::Dash: case OpCode::LegalDash: case OpCode::CountMoves:
    case OpCode::PastMove: case OpCode::FromSquare: case OpCode::ToSquare: case OpCode::EnPassantSquare:
      return eval_move(op, ctx, v);
    case OpCode::Line: return eval_line(op, ctx, v);
    case OpCode::Find: return eval_find(op, ctx, v);
    case OpCode::Path: case OpCode::PathInfo: case OpCode::PathCount: case OpCode::PathCountUnfocused: return eval_path(op, ctx, v);  // path
    case OpCode::PathDebug: return eval_path(op, ctx, v);  // pathdebug
    case OpCode::Echo: case OpCode::PositionIntersect: case OpCode::PositionOrder: case OpCode::Lca:
    case OpCode::Distance: case OpCode::Child: case OpCode::Try: case OpCode::PieceName: case OpCode::PieceId:
    case OpCode::MakeSquare: case OpCode::PositionById: case OpCode::ConsecutiveMoves:
      return eval_echo(op, ctx, v);
    case OpCode::CountCompare: return eval_count_compare(op, ctx, v);  // speed
    case OpCode::Sort: return eval_sort(op, ctx, v);
    case OpCode::GenericEqual: return eval_generic_equal(op, ctx);
    case OpCode::PieceType: case OpCode::Coordinate: case OpCode::RegexMatch: case OpCode::OriginalComment:
    case OpCode::OriginalNag:
    case OpCode::Check: case OpCode::Mate: case OpCode::Stalemate: case OpCode::Wtm: case OpCode::Btm:
    case OpCode::Initial: case OpCode::Terminal: case OpCode::MainlineP: case OpCode::VariationP:
    case OpCode::Ply: case OpCode::MoveNumber: case OpCode::PositionId: case OpCode::GameNumber:
    case OpCode::SideToMove: case OpCode::Year: case OpCode::Depth: case OpCode::Result: case OpCode::TagValue:
    case OpCode::Player: case OpCode::Elo: case OpCode::Fen: case OpCode::StringIn:
      return eval_game_info(op, ctx, v);
    case OpCode::SimilarPosition: return eval_similar(op, ctx, v);
    // lang
    case OpCode::FunctionCall: case OpCode::Loop: case OpCode::While: case OpCode::Assert: case OpCode::Unbind:
    case OpCode::IsBound: return eval_control(op, ctx, v);
    case OpCode::OpAssign: case OpCode::Sqrt: return eval_assign(op, ctx, v);
    case OpCode::DictGet: case OpCode::DictAssign: case OpCode::DictIterate: case OpCode::DictCount:
    case OpCode::DictUnbind: return eval_dictionary(op, ctx, v);
    case OpCode::GroupRef: case OpCode::Substring: case OpCode::SubstringAssign: case OpCode::IndexOf:
    case OpCode::CaseConvert: case OpCode::StringToInt: case OpCode::Ascii: case OpCode::ToString:
    case OpCode::ReadFile: case OpCode::WriteFile: case OpCode::Message: case OpCode::SetTag:
      return eval_string(op, ctx, v);
    case OpCode::MatePurity: return eval_mates(op, ctx, v);  // mates
    case OpCode::RemoveComment: return eval_remove_comment(op, ctx, v);  // removecomment
    case OpCode::HhdbAward: case OpCode::HhdbCooked: return eval_hhdb(op, ctx, v);  // hhdb
    case OpCode::RuntimeError: throw CqlError(op.text, op.line, op.column);
    case OpCode::CurrentTransform: v.str = op.text; return true;
    case OpCode::LastGameNumber: v.num = op.a; return true;
    default: return eval_set(op, ctx, v);
  }
}

// ------------------------------------------------------------------------------------------ the game scan

void Ctx::check_limits() {
  steps_to_check = kStepsBetweenChecks;
  if (comments.size() > kMaxHeldComments)
    throw CqlError("the query holds more than " + std::to_string(kMaxHeldComments) + " comments at game number " +
                       std::to_string(game_number) + ": more than a game's evaluation may hold in memory",
                   0, 0);
  if (stop && (*stop)()) throw EvaluationStopped();
}

GameScanner::GameScanner(const Program& program)
    : program_(program), tree_(std::make_unique<GameTree>()), state_(std::make_unique<CrossGameState>()) {
  state_->vars.assign(program.variable_count, Value{});
  state_->dicts.assign(program.variable_count, Dictionary{});
}

std::vector<std::string> GameScanner::persistent_report() const {
  std::vector<std::string> lines;
  for (size_t i = 0; i < program_.variables.size(); ++i) {
    const Variable& var = program_.variables[i];
    if (!var.persistent || var.quiet || var.kind == VariableKind::Dictionary) continue;
    const Value& x = state_->vars[i];
    std::string text = var.type == ValueType::Numeric ? std::to_string(x.num)
                       : var.type == ValueType::String ? "\"" + x.str + "\""  // CQL 6.2 quotes a string
                                                       : set_text(x.set);
    lines.push_back(var.name + ": " + text);
  }
  return lines;
}
GameScanner::~GameScanner() = default;

namespace {

std::optional<int64_t> date_year(const pgn::Game& g) {
  auto d = g.tag("Date");
  if (!d || d->size() < 4) return std::nullopt;
  int64_t y = 0;
  auto r = std::from_chars(d->data(), d->data() + 4, y);
  if (r.ec != std::errc() || r.ptr != d->data() + 4) return std::nullopt;
  return y;
}

bool game_filters_pass(const Program& p, const pgn::Game& g) {
  const EvalOptions& o = p.options;
  if (!o.result.empty() && g.tag("Result").value_or("") != o.result) return false;
  if (p.player_regex) {
    auto w = g.tag("White"), b = g.tag("Black");
    bool hit;
    try {
      hit = (w && p.player_regex->search(*w)) || (b && p.player_regex->search(*b));
    } catch (const text::RegexTooCostly& e) {
      throw CqlError(std::string("-player: ") + e.what() + " (game number " + std::to_string(g.number) + ")", 0, 0);
    }
    if (!hit) return false;
  }
  if (o.year) {
    auto y = date_year(g);
    if (!y || *y < o.year->min || *y > o.year->max) return false;
  }
  return true;
}

// Sets `ctx` up for `game`. lang: persistent variables come from the previous game (and go back to the
// scanner whatever the outcome: KeepPersistent); non-persistent dictionaries start empty.
void enter_game(Ctx& ctx, const Program& program, GameTree& tree, CrossGameState& state, const pgn::Game& game) {
  ctx.prog = &program;
  ctx.tree = &tree;
  ctx.game_number = game.number;
  ctx.vars.assign(program.variable_count, Value{});
  ctx.bound = program.always_bound;
  ctx.sorts.assign(program.sorts.size(), Ctx::SortSlot{});
  for (size_t i = 0; i < program.variable_count; ++i) {
    if (program.always_bound[i]) ctx.vars[i] = state.vars[i];
    if (program.variables[i].kind == VariableKind::Dictionary && !program.variables[i].persistent)
      state.dicts[i].clear();
  }
  ctx.state = &state;
}

// Returns whether the conjuncts that read only the tags hold at the game's first position: when one fails, it
// fails at every position, and the replay is skipped.
bool game_constants_hold(const Program& program, GameTree& tree, Ctx& ctx, const pgn::Game& game) {
  tree.build(game, false, /*root_only=*/true);
  ctx.cur = 0;
  Value v;
  bool hold = true;
  for (const Op* op : program.game_constant)
    if (!evaluate(*op, ctx, v)) {
      hold = false;
      break;
    }
  ctx.comments.clear();
  ctx.bound = program.always_bound;
  return hold;
}

// Returns the number of the game's positions where the query's body holds, keeping the comments of those
// positions (of every position with alwayscomment).
uint64_t count_matching_positions(const Program& program, GameTree& tree, Ctx& ctx, const pgn::Game& game) {
  const EvalOptions& o = program.options;
  tree.build(game, o.variations);
  const bool marker = !o.silent && !o.quiet && !o.matchstring.empty();
  uint64_t matching = 0;
  Value v;
  if (program.body_game_constant && !tree.order.empty()) {
    // a body that reads only the tags (player, result, elo...) has the first position's value at every position,
    // and writes no comment: evaluated once, every position marked as the position-by-position loop would
    ctx.cur = tree.order.front();
    ctx.bound = program.always_bound;
    if (!evaluate(*program.body, ctx, v)) return 0;
    if (marker) {
      ctx.comments.reserve(ctx.comments.size() + tree.order.size());
      for (int32_t node : tree.order) ctx.comments.emplace_back(pgn::NodeIndex(node), o.matchstring);
      // (tree.order: each node once; before the markers only the header)
      ctx.comments_one_a_node = ctx.comments.size() == ctx.header_comments + tree.order.size();
    }
    return tree.order.size();
  }
  // a variable keeps its value at the later positions of the game (CQL 6.2: `if ply == 1 Vx = 1 ply == 3 isbound
  // Vx` matches at ply 3); enter_game unbinds the game's variables
  for (int32_t node : tree.order) {
    ctx.step();
    ctx.cur = node;
    size_t mark = ctx.comments.size();
    if (evaluate(*program.body, ctx, v)) {
      ++matching;
      if (marker) ctx.comment(o.matchstring);
    } else if (!o.alwayscomment) {
      ctx.comments.resize(mark);
    }
  }
  return matching;
}

// Adds to a matched game's comments the query's comments, then the sorts' comments (each unique at its node
// unless nouniquecomments): a text already kept at the node is dropped (the kept comments chained by node: no
// quadratic search). Sort comments come after the game was scanned: the best evaluation's texts (unique too:
// echo and consecutivemoves both write "LCA", zugzwang2.pgn). Each sort's best value goes to sort_values.
void add_unique_comments(const EvalOptions& o, const pgn::Game& game, Ctx& ctx, GameOutcome& out) {
  if (ctx.comments_one_a_node && ctx.sorts.empty() && out.comments.empty()) {
    // the header (if any), then one comment a node (a game-constant body's markers, in tree order: the root's
    // first): only the header can repeat one, the root's
    std::vector<pgn::AddedComment>& cs = ctx.comments;
    if (ctx.header_comments == 1 && !o.nouniquecomments && cs.size() > 1 && cs[1].node == cs[0].node &&
        cs[1].text == cs[0].text)
      cs.erase(cs.begin() + 1);
    out.comments.swap(cs);
    return;
  }
  std::vector<int32_t> last_at(game.nodes.size(), -1), previous;
  auto link = [&](size_t i) {
    const pgn::NodeIndex node = out.comments[i].node;
    previous.push_back(node < last_at.size() ? std::exchange(last_at[node], int32_t(i)) : -1);
  };
  out.comments.reserve(out.comments.size() + ctx.comments.size());
  previous.reserve(out.comments.capacity());
  for (size_t i = 0; i < out.comments.size(); ++i) link(i);
  auto add = [&](pgn::AddedComment& c) {
    if (!o.nouniquecomments)
      for (int32_t e = c.node < last_at.size() ? last_at[c.node] : -1; e >= 0; e = previous[size_t(e)])
        if (out.comments[size_t(e)].text == c.text) return;
    out.comments.push_back(std::move(c));
    link(out.comments.size() - 1);
  };
  for (pgn::AddedComment& c : ctx.comments) add(c);
  for (size_t i = 0; i < ctx.sorts.size(); ++i) {
    out.sort_values.push_back(ctx.sorts[i].best);
    if (o.silent) continue;
    for (pgn::AddedComment& c : ctx.sorts[i].comments) add(c);
  }
}

// Adds at the game's start the "description: value" comment of each sort that is not quiet.
// CQL sets the first "description: value" off by two spaces, the next ones by one (pinstalemate.pgn:
// "Game number 35  number of pins: 4 material: 35").
// The header's `sort matchcount` (slot 0) is labelled after the query's own sorts (random-differential A13-1:
// "Game number 88 CQL  d: 98 matchcount: 99").
void add_sort_values(const Program& program, const Ctx& ctx, GameOutcome& out) {
  const EvalOptions& o = program.options;
  bool first_sort_comment = true;
  const size_t nsorts = ctx.sorts.size(), shift = o.sort_matchcount ? 1 : 0;
  for (size_t k = 0; k < nsorts; ++k) {
    const size_t i = (k + shift) % nsorts;
    if (o.silent || program.sorts[i].quiet) continue;
    const auto& b = ctx.sorts[i].best;
    const std::string value = !b ? "none" : std::holds_alternative<int64_t>(*b) ? std::to_string(std::get<int64_t>(*b))
                                                                               : std::get<std::string>(*b);
    out.comments.push_back({0, (first_sort_comment ? " " : "") + program.sorts[i].description + ": " + value});
    first_sort_comment = false;
  }
}

}  // namespace

GameOutcome GameScanner::scan(const pgn::Game& game) {
  if (game.nodes.size() <= kNodesOnCallerStack) return scan_here(game);
  GameOutcome out;
  run_with_stack_for(game.nodes.size(), game.number, [&] { out = scan_here(game); });
  return out;
}

GameOutcome GameScanner::scan_here(const pgn::Game& game) {
  GameOutcome out;
  const EvalOptions& o = program_.options;
  const bool range_has_zero = o.matchcount && o.matchcount->min <= 0;
  Ctx ctx;
  enter_game(ctx, program_, *tree_, *state_, game);
  if (stop_) ctx.stop = &stop_;
  ctx.stack_floor = stack_floor();
  struct KeepPersistent {
    Ctx& ctx;
    CrossGameState& state;
    const Program& prog;
    ~KeepPersistent() {
      for (size_t i = 0; i < prog.variable_count; ++i)
        if (prog.always_bound[i]) state.vars[i] = std::move(ctx.vars[i]);
    }
  } keep{ctx, *state_, program_};
  bool pass = game_filters_pass(program_, game);
  const bool replayable = game.start_known && !game.nodes.empty();
  if (pass && replayable && !program_.game_constant.empty()) {
    pass = game_constants_hold(program_, *tree_, ctx, game);
    if (!pass && !range_has_zero) return out;
  }
  // CQL's "Game number N" heads a matched game's comments: put first (the positions' comments come after it, and
  // one at its node with its text is dropped), and used only if the game matches
  if (!o.silent && !o.noheader) {
    ctx.comments.push_back({0, "Game number " + std::to_string(game.number)});
    ctx.header_comments = 1;
  }
  if (pass && replayable) out.matching_positions = count_matching_positions(program_, *tree_, ctx, game);
  out.messages = std::move(ctx.messages);  // lang
  out.set_tags = std::move(ctx.set_tags);  // lang
  const uint64_t n = out.matching_positions;
  if (o.sort_matchcount) ctx.sorts[0].best = int64_t(n);
  if (o.matchcount) out.matched = (int64_t)n >= o.matchcount->min && (int64_t)n <= o.matchcount->max;
  else out.matched = pass && n > 0;
  if (!pass && !range_has_zero) out.matched = false;
  if (!out.matched) return out;
  add_unique_comments(o, game, ctx, out);
  add_sort_values(program_, ctx, out);
  // removecomment: the input comments to leave out, as requests to the writer
  for (int32_t node : ctx.removed_comments) out.comments.push_back({pgn::NodeIndex(node), {}, true});
  return out;
}

bool decided_by_tags(const Program& program) {
  // scan's match is then: the game filters and the body hold at the first position of a game that has one (a
  // known start); count_matching_positions counts every position but only whether it is zero matters
  return program.body_game_constant && !program.options.matchcount && program.sorts.empty();
}

void apply_set_tags(const GameOutcome& outcome, pgn::Game& game) {
  for (const auto& [name, value] : outcome.set_tags) {
    std::string raw;
    for (char c : value) {
      if (c == '"' || c == '\\') raw += '\\';
      raw += c;
    }
    pgn::Tag tag{game.keep(name), game.keep(raw), game.keep(value)};
    bool replaced = false;
    for (pgn::Tag& t : game.tags)
      if (t.name == name) {
        t = tag;
        replaced = true;
      }
    if (!replaced) game.tags.push_back(tag);
  }
}

bool sorted_before(const Program& p, const GameOutcome& a, uint64_t game_a, const GameOutcome& b, uint64_t game_b) {
  // the header's `sort matchcount` (slot 0) orders last, after the query's own sorts, as it is labelled
  // (CQL 6.2, repro-2 R35)
  const size_t n = std::min({p.sorts.size(), a.sort_values.size(), b.sort_values.size()});
  const size_t shift = p.options.sort_matchcount && n > 0 ? 1 : 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (k + shift) % n;
    const auto &x = a.sort_values[i], &y = b.sort_values[i];
    if (x == y) continue;
    if (!x) return false;  // none sorts after every value
    if (!y) return true;
    return p.sorts[i].min ? *x < *y : *x > *y;
  }
  return game_a < game_b;
}

}  // namespace cqlindex::cql::eval
