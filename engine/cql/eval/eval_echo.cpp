// `echo [quiet] (s t) [in all] F` and the position filters it is written with: `s & t` of two positions,
// the ancestry order `[<]` (≺) and friends, `lca`, `distance`, `child`, `try`, `piecename`, `typename`,
// `pieceid`, `makesquare`, `position n`, `consecutivemoves`, `hhdb prize`.
//
// echo binds s to the current position and t in turn to every other position of the searched tree
// (variations only with `variations`: wcct7.pgn), evaluates F at t, and
// for each t where F holds writes (after F's own comments): the names "s" at the source and "t" at the target, "-->move 4(btm)"
// at the target and "<--move 7(btm)[38]" at the source, and "LCA" at their latest common ancestor when it
// is neither of them (castleecho.pgn, zugzwang1.pgn). A numeric echo is the largest value of F over its
// targets and keeps the comments of that target only.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"

namespace cqlindex::cql::eval {
namespace {

int ply_of(const GameTree& t, int node) { return int(t.game->nodes[node].ply); }

// The latest common ancestor of a and b (either of them when one contains the other).
int lca_of(const GameTree& t, int a, int b) {
  while (a != b) {
    if (ply_of(t, a) >= ply_of(t, b)) a = int(t.game->nodes[a].parent);
    else b = int(t.game->nodes[b].parent);
  }
  return a;
}

bool position_of(const Op& op, Ctx& ctx, int& node) {
  Value v;
  if (!evaluate(op, ctx, v) || v.pos < 0 || !ctx.tree->searched[v.pos]) return false;
  node = v.pos;
  return true;
}

bool one_square(const Op& op, Ctx& ctx, chess::Square& s) {
  const uint64_t set = set_of(op, ctx);
  if (std::popcount(set) != 1) return false;
  s = chess::Square(std::countr_zero(set));
  return true;
}

bool eval_echo_loop(const Op& op, Ctx& ctx, Value& v) {
  GameTree& tree = *ctx.tree;
  const int source = ctx.cur;
  const int sv = int(op.a), tv = int(op.b);
  const bool in_all = op.sub & kEchoInAll;
  const EvalOptions& o = ctx.prog->options;
  const bool comment = !(op.sub & kEchoQuiet) && !o.quiet && !o.silent;
  const bool numeric = op.type == ValueType::Numeric;
  const Value saved_s = ctx.vars[sv], saved_t = ctx.vars[tv];
  const uint8_t bound_s = ctx.bound[sv], bound_t = ctx.bound[tv];
  const size_t saved_mark = ctx.echo_mark;
  const std::string& sname = ctx.prog->variable_names[sv];
  const std::string& tname = ctx.prog->variable_names[tv];
  bool any = false;
  int64_t best = 0;
  std::vector<pgn::AddedComment> best_comments;
  Value x;
  // speed: when F starts with `s ≺ t` or `s ≼ t` (kEchoDescendants), the only targets that can match are the
  // source's subtree, a run of the pre-order; with `s < t` or `s <= t` (kEchoLater), the source and what follows
  // it. The others fail at that first filter, with no effect.
  auto first = tree.order.begin(), last = tree.order.end();
  auto by_id = [&](int32_t node, int32_t id) { return tree.position_id[node] < id; };
  if (op.sub & (kEchoDescendants | kEchoLater)) first = std::lower_bound(first, last, tree.position_id[source], by_id);
  if (op.sub & kEchoDescendants) last = std::lower_bound(first, last, tree.subtree_end[source] + 1, by_id);
  for (auto it = first; it != last; ++it) {
    ctx.step();
    const int32_t target = *it;
    if (target == source && !in_all) continue;
    ctx.vars[sv] = Value{};
    ctx.vars[sv].pos = source;
    ctx.vars[tv] = Value{};
    ctx.vars[tv].pos = target;
    ctx.bound[sv] = ctx.bound[tv] = 1;
    const size_t mark = ctx.comments.size();
    ctx.echo_mark = mark;
    const bool matched = evaluate_at(*op.kids[0], ctx, target, x);
    ctx.echo_mark = saved_mark;
    if (!matched) continue;
    const bool better = numeric && (!any || x.num > best), tie = numeric && any && x.num == best;
    if (better) best = x.num;
    any = true;
    if (comment) {
      ctx.comments.push_back({pgn::NodeIndex(source), sname});
      ctx.comments.push_back({pgn::NodeIndex(target), tname});
      ctx.comments.push_back({pgn::NodeIndex(target), "-->" + position_reference(ctx, source)});
      ctx.comments.push_back({pgn::NodeIndex(source), "<--" + position_reference(ctx, target)});
      const int lca = lca_of(tree, source, target);
      if (lca != source && lca != target) ctx.comments.push_back({pgn::NodeIndex(lca), "LCA"});
    }
    if (numeric) {
      // a numeric echo keeps the comments of the targets with the largest value only (movedblackpieceecho.pgn:
      // the 48-move target, not the earlier 28-move one), of every target that ties for it (random-differential
      // A17-1: `<--move 82(wtm) <--move 84(btm)` in one comment)
      if (better) best_comments.assign(ctx.comments.begin() + long(mark), ctx.comments.end());
      else if (tie) best_comments.insert(best_comments.end(), ctx.comments.begin() + long(mark), ctx.comments.end());
      ctx.comments.resize(mark);
    }
  }
  ctx.comments.insert(ctx.comments.end(), best_comments.begin(), best_comments.end());
  ctx.vars[sv] = saved_s;
  ctx.vars[tv] = saved_t;
  ctx.bound[sv] = bound_s;
  ctx.bound[tv] = bound_t;
  v.num = best;
  return any;
}

// The moves from the latest common ancestor `from` down to node, in order; the nodes they lead to in `at`.
void moves_below(const GameTree& t, int from, int node, std::vector<int>& at) {
  at.clear();
  for (int x = node; x != from; x = int(t.game->nodes[x].parent)) at.push_back(x);
  std::reverse(at.begin(), at.end());
}

// consecutivemoves (p q): the longest run of identical moves common to the lines from lca(p q) to p and
// to q (the first longest, p's line scanned first). Writes LCA, source-move[i] and target-move[i].
bool eval_consecutive_moves(const Op& op, Ctx& ctx, Value& v) {
  int p, q;
  if (!position_of(*op.kids[0], ctx, p) || !position_of(*op.kids[1], ctx, q)) return false;
  const GameTree& tree = *ctx.tree;
  const int lca = lca_of(tree, p, q);
  std::vector<int> a, b;
  moves_below(tree, lca, p, a);
  moves_below(tree, lca, q, b);
  // two moves are the same when the same piece makes them (CQL 6.2: a pawn's e2-e3 is not a queen's, R22b)
  auto same_move = [&](int x, int y) {
    const chess::Move m = tree.game->nodes[x].move, n = tree.game->nodes[y].move;
    if (!(m == n)) return false;
    if (m == chess::Move::null()) return true;
    return tree.pos[tree.parent(x)].piece_on(m.from()) == tree.pos[tree.parent(y)].piece_on(n.from());
  };
  size_t best = 0, best_i = 0, best_j = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j) {
      size_t k = 0;
      while (i + k < a.size() && j + k < b.size() && same_move(a[i + k], b[j + k])) ++k;
      if (k > best) {
        best = k;
        best_i = i;
        best_j = j;
      }
    }
  if (best == 0) return false;  // no common move: no value (CQL 6.2, repro-2 R22)
  v.num = int64_t(best);
  if (op.flag && !range_holds(op, ctx, v.num)) return false;
  const EvalOptions& o = ctx.prog->options;
  if (best > 0 && !(op.sub & kConsecutiveMovesQuiet) && !o.quiet && !o.silent) {
    std::vector<pgn::AddedComment> texts;
    if (lca != p && lca != q) texts.push_back({pgn::NodeIndex(lca), "LCA"});
    // labelled by the names of the variables compared (CQL 6.2: `s-move[1]` for (s t), R23)
    auto label = [&](const Op& kid, const char* other) {
      return kid.code == OpCode::Variable ? ctx.prog->variables[size_t(kid.var)].name : std::string(other);
    };
    const std::string source = label(*op.kids[0], "source"), target = label(*op.kids[1], "target");
    for (size_t k = 0; k < best; ++k)
      texts.push_back({pgn::NodeIndex(a[best_i + k]), source + "-move[" + std::to_string(k + 1) + "]"});
    for (size_t k = 0; k < best; ++k)
      texts.push_back({pgn::NodeIndex(b[best_j + k]), target + "-move[" + std::to_string(k + 1) + "]"});
    const size_t at = std::min(ctx.echo_mark, ctx.comments.size());
    ctx.comments.insert(ctx.comments.begin() + long(at), texts.begin(), texts.end());
    if (ctx.echo_mark != SIZE_MAX) ctx.echo_mark += texts.size();
  }
  return true;
}

// try: the current position lies in a white try, i.e. exactly one position on the way back to the root
// was reached by a white move other than the main continuation.
bool in_try(const GameTree& t, int node) {
  int count = 0;
  for (int x = node; x > 0; x = int(t.game->nodes[x].parent)) {
    const int parent = int(t.game->nodes[x].parent);
    if (t.game->nodes[parent].first_child != pgn::NodeIndex(x) && t.pos[x].side_to_move() == chess::BLACK) ++count;
  }
  return count == 1;
}

}  // namespace

