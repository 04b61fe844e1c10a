// `line --> c1 --> c2 ...` (and `line <--`): a regular expression over successive positions, searched as
// `path` is (sequence_search.h). Each filter constituent consumes one position: the first the current one,
// each next a child (forward) or the parent (backward). The longest match wins (the first found among
// equals); its value is the number of positions matched.
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/eval/sequence_search.h"

namespace cqlindex::cql::eval {
namespace {

class LineSearch : public SequenceSearch {
 public:
  LineSearch(const Op& op, Ctx& ctx)
      : SequenceSearch(ctx, op.sub & kLineFirstMatch), backward_(op.sub & kLineBackward),
        primary_(op.sub & kLinePrimary), secondary_(op.sub & kLineSecondary), singlecolor_(op.sub & kLineSingleColor),
        mark(ctx.comments.size()) {}

  const bool backward_, primary_, secondary_;  // forward steps along main-line moves only / variation moves only
  const bool singlecolor_;  // each step goes two plies (positions with the starting side to move)
  const size_t mark;  // ctx.comments size when the line started
  int64_t best_len = 0;
  int best_end = -1;
  std::vector<pgn::AddedComment> best_comments;

 protected:
  void step(const Op& con) override {
    if (con.code != OpCode::SeqFilter) return;
    auto take = [&](int c) {
      Value v;
      if (evaluate_at(*con.kids[0], ctx_, c, v)) advance(c);
    };
    if (count_ == 0) return take(start_);
    if (singlecolor_) return plies_on(node_, [&](int mid) { plies_on(mid, take); });
    plies_on(node_, take);
  }

  // Calls f with the positions one ply on from `node` (its parent backward, its searched children forward).
  template <class F> void plies_on(int node, F&& f) {
    if (backward_) {
      const int p = ctx_.tree->parent(node);
      if (p >= 0) f(p);
      return;
    }
    const pgn::NodeIndex first = ctx_.game().nodes[node].first_child;
    ctx_.tree->for_children(node, [&](int c) {
      if ((!primary_ || pgn::NodeIndex(c) == first) && (!secondary_ || pgn::NodeIndex(c) != first)) f(c);
    });
  }

  void finish() override {
    if (count_ <= best_len) return;
    found_ = true;
    best_len = count_;
    best_end = node_;
    best_comments.assign(ctx_.comments.begin() + long(mark), ctx_.comments.end());
  }
};

}  // namespace

bool eval_line(const Op& op, Ctx& ctx, Value& v) {
  // nestban, as path has it: a line cannot start inside an earlier match of the same line, from its first
  // position up to the one before its last (eval_path.cpp)
  std::vector<uint8_t>* banned = nullptr;
  if (op.sub & kLineNestBan) {
    banned = &nestban_table(op, ctx);
    if ((*banned)[ctx.cur]) return false;
  }
  LineSearch s(op, ctx);
  s.run(op.kids, 0);
  ctx.comments.resize(s.mark);
  if (s.best_len <= 0) return false;
  if (op.a >= 0 && !range_holds(op, ctx, s.best_len)) return false;
  if (banned) ban_match(*banned, ctx, ctx.cur, s.best_end);  // (the parser refuses nestban on a backward line)
  for (auto& c : s.best_comments) ctx.comments.push_back(std::move(c));
  const EvalOptions& o = ctx.prog->options;
  if (!op.flag && !o.quiet && !o.silent) {
    // CQL writes the end comment first; a reference into a variation labels its position "id:N" (the label
    // comes before the text at the start, after it at the end)
    const std::string start = position_reference(ctx, ctx.cur);
    ctx.comments.push_back({pgn::NodeIndex(s.best_end), "End line of length " + std::to_string(s.best_len) +
                                                           " that starts at " + start});
    const std::string end = position_reference(ctx, s.best_end);
    ctx.comments.push_back({pgn::NodeIndex(ctx.cur), "Start line that ends at " + end});
  }
  v.num = s.best_len;
  if (op.sub & kLineLastPosition) v.pos = s.best_end;  // lastposition: the line's value is its last position
  return true;
}

}  // namespace cqlindex::cql::eval
