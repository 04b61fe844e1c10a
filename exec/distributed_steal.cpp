// Rank 0's pieces handed out on request (distributed_steal.h).
#include "exec/distributed_steal.h"

#include <mpi.h>

#include <cstdint>

#include "exec/distributed_share.h"
#include "exec/share_pieces.h"

namespace cqlindex::exec {
namespace {

constexpr int kTagAsk = 10, kTagAnswer = 11, kTagGrants = 100;

}  // namespace

int grant_tag(int id, int which) { return kTagGrants + 3 * id + which; }

void PieceDispenser::serve() {
  for (;;) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kTagAsk, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived) return;
    MPI_Recv(nullptr, 0, MPI_BYTE, status.MPI_SOURCE, kTagAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const size_t give = pieces_to_give(end_ - front_);
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

std::optional<size_t> PieceDispenser::next() {
  serve();
  if (front_ >= end_) return std::nullopt;
  return front_++;
}

std::optional<Grant> ask_for_pieces() {
  MPI_Request request;
  MPI_Isend(nullptr, 0, MPI_BYTE, 0, kTagAsk, MPI_COMM_WORLD, &request);
  wait_for(request);
  wait_for_message(0, kTagAnswer);
  uint64_t answer[3];
  MPI_Recv(answer, 3, MPI_UINT64_T, 0, kTagAnswer, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (answer[0] == answer[1]) return std::nullopt;
  return Grant{0, size_t(answer[0]), size_t(answer[1]), int(answer[2])};
}

}  // namespace cqlindex::exec