std::string position_reference(Ctx& ctx, int node) {
  if (ctx.tree->depth[node] > 0)
    ctx.comments.push_back({pgn::NodeIndex(node), "id:" + std::to_string(ctx.tree->position_id[node])});
  return position_name(ctx, node);
}

namespace {

// Returns whether two positions' same squares (empty in both, or the same piece) are any, the squares in v.
bool same_squares(const Op& op, Ctx& ctx, Value& v) {
  const GameTree& tree = *ctx.tree;
  int a, b;
  if (!position_of(*op.kids[0], ctx, a) || !position_of(*op.kids[1], ctx, b)) return false;
  const chess::Position &p = tree.pos[a], &q = tree.pos[b];
  uint64_t same = ~(p.pieces() | q.pieces());  // empty in both
  for (chess::Color c : {chess::WHITE, chess::BLACK})
    for (chess::PieceType t : {chess::PAWN, chess::KNIGHT, chess::BISHOP, chess::ROOK, chess::QUEEN, chess::KING})
      same |= p.pieces(c, t) & q.pieces(c, t);
  v.set = same;
  return same != 0;
}

// Returns whether the navigation `op` between two positions (their order, lca, distance) holds, a value in v.
bool two_positions(const Op& op, Ctx& ctx, Value& v) {
  const GameTree& tree = *ctx.tree;
  int a, b;
  if (!position_of(*op.kids[0], ctx, a) || !position_of(*op.kids[1], ctx, b)) return false;
  switch (op.code) {
    case OpCode::PositionOrder:
      switch (op.sub) {
        case kLt: return a != b && tree.ancestor_or_self(a, b);
        case kLe: return tree.ancestor_or_self(a, b);
        // CQL 6.2 codes [>=] like [>] (research/cql-filters.md §G)
        default: return a != b && tree.ancestor_or_self(b, a);
      }
    case OpCode::Lca:
      v.pos = lca_of(tree, a, b);
      return true;
    default:  // OpCode::Distance
      v.num = ply_of(tree, a) + ply_of(tree, b) - 2 * ply_of(tree, lca_of(tree, a, b));
      return true;
  }
}

// Returns whether the current position has a searched child of op's index (0 without one), put in v.
bool child_position(const Op& op, Ctx& ctx, Value& v) {
  const GameTree& tree = *ctx.tree;
  int64_t index = 0;
  if (const Op* k = op.kid(0)) {
    Value n;
    if (!evaluate(*k, ctx, n)) return false;
    index = n.num;
  }
  if (index < 0) return false;
  for (pgn::NodeIndex c = tree.game->nodes[ctx.cur].first_child; c != pgn::kNoNode; c = tree.game->nodes[c].next_sibling)
    if (tree.searched[c] && index-- == 0) {
      v.pos = int(c);
      return true;
    }
  return false;
}

// Returns whether a searched position has op's positionid (`position n`: its pre-order index), put in v.
bool position_by_id(const Op& op, Ctx& ctx, Value& v) {
  const GameTree& tree = *ctx.tree;
  Value n;
  if (!evaluate(*op.kids[0], ctx, n)) return false;
  if (n.num < 0 || n.num >= int64_t(tree.all_order.size())) return false;
  const int node = tree.all_order[size_t(n.num)];
  if (!tree.searched[node]) return false;
  v.pos = node;
  return true;
}

// Returns whether op's one square gives a name in v. piecename: one letter of "KQRBNPkqrbnp" (chameleon,
// flipverticalecho compare pieces on different squares); typename (flag): the type's letter in upper case
// (babson3.pgn: "black promotes to N"); "_" for an empty square.
bool piece_name(const Op& op, Ctx& ctx, Value& v) {
  chess::Square s;
  if (!one_square(*op.kids[0], ctx, s)) return false;
  const chess::Piece pc = ctx.position().piece_on(s);
  if (pc == chess::NO_PIECE) v.str = "_";
  else if (op.flag) v.str = std::string(1, char(std::toupper(chess::piece_char(pc))));
  else v.str = std::string(1, chess::piece_char(pc));
  return true;
}

// Returns whether op's one square holds a piece, its id (from 0, as CQL numbers pieces) in v.
bool piece_id(const Op& op, Ctx& ctx, Value& v) {
  chess::Square s;
  if (!one_square(*op.kids[0], ctx, s)) return false;
  ctx.tree->build_ids();
  const uint8_t id = ctx.tree->ids[ctx.cur][s];
  if (!id) return false;
  v.num = id - 1;  // CQL numbers pieces from 0 (ids use 0 for "none")
  return true;
}

// Returns whether `makesquare` names a square (from a name such as "e4", or a file and a rank), put in v.
bool make_square(const Op& op, Ctx& ctx, Value& v) {
  Value a, b;
  if (!evaluate(*op.kids[0], ctx, a)) return false;
  int file, rank;
  if (op.kids.size() == 1) {  // makesquare "e4"
    if (a.str.size() != 2) return false;
    file = a.str[0] - 'a' + 1;
    rank = a.str[1] - '0';
  } else {
    if (!evaluate(*op.kids[1], ctx, b)) return false;
    if (a.num < 1 || a.num > 8 || b.num < 1 || b.num > 8) return false;
    file = int(a.num);
    rank = int(b.num);
  }
  if (file < 1 || file > 8 || rank < 1 || rank > 8) return false;
  v.set = uint64_t{1} << ((rank - 1) * 8 + (file - 1));
  return true;
}

}  // namespace

bool eval_echo(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::Echo: return eval_echo_loop(op, ctx, v);
    case OpCode::ConsecutiveMoves: return eval_consecutive_moves(op, ctx, v);
    case OpCode::PositionIntersect: return same_squares(op, ctx, v);
    case OpCode::PositionOrder: case OpCode::Lca: case OpCode::Distance: return two_positions(op, ctx, v);
    case OpCode::Child: return child_position(op, ctx, v);
    case OpCode::Try: return in_try(*ctx.tree, ctx.cur);
    case OpCode::PieceName: return piece_name(op, ctx, v);
    case OpCode::PieceId: return piece_id(op, ctx, v);
    case OpCode::MakeSquare: return make_square(op, ctx, v);
    case OpCode::PositionById: return position_by_id(op, ctx, v);
    default: return false;
  }
}

}  // namespace cqlindex::cql::eval
