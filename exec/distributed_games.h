#pragma once
// The matched games of a distributed run's ranks other than 0 on their way to rank 0 (docs/distributed.md, "Rank 0
// merges"). Each such rank sends its games in chunks as its scan fills them (GameOutbox), instead of building its
// whole output in one string and sending it at the end; once its own games are written, rank 0 writes each rank's
// chunks in rank order (which is game order), each as it arrives, while that rank may still be scanning, through
// one reused buffer. The chunks of one rank arrive in the order it sent them (MPI's order of messages of one
// sender and tag); its report, sent after its last chunk, says how many there are. (Rank 0 does not take chunks
// ahead of their turn while it scans: held in fresh buffers, they cost it page faults on its own, longest, path;
// its merge took twice the CPU with a 256 MiB allowance.) MPI code: built into cqlindex-mpi alone.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

#include "exec/distributed_share.h"

namespace cqlindex::exec {

// Returns the bytes of a chunk: 4 MiB (a few messages a second of scan, each well inside MPI's int count), or
// CQLINDEX_TEST_CHUNK_BYTES when set (the tests' many small chunks).
size_t game_chunk_bytes();

// Bytes of one chunk, allocated without being filled (a receive overwrites them all).
struct Chunk {
  std::unique_ptr<char[]> bytes;
  size_t size = 0;
};

// A rank's games on their way to rank 0, sent with `tag` in chunks of `chunk` bytes.
class GameOutbox {
 public:
  GameOutbox(int tag, size_t chunk) : tag_(tag), chunk_(chunk) {}
  GameOutbox(const GameOutbox&) = delete;
  GameOutbox& operator=(const GameOutbox&) = delete;

  // Appends a game's text; a full chunk is sent (without waiting for rank 0 to take it).
  void add(std::string_view text);
  // Appends bytes cut into chunks (a sorted query's kept games, which receive_bytes reads back whole).
  void add_cut(std::string_view bytes);
  // Sends what is left. Afterwards chunks() is the count rank 0 is to receive.
  void flush();
  // Returns the chunks sent so far, and the bytes added.
  uint64_t chunks() const { return sent_; }
  uint64_t bytes() const { return bytes_; }
  // Waits, sleeping, until rank 0 has taken every chunk (each chunk's bytes live until then).
  void wait();

 private:
  // Sends the chunk being filled.
  void send_current();
  // Frees the chunks rank 0 has taken, oldest first.
  void release_taken();

  struct InFlight {
    Chunk chunk;
    MPI_Request request;
  };
  const int tag_;
  const size_t chunk_;
  Chunk current_;  // being filled
  size_t capacity_ = 0;  // its bytes
  std::deque<InFlight> in_flight_;
  uint64_t sent_ = 0;
  uint64_t bytes_ = 0;
};

// Rank 0's side: the chunks of ranks 1..K-1.
class GameInbox {
 public:
  // Writes to `out` (when `keep`, else drops) the chunks rank `from` sends with `tag` in order as they arrive,
  // until `reported()` gives their count (the rank's report, read by the caller, which it checks between chunks:
  // nullopt until it is in). Returns the count received. Sleeps while nothing has arrived.
  uint64_t write_rank(int from, int tag, bool keep, std::ostream& out,
                      const std::function<std::optional<uint64_t>()>& reported);
  // Returns the CPU seconds spent receiving and writing the other ranks' chunks.
  double seconds() const { return seconds_; }

 private:
  // Receives the chunk that `status` announced into the buffer (grown when too small).
  void receive(const MPI_Status& status);

  Chunk buffer_;  // one buffer, reused (its pages are faulted in once)
  size_t buffer_capacity_ = 0;
  double seconds_ = 0;
};

}  // namespace cqlindex::exec
