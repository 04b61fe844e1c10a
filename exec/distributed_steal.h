#pragma once
// Rank 0's pieces handed out on request (docs/distributed.md, "Who does what"): rank 0 scans its share's pieces
// from the front; a rank done with its own share asks for more and is given pieces from the back, which it scans
// and sends under tags of their own. So the ranks end their scans together, whatever their speeds, and rank 0,
// which merges after its scan, takes less. MPI code: built into cqlindex-mpi alone.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace cqlindex::exec {

// Pieces [first, end) of rank 0's share given to `rank`; `id` numbers the grants from 0.
struct Grant {
  int rank = 0;
  size_t first = 0, end = 0;
  int id = 0;
};

// The tag of a grant's chunks of games (`which` 0), its report (1) and what follows the report (2: a sorted
// query's kept games, the held stderr lines).
int grant_tag(int id, int which);

// Rank 0's side.
class PieceDispenser {
 public:
  // `pieces` in all, the first `begun` of them begun already by rank 0 since `began` (the files it scanned whole
  // while the others counted, distributed_share.h); none begun: timed from its first piece.
  explicit PieceDispenser(size_t pieces, size_t begun = 0, std::chrono::steady_clock::time_point began = {})
      : front_(std::min(begun, pieces)), end_(pieces), began_(began) {}
  // Answers the requests that have arrived: pieces from the back while rank 0 has some it has not begun, else
  // "no more". Returns without waiting.
  void serve();
  // Returns rank 0's next piece, after answering the requests; nullopt when none is left.
  std::optional<size_t> next();
  // Gives no more pieces (rank 0 failed): later requests are told "no more".
  void close() { end_ = front_; }
  // Returns the grants in game order (the back was given first).
  std::vector<Grant> grants() const { return {grants_.rbegin(), grants_.rend()}; }

 private:
  // Returns rank 0's merge still to do (of the games the askers said they hold) over its seconds a piece.
  double merge_pieces() const;

  size_t front_ = 0, end_;
  std::vector<Grant> grants_;
  std::vector<uint64_t> asked_bytes_;  // by rank: the matched games' bytes it said it holds for rank 0
  std::chrono::steady_clock::time_point began_;  // rank 0's first piece
};

// A rank other than 0: asks rank 0 for pieces, saying the bytes of matched games it holds for rank 0 (its merge
// to come), and waits, sleeping, for the answer; nullopt when there are no more.
std::optional<Grant> ask_for_pieces(uint64_t bytes_held);

}  // namespace cqlindex::exec
