// The constituent stack `line` and `path` share (sequence_search.h).
#include "engine/cql/eval/sequence_search.h"

#include <string>

#include "engine/cql/error.h"

namespace cqlindex::cql::eval {

void SequenceSearch::run(const std::vector<OpPtr>& kids, size_t first) {
  for (size_t i = kids.size(); i-- > first;) stack_.push_back({kids[i].get()});
  compute();
  stack_.resize(base_);
}

void SequenceSearch::advance(int next) {
  const int from = node_;
  node_ = next;
  ++count_;
  compute();
  --count_;
  node_ = from;
}

void SequenceSearch::compute() {
  ctx_.step();
  if (const char here = 0; &here < ctx_.stack_floor) [[unlikely]]
    throw CqlError("line or path: the search is deeper than the stack of the evaluation allows (at game number " +
                       std::to_string(ctx_.game_number) + ")",
                   0, 0);
  if (stack_.size() == base_) return finish();
  if (firstmatch_ && found_) return;
  const size_t mark = ctx_.comments.size();
  const Pending top = stack_.back();
  stack_.pop_back();
  const Op& con = *top.con;
  if (top.repeating) {
    repeat_step(top);
  } else if (con.code == OpCode::SeqChain) {
    for (size_t i = con.kids.size(); i-- > 0;) stack_.push_back({con.kids[i].get()});
    compute();
    stack_.resize(stack_.size() - con.kids.size());
  } else if (con.code == OpCode::SeqRepeat) {
    stack_.push_back({&con, true, 0, -1});
    compute();
    stack_.pop_back();
  } else {
    step(con);
  }
  stack_.push_back(top);
  ctx_.comments.resize(mark);
}

void SequenceSearch::repeat_step(const Pending& rep) {
  const int64_t lo = rep.con->a, hi = rep.con->b;
  if (rep.seen >= lo && (hi < 0 || rep.seen <= hi)) compute();
  if (rep.seen > 0 && rep.count_at_push == count_) return;  // the last iteration took no step
  if (hi >= 0 && rep.seen >= hi) return;
  stack_.push_back({rep.con, true, rep.seen + 1, count_});
  stack_.push_back({rep.con->kids[0].get()});
  compute();
  stack_.pop_back();
  stack_.pop_back();
}

std::vector<uint8_t>& nestban_table(const Op& op, Ctx& ctx) {
  std::vector<uint8_t>& banned = ctx.path_nestban[&op];
  if (banned.size() != ctx.game().nodes.size()) banned.assign(ctx.game().nodes.size(), 0);
  return banned;
}

void ban_match(std::vector<uint8_t>& banned, const Ctx& ctx, int start, int end) {
  for (int x = end; x != start && x >= 0;)
    if ((x = ctx.tree->parent(x)) >= 0) banned[size_t(x)] = 1;
}

}  // namespace cqlindex::cql::eval
