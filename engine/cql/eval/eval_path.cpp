// `path` (⊢): a regular expression over moves. A dash constituent consumes one move (with `focus`, the
// first move by a focused piece further down the tree, out-of-focus moves being skipped), a plain filter
// tests the current position, `( ... )` groups, `* + ? {m,n}` repeat. The path with the most consumed
// moves wins (or the largest `max F` at its end), the first found among equals, fewer repetitions being
// tried first; a path of no move never matches. Also pathstart, pathlastposition, pathcount and
// pathcountunfocused.
#include <algorithm>
#include <bit>

#include "engine/chess/movegen.h"
#include "engine/cql/eval/atomic.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/eval/sequence_search.h"

namespace cqlindex::cql::eval {
namespace {

class PathSearch : public SequenceSearch {
 public:
  PathSearch(const Op& o, Ctx& c)
      : SequenceSearch(c, o.pieces & kPathFirstMatch), op(o), ctx(c), start(c.cur), flags(o.pieces),
        max(o.kids[1].get()), mark(c.comments.size()) {}

  const Op& op;
  Ctx& ctx;
  const int start;
  const uint16_t flags;
  const Op* max;
  uint64_t focus = 0;  // piece identities in focus (bit per id)
  uint64_t focus_squares = 0;
  bool has_focus = false;
  size_t mark;         // ctx.comments size when the path started
  int best_end = -1;
  int64_t best_count = -1, best_max = 0;
  std::vector<int> other_best;  // keepallbest: other ends as good as the best
  std::vector<pgn::AddedComment> best_comments;
  const bool atomic = !ctx.prog->atomic_vars.empty();
  AtomicValues best_atomic;  // atomic: the atomic variables where the best path ended

  bool in_focus(int parent, int child) const {
    if (!has_focus) return true;
    const chess::Move m = ctx.game().nodes[child].move;
    if (!m.is_ok()) return false;
    const auto& ids = ctx.tree->ids[parent];
    auto focused = [&](chess::Square s) { return ids[s] && (focus >> ids[s] & 1); };
    if (m.kind() == chess::CASTLING) return focused(m.from()) || focused(m.to());
    if (focused(m.from())) return true;
    if (!(flags & kPathFocusCapture)) return false;
    const chess::Position& before = ctx.tree->pos[parent];
    if (m.kind() == chess::EN_PASSANT) return focused(chess::Square(int(m.to()) - chess::pawn_push(before.side_to_move())));
    return !before.empty(m.to()) && focused(m.to());
  }

  // Which of a castling's king (1) and rook (2) are in focus (both without focus).
  int castle_pieces(int parent, int child) const {
    const chess::Move m = ctx.game().nodes[child].move;
    if (!has_focus || !m.is_ok() || m.kind() != chess::CASTLING) return 3;
    const auto& ids = ctx.tree->ids[parent];
    auto focused = [&](chess::Square s) { return ids[s] && (focus >> ids[s] & 1); };
    return (focused(m.from()) ? 1 : 0) | (focused(m.to()) ? 2 : 0);
  }

  // The focused moves a dash may take from `from`: its children in focus at the start of the path, else
  // the first focused move along every line below it (pre-order).
  void focused_moves(int from, bool direct, std::vector<int>& out) const {
    ctx.tree->for_children(from, [&](int c) {
      if (in_focus(from, c)) out.push_back(c);
      else if (!direct) focused_moves(c, false, out);
    });
  }

 protected:
  // A plain filter tests the current position; a dash takes one (focused) move.
  void step(const Op& con) override {
    ctx.path = {start, -1, count_};  // a path nested in a constituent may have changed it
    AtomicValues before;  // atomic: what the constituent assigns is undone when the search comes back
    if (atomic) before.save(ctx);
    if (con.code == OpCode::Dash) {
      dash(con, before);
    } else {
      Value v;
      if (evaluate_at(*con.kids[0], ctx, node_, v)) compute();
    }
    if (atomic) before.restore(ctx);
  }

  // A path of no move never matches.
  void finish() override {
    if (node_ != start) merge();
  }

