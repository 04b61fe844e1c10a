#pragma once
// Where a rank's time goes in a distributed run (docs/distributed.md): with CQLINDEX_RANK_TIMES set, each rank
// prints one stderr line at its end with the wall clock (seconds since boot, comparable between the ranks of one
// node) and its CPU seconds at each step: start, ready, shared, scanned, merged or sent. scripts/bench-shards
// prints them. Without the variable nothing is measured.
#include <string>
#include <vector>

namespace cqlindex::exec {

class RankTimeline {
 public:
  explicit RankTimeline(int rank);
  ~RankTimeline();  // prints the line
  RankTimeline(const RankTimeline&) = delete;
  RankTimeline& operator=(const RankTimeline&) = delete;

  // Notes the time when step `what` ends.
  void mark(const char* what);

 private:
  struct Mark {
    const char* what;
    double wall, cpu;
  };
  const int rank_;
  const bool on_;
  std::vector<Mark> marks_;
};

}  // namespace cqlindex::exec
