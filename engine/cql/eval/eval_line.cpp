// `line --> c1 --> c2 ...` (and `line <--`): a regular expression over successive positions. Each filter
// constituent consumes one position; `*` `+` `?` `{m,n}` repeat; `( ... )` groups. The longest match wins
// (the first found among equals); its value is the number of positions matched.
// GCC 12 reports false -Wrestrict positives on std::string concatenation at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <functional>

#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"

namespace cqlindex::cql::eval {
namespace {

using Cont = std::function<void(int last, int len)>;

struct LineSearch {
  Ctx& ctx;
  int start;
  bool backward, primary, firstmatch;
  bool singlecolor = false;  // lang: each step goes two plies (positions with the starting side to move)
  size_t mark;  // ctx.comments size when the line started
  int best_len = 0, best_end = -1;
  std::vector<pgn::AddedComment> best_comments;
  bool stop = false;

  template <class F> void candidates(int last, F f) {
    if (last < 0) return f(start);
    if (singlecolor) return step(last, [&](int mid) { step(mid, f); });
    step(last, f);
  }
  // The positions one ply on from `last` (its parent backward, its searched children forward).
  template <class F> void step(int last, F f) {
    if (backward) {
      int p = ctx.tree->parent(last);
      if (p >= 0) f(p);
      return;
    }
    const pgn::NodeIndex first = ctx.game().nodes[last].first_child;
    ctx.tree->for_children(last, [&](int c) {
      if (primary && pgn::NodeIndex(c) != first) return;
      f(c);
    });
  }

  void item(const Op& it, int last, int len, const Cont& k) {
    if (stop) return;
    switch (it.code) {
      case OpCode::SeqFilter:
        candidates(last, [&](int c) {
          if (stop) return;
          size_t m = ctx.comments.size();
          Value v;
          if (evaluate_at(*it.kids[0], ctx, c, v)) k(c, len + 1);
          ctx.comments.resize(m);
        });
        return;
      case OpCode::SeqChain: return seq(it, 0, last, len, k);
      case OpCode::SeqRepeat: return repeat(it, 0, last, len, k);
      default: return;
    }
  }

  void seq(const Op& chain, size_t i, int last, int len, const Cont& k) {
    if (stop) return;
    if (i == chain.kids.size()) return k(last, len);
    item(*chain.kids[i], last, len, [&](int l2, int len2) { seq(chain, i + 1, l2, len2, k); });
  }

  void repeat(const Op& rep, int64_t count, int last, int len, const Cont& k) {
    if (stop) return;
    const int64_t lo = rep.a, hi = rep.b;
    if (hi < 0 || count < hi) {
      item(*rep.kids[0], last, len, [&](int l2, int len2) {
        if (len2 == len) return;  // no progress
        repeat(rep, count + 1, l2, len2, k);
      });
    }
    if (count >= lo) k(last, len);
  }

  void done(int last, int len) {
    if (len <= best_len) return;
    best_len = len;
    best_end = last;
    best_comments.assign(ctx.comments.begin() + long(mark), ctx.comments.end());
    if (firstmatch) stop = true;
  }
};

}  // namespace

bool eval_line(const Op& op, Ctx& ctx, Value& v) {
  LineSearch s{ctx, ctx.cur, bool(op.sub & 1), bool(op.sub & 2), bool(op.sub & 4), bool(op.sub & 8),
               ctx.comments.size(), 0, -1, {}, false};
  Cont final = [&](int last, int len) { s.done(last, len); };
  s.seq(op, 0, -1, 0, final);
  ctx.comments.resize(s.mark);
  if (s.best_len <= 0) return false;
  if (op.a >= 0 && (s.best_len < op.a || (op.b >= 0 && s.best_len > op.b))) return false;
  for (auto& c : s.best_comments) ctx.comments.push_back(std::move(c));
  const EvalOptions& o = ctx.prog->options;
  if (!op.flag && !o.quiet && !o.silent) {
    int first = s.backward ? s.best_end : ctx.cur, last = s.backward ? ctx.cur : s.best_end;
    // CQL writes the end comment first
    ctx.comments.push_back({pgn::NodeIndex(s.best_end), "End line of length " + std::to_string(s.best_len) +
                                                           " that starts at " + position_name(ctx, ctx.cur)});
    ctx.comments.push_back({pgn::NodeIndex(ctx.cur),
                            "Start line that ends at " + position_name(ctx, s.backward ? s.best_end : s.best_end)});
    (void)first;
    (void)last;
  }
  v.num = s.best_len;
  if (op.sub & 16) v.pos = s.best_end;  // lang: lastposition: the line's value is its last position
  return true;
}

}  // namespace cqlindex::cql::eval