  void dash(const Op& d, const AtomicValues& before) {
    std::vector<int> moves;
    if (has_focus) {
      focused_moves(node_, node_ == start, moves);
    } else {
      const pgn::NodeIndex first = ctx.game().nodes[node_].first_child;
      ctx.tree->for_children(node_, [&](int c) {
        if (!(flags & kPathPrimary) || pgn::NodeIndex(c) == first) moves.push_back(c);
      });
    }
    for (int c : moves) {
      if (atomic) before.restore(ctx);
      const int head = ctx.game().nodes[c].parent;
      const size_t m = ctx.comments.size();
      const int saved = ctx.cur;
      ctx.cur = head;
      uint64_t masks[2];
      bool ok = dash_admits(d, ctx, c, castle_pieces(head, c), masks);
      ctx.cur = saved;
      if (!ok) continue;
      ctx.path = {start, -1, count_ + 1};
      const auto outer = ctx.dash_masks;
      ctx.dash_masks = {masks[0], masks[1]};
      Value v;
      for (size_t i = 3; i < d.kids.size() && ok; ++i) ok = evaluate_at(*d.kids[i], ctx, c, v);
      ctx.dash_masks = outer;
      if (ok) advance(c);
      ctx.path.count = count_;
      ctx.comments.resize(m);
    }
  }

 public:
  void merge() {
    ctx.path = {start, -1, count_};
    if (max) {
      Value v;
      if (!evaluate_at(*max, ctx, node_, v)) return;
      if (best_end < 0 || v.num > best_max) {
        best_max = v.num;
        take_best();
      } else if (v.num == best_max && (flags & kPathKeepAllBest)) {
        keep_alternative();
      }
      return;
    }
    if (count_ > best_count) take_best();
    else if (count_ == best_count && (flags & kPathKeepAllBest)) keep_alternative();
  }
  void take_best() {
    found_ = true;
    best_count = count_;
    best_end = node_;
    other_best.clear();
    best_comments.assign(ctx.comments.begin() + long(mark), ctx.comments.end());
    if (atomic) best_atomic.save(ctx);
  }
  void keep_alternative() {
    other_best.push_back(node_);
    best_comments.insert(best_comments.end(), ctx.comments.begin() + long(mark), ctx.comments.end());
  }

  // The moves from the start to `end`, in order.
  std::vector<int> moves_to(int end) const {
    std::vector<int> path;
    for (int x = end; x != start && x >= 0; x = ctx.tree->parent(x)) path.push_back(x);
    std::reverse(path.begin(), path.end());
    return path;
  }

  // "Qa1-a2-b2 nd7-f6": each focused piece's route from the start to `end` (CQL leaves a blank for a
  // focused piece that did not move).
  std::string piece_paths(int end) const {
    const uint64_t squares = focus_squares;
    const std::vector<int> path = moves_to(end);
    std::string out;
    bool seen = false;
    for (uint64_t b = squares; b; b &= b - 1) {
      const int sq = std::countr_zero(b);
      const chess::Piece piece = ctx.tree->pos[start].piece_on(chess::Square(sq));
      const uint8_t id = ctx.tree->ids[start][sq];
      if (piece == chess::NO_PIECE || !id) continue;
      if (seen) out += ' ';
      std::string s(1, chess::piece_char(piece));
      s += chess::square_name(chess::Square(sq));
      int last = sq;
      for (int x : path) {
        const int now = ctx.tree->where[x][id];
        if (now >= 64) {
          s += "(x" + chess::square_name(chess::Square(last)) + ")";
          break;
        }
        if (now != last) {
          s += "-" + chess::square_name(chess::Square(now));
          last = now;
        }
      }
      if (s.size() <= 3) continue;
      out += s;
      seen = true;
    }
    return seen ? out : std::string();
  }
  // position_name; a position off the main line named in a comment gets an "id:N" comment (as in CQL 6.2)
  std::string named(int node) {
    if (ctx.tree->depth[node] > 0)
      ctx.comments.push_back({pgn::NodeIndex(node), "id:" + std::to_string(ctx.tree->position_id[node])});
    return position_name(ctx, node);
  }

  // pathdebug: the search's state as CQL 6.2 prints it (its best path so far, that path's length, count and
  // max value, the position the search is at and the one pathdebug is evaluated at), positions named as in
  // comments instead of CQL's internal ids and addresses.
  std::string debug_text(int actual) const {
    std::string s = "PathDebug: path from " + position_name(ctx, start) + ": best so far: " +
                    (best_end < 0 ? std::string("none") : position_name(ctx, best_end)) +
                    " bestLength: " + std::to_string(best_end < 0 ? 0 : ctx.game().nodes[best_end].ply - ctx.game().nodes[start].ply) +
                    " bestCount: " + std::to_string(best_count < 0 ? 0 : best_count);
    if (max && best_end >= 0) s += " bestMax: " + std::to_string(best_max);
    return s + " path currentPosition: " + position_name(ctx, node_) + " actual currpos: " + position_name(ctx, actual);
  }

