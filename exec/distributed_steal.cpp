// Rank 0's pieces handed out on request (distributed_steal.h).
#include "exec/distributed_steal.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>

#include "exec/distributed_share.h"
#include "exec/share_pieces.h"

namespace cqlindex::exec {
namespace {

constexpr int kTagAsk = 10, kTagAnswer = 11, kTagGrants = 100;
// Rank 0's seconds to take and write a byte of another rank's games: 0.13-0.14 CPU s for 257 MB at 1M games when
// the sender is idle, about three times that while it still scans (taken a little low: what the asker is given
// too much, rank 0 merges while it scans it).
constexpr double kMergeSecondsPerByte = 0.7e-9;

}  // namespace

int grant_tag(int id, int which) { return kTagGrants + 3 * id + which; }

void PieceDispenser::serve() {
  for (;;) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kTagAsk, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived) return;
    uint64_t held = 0;
    MPI_Recv(&held, 1, MPI_UINT64_T, status.MPI_SOURCE, kTagAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (asked_bytes_.size() <= size_t(status.MPI_SOURCE)) asked_bytes_.resize(size_t(status.MPI_SOURCE) + 1, 0);
    asked_bytes_[size_t(status.MPI_SOURCE)] = held;
    const size_t give = pieces_to_give(end_ - front_, merge_pieces());
    uint64_t answer[3] = {0, 0, 0};  // pieces [first, end) and the grant's id; none when first == end
    if (give > 0) {
      grants_.push_back(Grant{status.MPI_SOURCE, end_ - give, end_, int(grants_.size())});
      end_ -= give;
      answer[0] = grants_.back().first, answer[1] = grants_.back().end, answer[2] = uint64_t(grants_.back().id);
    }
    MPI_Request request;  // a small message: sent at once (rank 0 never waits on a rank that works)
    MPI_Isend(answer, 3, MPI_UINT64_T, status.MPI_SOURCE, kTagAnswer, MPI_COMM_WORLD, &request);
    wait_for(request);
  }
}

double PieceDispenser::merge_pieces() const {
  if (front_ == 0) return 0;  // no piece timed yet
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
  const double per_piece = elapsed / (double(front_) - 0.5);  // the current piece half done
  uint64_t bytes = 0;
  for (uint64_t b : asked_bytes_) bytes += b;
  return per_piece > 0 ? double(bytes) * kMergeSecondsPerByte / per_piece : 0;
}

std::optional<size_t> PieceDispenser::next() {
  if (front_ == 0) began_ = std::chrono::steady_clock::now();
  serve();
  if (front_ >= end_) return std::nullopt;
  return front_++;
}

std::optional<Grant> ask_for_pieces(uint64_t bytes_held) {
  MPI_Request request;
  MPI_Isend(&bytes_held, 1, MPI_UINT64_T, 0, kTagAsk, MPI_COMM_WORLD, &request);
  wait_for(request);
  wait_for_message(0, kTagAnswer);
  uint64_t answer[3];
  MPI_Recv(answer, 3, MPI_UINT64_T, 0, kTagAnswer, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (answer[0] == answer[1]) return std::nullopt;
  return Grant{0, size_t(answer[0]), size_t(answer[1]), int(answer[2])};
}

}  // namespace cqlindex::exec
