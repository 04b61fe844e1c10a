// The ranks' matched games streamed to rank 0 in chunks (distributed_games.h).
#include "exec/distributed_games.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cqlindex::exec {

size_t game_chunk_bytes() {
  if (const char* test = std::getenv("CQLINDEX_TEST_CHUNK_BYTES")) {
    const long bytes = std::atol(test);
    if (bytes > 0) return size_t(bytes);
  }
  return size_t(4) << 20;
}

void GameOutbox::add(std::string_view text) {
  if (current_.size > 0 && current_.size + text.size() > capacity_) send_current();
  // An empty chunk gets its bytes here: a chunk's, or a larger game's own (a game is never cut between chunks, and
  // its bytes are copied once, here).
  if (!current_.bytes || text.size() > capacity_ - current_.size) {
    capacity_ = std::max(chunk_, text.size());
    current_.bytes.reset(new char[capacity_]);
    current_.size = 0;
  }
  std::memcpy(current_.bytes.get() + current_.size, text.data(), text.size());
  current_.size += text.size();
  bytes_ += text.size();
  if (current_.size >= chunk_) send_current();
}

void GameOutbox::add_cut(std::string_view bytes) {
  for (size_t at = 0; at < bytes.size(); at += chunk_) add(bytes.substr(at, chunk_));
}

void GameOutbox::flush() {
  if (current_.bytes && current_.size > 0) send_current();
}

void GameOutbox::send_current() {
  release_taken();
  InFlight& sent = in_flight_.emplace_back();
  sent.chunk = std::move(current_);
  current_ = Chunk{};
  capacity_ = 0;
  MPI_Isend(sent.chunk.bytes.get(), int(sent.chunk.size), MPI_BYTE, 0, tag_, MPI_COMM_WORLD, &sent.request);
  ++sent_;
}

void GameOutbox::release_taken() {
  while (!in_flight_.empty()) {
    int done = 0;
    MPI_Test(&in_flight_.front().request, &done, MPI_STATUS_IGNORE);
    if (!done) return;
    in_flight_.pop_front();
  }
}

void GameOutbox::wait() {
  for (InFlight& sent : in_flight_) wait_for(sent.request);
  in_flight_.clear();
}

void GameInbox::receive(const MPI_Status& status) {
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  if (size_t(count) > buffer_capacity_ || !buffer_.bytes) {
    buffer_capacity_ = std::max<size_t>(size_t(count), 1);
    buffer_.bytes.reset(new char[buffer_capacity_]);
  }
  buffer_.size = size_t(count);
  MPI_Recv(buffer_.bytes.get(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

uint64_t GameInbox::write_rank(int from, int tag, bool keep, std::ostream& out,
                              const std::function<std::optional<uint64_t>()>& reported) {
  for (uint64_t count = 0;;) {
    const auto total = reported();
    if (total && count >= *total) return count;
    MPI_Status status;
    int arrived = 0;
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived) {
      pause_between_tests();
      continue;
    }
    const double start = cpu_seconds();
    receive(status);
    if (keep) out.write(buffer_.bytes.get(), std::streamsize(buffer_.size));
    ++count;
    seconds_ += cpu_seconds() - start;
  }
}

}  // namespace cqlindex::exec