  void notate(int end) {
    const EvalOptions& o = ctx.prog->options;
    if (o.silent) return;
    if (!op.text.empty()) ctx.comments.push_back({pgn::NodeIndex(start), op.text});
    if (flags & kPathPiecePath) {
      std::string p = piece_paths(end);
      if (!p.empty()) ctx.comments.push_back({pgn::NodeIndex(start), "Focus path: " + p});
    }
    if (flags & kPathVerbose) {
      int64_t i = 0;
      for (int x : moves_to(end))
        if (in_focus(ctx.tree->parent(x), x))
          ctx.comments.push_back({pgn::NodeIndex(x), (op.text.empty() ? "" : op.text + ": ") + "move " +
                                                         std::to_string(++i) + " of " + std::to_string(best_count)});
    }
    if (o.quiet || (flags & kPathQuiet)) return;
    std::string e = "End path of length " + std::to_string(best_count) + " that starts at " + named(start);
    if (max) e += " Max value: " + std::to_string(best_max);
    ctx.comments.push_back({pgn::NodeIndex(end), std::move(e)});
    std::string t = "Start path that ends at " + named(end);
    ctx.comments.push_back({pgn::NodeIndex(start), std::move(t)});
  }
};

bool run_path(const Op& op, Ctx& ctx, Value& v) {
  std::vector<uint8_t>* banned = nullptr;
  if (op.pieces & kPathNestBan) {
    banned = &nestban_table(op, ctx);
    if ((*banned)[ctx.cur]) return false;
  }
  PathSearch s(op, ctx);
  if (op.kids[0] || (op.pieces & kPathSingleColor)) {
    ctx.tree->build_ids();
    s.has_focus = true;
    s.focus_squares = op.kids[0] ? set_of(*op.kids[0], ctx) : ctx.position().pieces(ctx.position().side_to_move());
    ctx.comments.resize(s.mark);
    for (uint64_t b = s.focus_squares; b; b &= b - 1)
      if (uint8_t id = ctx.tree->ids[ctx.cur][std::countr_zero(b)]) s.focus |= uint64_t{1} << id;
  }
  const Ctx::PathStatus outer = ctx.path;
  ctx.path = {ctx.cur, -1, 0};
  auto outer_debug = std::move(ctx.path_debug);  // pathdebug: describes the innermost path
  ctx.path_debug = [&s](int actual) { return s.debug_text(actual); };
  struct RestoreDebug {
    Ctx& ctx;
    std::function<std::string(int)>& outer;
    ~RestoreDebug() { ctx.path_debug = std::move(outer); }
  } restore_debug{ctx, outer_debug};
  AtomicValues at_start;  // atomic
  if (s.atomic) at_start.save(ctx);
  s.run(op.kids, 2);
  ctx.comments.resize(s.mark);
  const int64_t value = s.max ? s.best_max : s.best_count;
  if (s.best_end < 0 || (op.flag && !range_holds(op, ctx, value))) {
    ctx.path = outer;
    if (s.atomic) at_start.restore(ctx);
    return false;
  }
  if (s.atomic) s.best_atomic.restore(ctx);
  for (auto& c : s.best_comments) ctx.comments.push_back(std::move(c));
  s.notate(s.best_end);
  for (int other : s.other_best) {
    s.notate(other);
    if (!ctx.prog->options.quiet && !ctx.prog->options.silent) ctx.comments.push_back({pgn::NodeIndex(other), "alternative"});
  }
  if (banned) ban_match(*banned, ctx, s.start, s.best_end);
  ctx.path = {s.start, s.best_end, s.best_count};
  if (op.type == ValueType::Position) v.pos = s.best_end;
  else v.num = value;
  return true;
}

}  // namespace

bool eval_path(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::Path: return run_path(op, ctx, v);
    case OpCode::PathInfo: {
      const int p = op.text == "pathstart" ? ctx.path.start : ctx.path.last;
      if (p < 0) return false;
      v.pos = p;
      return true;
    }
    case OpCode::PathDebug:  // inside a path: a message line with the search's state; elsewhere it fails
      if (!ctx.path_debug) return false;
      ctx.messages.push_back(ctx.path_debug(ctx.cur));
      return true;
    case OpCode::PathCount:
    case OpCode::PathCountUnfocused: {
      if (ctx.path.start < 0) return false;
      v.num = ctx.path.count;
      if (op.code == OpCode::PathCountUnfocused)
        v.num = ctx.game().nodes[ctx.cur].ply - ctx.game().nodes[ctx.path.start].ply - ctx.path.count;
      return true;
    }
    default: return false;
  }
}

}  // namespace cqlindex::cql::eval
