// The MPI helpers of the distributed commands and the shares of a repository (distributed_share.h).
#include "exec/distributed_share.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>

#include <sched.h>

#include "engine/pgn/game_splitter.h"
#include "engine/pgn/reader.h"

namespace cqlindex::exec {
namespace {

constexpr size_t kChunk = size_t(1) << 26;  // bytes of one message: well inside MPI's int counts

// Returns the files [begin, end) of rank `rank` when files are not cut: contiguous runs of about equal games or
// bytes (`starts`: each file's first, of `total`; a file goes to the rank its first game or byte falls to).
std::pair<size_t, size_t> whole_files_of(const std::vector<uint64_t>& starts, uint64_t total, int rank, int size) {
  auto owner = [&](size_t k) { return total == 0 ? 0 : int(std::min<uint64_t>(size - 1, starts[k] * size / total)); };
  size_t begin = 0;
  while (begin < starts.size() && owner(begin) < rank) ++begin;
  size_t end = begin;
  while (end < starts.size() && owner(end) == rank) ++end;
  return {begin, end};
}

}  // namespace

void pause_between_tests() {
  const timespec pause{0, 200'000};  // 0.2 ms: a few thousand wake-ups a second at most, each a few µs
  nanosleep(&pause, nullptr);
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

void wait_for(MPI_Request& request) {
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    pause_between_tests();
  }
}

void wait_for_message(int from, int tag) {
  for (int arrived = 0;;) {
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
    if (arrived) return;
    pause_between_tests();
  }
}

int broadcast(int value) {
  MPI_Request request;
  MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
  wait_for(request);
  return value;
}

void sum_over_ranks(std::vector<uint64_t>& values) {
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &request);
  wait_for(request);
}

int max_over_ranks(int value) {
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &request);
  wait_for(request);
  return value;
}

void abort_run(int code) {
  std::cerr.flush();
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

void send_bytes(const std::string& bytes, int tag) {
  for (size_t at = 0; at < bytes.size(); at += kChunk) {
    MPI_Request request;
    MPI_Isend(bytes.data() + at, int(std::min(kChunk, bytes.size() - at)), MPI_BYTE, 0, tag, MPI_COMM_WORLD,
              &request);
    wait_for(request);
  }
}

std::string receive_bytes(int from, uint64_t total, int tag) {
  std::string bytes(total, '\0');
  for (size_t at = 0; at < total; at += kChunk)
    MPI_Recv(bytes.data() + at, int(std::min<uint64_t>(kChunk, total - at)), MPI_BYTE, from, tag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  return bytes;
}

void put_word(std::string& out, uint64_t w) { out.append(reinterpret_cast<const char*>(&w), sizeof w); }

void put_text(std::string& out, const std::string& s) {
  put_word(out, s.size());
  out += s;
}

uint64_t MessageReader::word() {
  uint64_t w;
  std::memcpy(&w, bytes_.data() + at_, sizeof w);
  at_ += sizeof w;
  return w;
}

std::string MessageReader::text() {
  const uint64_t n = word();
  std::string s = bytes_.substr(at_, n);
  at_ += n;
  return s;
}

unsigned threads_per_rank() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  unsigned usable = pgn::resolve_threads(0);
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) usable = std::min(usable, unsigned(std::max(1, CPU_COUNT(&set))));
  return std::max(1u, std::min(usable, pgn::resolve_threads(0) / unsigned(std::max(1, on_node))));
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

bool share_repository(const std::vector<std::string>& files, const RepositoryIndexes& indexes, bool indexed,
                      const std::string& command, RepositoryShare& share, bool total_needed) {
  const int rank = world_rank(), size = world_size();
  std::vector<uint64_t>& games = share.games;
  games.assign(files.size(), 0);
  auto counted = [&](size_t k) { return indexed && indexes.indexed(k); };  // an index's meta has the count
  // A run over at least as many files as ranks, some without a count: whole files shared by bytes, and only the
  // files before the last rank's first one counted (they number the shares' first games).
  std::vector<uint64_t> byte_starts;
  uint64_t bytes_total = 0;
  size_t count_end = files.size();
  bool by_bytes = false;
  if (!total_needed && files.size() >= size_t(size))
    for (size_t k = 0; k < files.size(); ++k) by_bytes = by_bytes || !counted(k);
  if (by_bytes) {
    for (size_t k = 0; by_bytes && k < files.size(); ++k) {
      std::error_code error;
      const uint64_t bytes = std::filesystem::file_size(files[k], error);
      by_bytes = !error;  // a pipe, or a file that cannot be read (counted below, which says why)
      byte_starts.push_back(bytes_total);
      bytes_total += bytes;
    }
    if (by_bytes) count_end = whole_files_of(byte_starts, bytes_total, size - 1, size).first;
  }
  int failed = 0;
  for (size_t k = 0, uncounted = 0; k < count_end; ++k) {
    if (counted(k) || int(uncounted++ % size) != rank) continue;  // the files to count dealt out in turn
    std::string err;
    std::unique_ptr<pgn::PgnFile> file = pgn::PgnFile::open(files[k], &err);
    if (!file) {
      std::cerr << "cqlindex " << command << ": " << err << "\n";
      failed = 1;
      continue;
    }
    pgn::GameSplitter splitter(file->text());
    pgn::GameSpan span;
    while (splitter.next(span)) ++games[k];
  }
  sum_over_ranks(games);
  if (max_over_ranks(failed) != 0) return false;
  for (size_t k = 0; k < files.size(); ++k)
    if (counted(k)) games[k] = indexes.games(k);
  share.pieces.clear();
  share.counted_only_before_shares = by_bytes;
  if (by_bytes) {  // this rank's files: the first numbered by the counts before it, the others on from it
    const auto [begin, end] = whole_files_of(byte_starts, bytes_total, rank, size);
    uint64_t offset = 0;
    for (size_t k = 0; k < begin; ++k) offset += games[k];
    for (size_t k = begin; k < end; ++k) share.pieces.push_back(SharePiece{k, FilePart{}, offset, k > begin});
    share.total = 0;
    return true;
  }
  std::vector<uint64_t> starts(files.size(), 0);
  for (size_t k = 1; k < files.size(); ++k) starts[k] = starts[k - 1] + games[k - 1];
  share.total = files.empty() ? 0 : starts.back() + games.back();
  if (files.size() >= size_t(size)) {  // whole files: no cut to find
    const auto [begin, end] = whole_files_of(starts, share.total, rank, size);
    for (size_t k = begin; k < end; ++k) share.pieces.push_back(SharePiece{k, FilePart{}, starts[k]});
    return true;
  }
  // Fewer files than ranks: this rank's run of games [from, to) of the repository, cut into its files' parts.
  const uint64_t from = share.total * uint64_t(rank) / uint64_t(size);
  const uint64_t to = share.total * uint64_t(rank + 1) / uint64_t(size);
  for (size_t k = 0; k < files.size(); ++k) {
    const uint64_t first = std::max(from, starts[k]), end = std::min(to, starts[k] + games[k]);
    if (first >= end) continue;
    FilePart part{first - starts[k], end - starts[k]};
    if (part.first == 0 && part.end == games[k]) part = FilePart{};
    share.pieces.push_back(SharePiece{k, part, starts[k]});
  }
  if (share.pieces.empty() && !files.empty()) {  // fewer games than ranks: an empty part where the run would be
    size_t k = 0;
    while (k + 1 < files.size() && starts[k] + games[k] <= from) ++k;
    share.pieces.push_back(SharePiece{k, FilePart{from - starts[k], from - starts[k]}, starts[k]});
  }
  return true;
}

}  // namespace cqlindex::exec
