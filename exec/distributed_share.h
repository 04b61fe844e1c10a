#pragma once
// What the distributed commands share (docs/distributed.md): the quiet MPI waits, rank 0's decisions broadcast,
// bytes sent to rank 0 in chunks, and each rank's share of a repository: whole files when there are at least as
// many files as ranks, else game ranges of the files (a file cut between ranks at game starts, exec/repository_part.h).
// MPI code: built into cqlindex-mpi alone (CMakeLists.txt).
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "exec/quiet_standard_error.h"
#include "exec/repository_indexes.h"
#include "exec/repository_part.h"
#include "exec/share_pieces.h"

namespace cqlindex::exec {

// Returns this process's rank.
int world_rank();
// Returns the number of ranks.
int world_size();

// Waits for `request` to complete, sleeping between tests: Open MPI's blocking calls poll a core at 100 %
// while they wait, which on a shared node takes the core from the ranks that work.
void wait_for(MPI_Request& request);
// Sleeps between two tests of a request or a probe (wait_for says why): 0.2 ms.
void pause_between_tests();
// Waits, sleeping, until a message with `tag` from rank `from` has arrived.
void wait_for_message(int from, int tag);
// Returns rank 0's `value` on every rank.
int broadcast(int value);
// Returns the sum over the ranks of `values`, element by element, on every rank.
void sum_over_ranks(std::vector<uint64_t>& values);
// Returns the largest `value` of any rank, on every rank.
int max_over_ranks(int value);
// Ends every rank: a rank cannot go on after the others started (MPI_Abort; mpirun exits non-zero).
[[noreturn]] void abort_run(int code);

// Sends `bytes` to rank 0 with `tag` in chunks (the receiver knows the total).
void send_bytes(const std::string& bytes, int tag);
// Returns the `total` bytes rank `from` sends with send_bytes (or in chunks of any size: GameOutbox::add_cut).
std::string receive_bytes(int from, uint64_t total, int tag);

// Appends the word `w` to a message's bytes.
void put_word(std::string& out, uint64_t w);
// Appends the string `s` (its length, then its bytes) to a message's bytes.
void put_text(std::string& out, const std::string& s);

// Reads back, in order, what put_word and put_text wrote.
class MessageReader {
 public:
  explicit MessageReader(const std::string& bytes) : bytes_(bytes) {}
  // Returns the next word.
  uint64_t word();
  // Returns the next string.
  std::string text();

 private:
  const std::string& bytes_;
  size_t at_ = 0;
};

// Returns this process's CPU seconds so far.
double cpu_seconds();

// Returns the worker threads a rank takes when the user gave none: its share of its node's cores (the cores
// over the ranks on the node, MPI_Comm_split_type), at most the cores it may run on (mpirun binds each of 2
// ranks to one core), at least 1. Every core to every rank would put K x cores threads on the cores. Collective.
unsigned threads_per_rank();

// The games of each file and this rank's share of them.
struct RepositoryShare {
  std::vector<uint64_t> games;   // per file
  uint64_t total = 0;               // unless counted_only_before_shares
  std::vector<SharePiece> pieces;  // in game order; the ranks' pieces in rank order are the repository's
  // Rank 0's share cut small where the counts' checkpoints allow (on every rank): rank 0 scans them from the
  // front, the ranks done with their own shares take them from the back (distributed_steal.h). On rank 0, pieces.
  std::vector<SharePiece> rank0_pieces;
  bool counted_only_before_shares = false;  // games and total hold only the counts the shares needed
};

// Returns the share of this rank: every file's games (an index's meta, else counted by the game splitter, the
// files to count dealt out to the ranks in turn, the counts summed over the ranks), then contiguous runs of games
// (rank 0's 5/4 of an even share, share_start): whole files when the repository has at least as many files as
// ranks, else game ranges (each rank one range, a file cut at a game start). The count of a file rank 0's share
// may hold notes its checkpoints, where rank0_pieces are cut. Collective. False when a file cannot be read (on
// any rank; that rank says why, naming `command`).
// With `total_needed` false (a run: only the game numbers of the shares' first games matter) and a file without a
// count in its index, whole files are shared by their bytes instead, and only the files before the last rank's
// share are counted (each rank's own files after its first are numbered on by its scan): the game splitter's pass
// is about 6 % of an unbounded scan, which one process does not make at all.
bool share_repository(const std::vector<std::string>& files, const RepositoryIndexes& indexes, bool indexed,
                      const std::string& command, RepositoryShare& share, bool total_needed = true);

}  // namespace cqlindex::exec
