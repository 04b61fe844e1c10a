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
  if (current_.size >= chunk_) send_current();
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

GameInbox::GameInbox(int ranks, int tag, size_t cap) : tag_(tag), cap_(cap), taken_(size_t(std::max(ranks, 1))) {}

bool GameInbox::arrived(int from, MPI_Status& status) const {
  int flag = 0;
  MPI_Iprobe(from, tag_, MPI_COMM_WORLD, &flag, &status);
  return flag != 0;
}

void GameInbox::receive(const MPI_Status& status, Chunk& into, size_t& capacity) {
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  if (size_t(count) > capacity || !into.bytes) {
    into.bytes.reset(new char[std::max<size_t>(size_t(count), 1)]);
    capacity = std::max<size_t>(size_t(count), 1);
  }
  into.size = size_t(count);
  MPI_Recv(into.bytes.get(), count, MPI_BYTE, status.MPI_SOURCE, tag_, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void GameInbox::poll() {
  const double start = cpu_seconds();
  MPI_Status status;
  while (held_ < cap_ && arrived(MPI_ANY_SOURCE, status)) {
    Chunk chunk;
    size_t capacity = 0;
    receive(status, chunk, capacity);
    held_ += chunk.size;
    taken_[size_t(status.MPI_SOURCE)].push_back(std::move(chunk));
  }
  seconds_ += cpu_seconds() - start;
}

uint64_t GameInbox::write_rank(int from, bool keep, std::ostream& out,
                              const std::function<std::optional<uint64_t>()>& reported) {
  uint64_t count = 0;
  double start = cpu_seconds();
  for (Chunk& c : taken_[from]) {
    if (keep) out.write(c.bytes.get(), std::streamsize(c.size));
    held_ -= c.size;
    ++count;
  }
  taken_[from].clear();
  seconds_ += cpu_seconds() - start;
  for (;;) {
    const auto total = reported();
    if (total && count >= *total) return count;
    MPI_Status status;
    if (!arrived(from, status)) {
      pause_between_tests();
      continue;
    }
    start = cpu_seconds();
    receive(status, buffer_, buffer_capacity_);
    if (keep) out.write(buffer_.bytes.get(), std::streamsize(buffer_.size));
    ++count;
    seconds_ += cpu_seconds() - start;
  }
}

}  // namespace cqlindex::exec
