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

// The game count behind a repository's shares, and the share of this rank it gives. Every file's games: an
// index's meta, else counted by the game splitter, the files to count dealt out in turn to the counting ranks and
// summed; then contiguous runs of games (rank 0's 5/4 of an even share, share_start): whole files when the
// repository has at least as many files as ranks, else game ranges (each rank one range, a file cut at a game
// start). The count of a file rank 0's share may hold notes its checkpoints, where rank0_pieces are cut.
// With `total_needed` false (a run: only the game numbers of the shares' first games matter) and a file without a
// count in its index, whole files are shared by their bytes instead, and only the files before the last rank's
// share are counted (each rank's own files after its first are numbered on by its scan): the game splitter's pass
// is about 6 % of an unbounded scan, which one process does not make at all. Rank 0's first game is then the
// repository's first, so rank 0 needs no count to begin: ranks 1..K-1 count, rank 1 sends rank 0 the sum, and rank
// 0 scans its first files (early()) meanwhile (docs/distributed.md, "Rank 0 scans while the others count").
class ShareCount {
 public:
  // Starts the count (collective: every rank at once). A counting rank returns with the sum; rank 0, when it
  // does not count, at once.
  ShareCount(const std::vector<std::string>& files, const RepositoryIndexes& indexes, bool indexed,
             const std::string& command, bool total_needed);
  // Waits until rank 0 has taken the sum sent to it (rank 1).
  ~ShareCount();
  ShareCount(const ShareCount&) = delete;
  ShareCount& operator=(const ShareCount&) = delete;

  // Returns the files rank 0 may scan whole before the count is in: its first files from the repository's first
  // game, no more than half its share's bytes (the rest is cut into pieces the others can take); empty when rank 0
  // counts too (its first file is more than half its share, or the files are not shared by bytes).
  const std::vector<size_t>& early() const { return early_; }
  // Returns true when the count is in on this rank, without waiting (rank 0 tests rank 1's message).
  bool arrived();
  // Returns the share of this rank in `share`, waiting for the count; false when a file could not be counted
  // (on any rank; that rank said why, naming the command).
  bool finish(RepositoryShare& share);

 private:
  // Returns true when file k's index meta gives its count.
  bool counted(size_t k) const { return indexed_ && indexes_.indexed(k); }
  // Counts the files [0, count_end_) dealt to this rank, noting checkpoints where a slot is kept for them.
  void count_mine(bool rank0_counts);

  const std::vector<std::string>& files_;
  const RepositoryIndexes& indexes_;
  const bool indexed_, total_needed_;
  const std::string command_;
  const int rank_, size_;
  bool by_bytes_ = false;
  std::vector<uint64_t> byte_starts_;  // by bytes: each file's first byte in the repository
  uint64_t bytes_total_ = 0;
  size_t count_end_;                    // the files counted are [0, count_end_)
  std::vector<size_t> slot_of_;         // a file's checkpoints' place in summed_, else SIZE_MAX
  std::vector<uint64_t> summed_;        // the counts, the checkpoints, then the files that could not be counted
  std::vector<size_t> early_;
  bool in_ = false;                     // the sum is in summed_
  MPI_Request from_rank1_ = MPI_REQUEST_NULL, to_rank0_ = MPI_REQUEST_NULL;
};

// Returns the share of this rank (ShareCount, every rank counting). Collective. False when a file cannot be read
// (on any rank; that rank says why, naming `command`).
bool share_repository(const std::vector<std::string>& files, const RepositoryIndexes& indexes, bool indexed,
                      const std::string& command, RepositoryShare& share, bool total_needed = true);

// Returns true when the test hook `variable` names this rank (N > 0): CQLINDEX_TEST_KILL_RANK=N and the others of
// distributed_run.cpp and distributed_share.cpp.
bool test_hook_names(const char* variable, int rank);

}  // namespace cqlindex::exec
