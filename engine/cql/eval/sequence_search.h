#pragma once
// Internal to the evaluator: the backtracking search `line` and `path` share, as CQL 6.2 runs both. The
// constituents still to match wait on a stack; a chain pushes its members; a repetition {m,n} (* + ? are
// {0,} {1,} {0,1}) first lets the rest of the sequence match after the iterations it has, then tries one
// more, so fewer repetitions are found first. What a filter or dash constituent does is the sequence's own
// (step); finish() sees each complete match.
#include <cstdint>
#include <vector>

#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

class SequenceSearch {
 public:
  SequenceSearch(Ctx& ctx, bool firstmatch)
      : ctx_(ctx), start_(ctx.cur), node_(ctx.cur), firstmatch_(firstmatch), stack_(ctx.sequence_stack),
        base_(stack_.size()) {}
  virtual ~SequenceSearch() = default;

  // Matches the constituents kids[first...] from the current position.
  void run(const std::vector<OpPtr>& kids, size_t first);

 protected:
  // A SeqFilter or Dash constituent at node_: for each way it matches, advance() to where it leads.
  virtual void step(const Op& constituent) = 0;
  // The whole sequence matched, ending at node_ after count_ steps.
  virtual void finish() = 0;
  // Moves to `next`, one step more, matches the rest of the sequence, and comes back.
  void advance(int next);
  // Matches what is left on the stack; comments made on the way are dropped when it returns.
  void compute();

  Ctx& ctx_;
  const int start_;
  int node_;
  int64_t count_ = 0;
  bool found_ = false;  // finish() took a match (with firstmatch: stop)

 private:
  using Pending = PendingConstituent;
  void repeat_step(const Pending& rep);

  const bool firstmatch_;
  std::vector<Pending>& stack_;  // Ctx::sequence_stack: this search's part starts at base_
  const size_t base_;
};

// nestban (path and line): the positions where earlier matches of `op` in this game ban a new one from starting,
// sized to the game.
std::vector<uint8_t>& nestban_table(const Op& op, Ctx& ctx);
// Bans the positions of a match from `start` to the one before `end` (end is start's descendant).
void ban_match(std::vector<uint8_t>& banned, const Ctx& ctx, int start, int end);

}  // namespace cqlindex::cql::eval
