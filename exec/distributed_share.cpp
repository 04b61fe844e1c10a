// The MPI helpers of the distributed commands and the shares of a repository (distributed_share.h).
#include "exec/distributed_share.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include <sched.h>

#include "engine/pgn/game_splitter.h"
#include "engine/pgn/reader.h"
#include "indexer/removal_on_exit.h"

namespace cqlindex::exec {
namespace {

// The words a checkpoint is sent as: game, offset, line, column.
constexpr size_t kCheckpointWords = 4;

constexpr size_t kChunk = size_t(1) << 26;  // bytes of one message: well inside MPI's int counts
constexpr int kTagCount = 20;             // the game count, rank 1 to rank 0 (ShareCount)

// Returns the files [begin, end) of rank `rank` when files are not cut: contiguous runs of games or bytes
// (`starts`: each file's first, of `total`; a file goes to the rank whose share its first game or byte falls in).
std::pair<size_t, size_t> whole_files_of(const std::vector<uint64_t>& starts, uint64_t total, int rank, int size,
                                         bool rank0_larger) {
  if (total == 0) return rank == 0 ? std::pair<size_t, size_t>{0, starts.size()} : std::pair<size_t, size_t>{0, 0};
  auto first_at = [&](int r) {  // the first file starting in rank r's share or later
    if (r >= size) return starts.size();
    const uint64_t from = share_start(total, r, size, rank0_larger);
    return size_t(std::lower_bound(starts.begin(), starts.end(), from) - starts.begin());
  };
  const size_t begin = rank == 0 ? 0 : first_at(rank);
  return {begin, std::max(begin, first_at(rank + 1))};
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
  indexer::remove_registered_files();  // MPI_Abort ends this process too
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
  for (size_t at = 0; at < total;) {  // the sender's messages may be smaller than kChunk (GameOutbox::add_cut)
    MPI_Status status;
    MPI_Recv(bytes.data() + at, int(std::min<uint64_t>(kChunk, total - at)), MPI_BYTE, from, tag, MPI_COMM_WORLD,
             &status);
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    if (count <= 0) break;
    at += size_t(count);
  }
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

bool test_hook_names(const char* variable, int rank) {
  const char* hook = std::getenv(variable);
  return hook && std::atoi(hook) == rank && rank > 0;
}

ShareCount::ShareCount(const std::vector<std::string>& files, const RepositoryIndexes& indexes, bool indexed,
                       const std::string& command, bool total_needed)
    : files_(files), indexes_(indexes), indexed_(indexed), total_needed_(total_needed), command_(command),
      rank_(world_rank()), size_(world_size()), count_end_(files.size()), slot_of_(files.size(), SIZE_MAX) {
  const bool larger = !total_needed;  // a run, whose ranks take pieces of rank 0's share (similar's do not)
  // A run over at least as many files as ranks, some without a count: whole files shared by bytes, and only the
  // files before the last rank's first one counted (they number the shares' first games).
  if (!total_needed && files.size() >= size_t(size_))
    for (size_t k = 0; k < files.size(); ++k) by_bytes_ = by_bytes_ || !counted(k);
  if (by_bytes_) {
    for (size_t k = 0; by_bytes_ && k < files.size(); ++k) {
      std::error_code error;
      const uint64_t bytes = std::filesystem::file_size(files[k], error);
      by_bytes_ = !error;  // a pipe, or a file that cannot be read (counted below, which says why)
      byte_starts_.push_back(bytes_total_);
      bytes_total_ += bytes;
    }
    if (by_bytes_) count_end_ = whole_files_of(byte_starts_, bytes_total_, size_ - 1, size_, larger).first;
  }
  // The counted files that rank 0's share may hold note checkpoints, where its pieces can be cut: its files by
  // bytes, else every file when there are fewer files than ranks (rank 0's part of the first).
  size_t slots = 0;
  const size_t rank0_end = by_bytes_ ? whole_files_of(byte_starts_, bytes_total_, 0, size_, larger).second
                           : files.size() < size_t(size_) ? files.size() : 0;
  for (size_t k = 0; k < rank0_end && size_ > 1; ++k)
    if (!counted(k)) slot_of_[k] = slots++;
  summed_.assign(files.size() + slots * Checkpoint::kCheckpoints * 4 + 1, 0);
  // By bytes, rank 0's share starts at the repository's first game: it scans its first files while the others
  // count, up to half its share's bytes (the rest, cut at the checkpoints, is what it can give away).
  if (by_bytes_ && size_ > 1) {
    const uint64_t share_bytes = rank0_end < files.size() ? byte_starts_[rank0_end] : bytes_total_;
    for (size_t k = 0; k < rank0_end; ++k) {
      const uint64_t end = k + 1 < files.size() ? byte_starts_[k + 1] : bytes_total_;
      if (2 * end > share_bytes) break;
      early_.push_back(k);
    }
  }
  const bool rank0_counts = early_.empty();
  if (rank0_counts) {  // every rank counts its turn and waits for the sum
    count_mine(true);
    sum_over_ranks(summed_);
    in_ = true;
    return;
  }
  // Ranks 1..K-1 sum their counts among themselves (the communicator made before anyone counts: a collective of
  // every rank), and rank 1 sends the sum to rank 0, which tests for it between its batches of games.
  MPI_Comm counters = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank_ == 0 ? MPI_UNDEFINED : 1, rank_, &counters);
  if (rank_ == 0) {
    MPI_Irecv(summed_.data(), int(summed_.size()), MPI_UINT64_T, 1, kTagCount, MPI_COMM_WORLD, &from_rank1_);
    return;
  }
  count_mine(false);
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, summed_.data(), int(summed_.size()), MPI_UINT64_T, MPI_SUM, counters, &request);
  wait_for(request);
  MPI_Comm_free(&counters);
  in_ = true;
  if (rank_ == 1)  // taken when rank 0 next looks (waited for at the end: rank 1 scans meanwhile)
    MPI_Isend(summed_.data(), int(summed_.size()), MPI_UINT64_T, 0, kTagCount, MPI_COMM_WORLD, &to_rank0_);
}

ShareCount::~ShareCount() {
  if (to_rank0_ != MPI_REQUEST_NULL) wait_for(to_rank0_);
}

void ShareCount::count_mine(bool rank0_counts) {
  const size_t per_file = Checkpoint::kCheckpoints * kCheckpointWords;
  const int counters = rank0_counts ? size_ : size_ - 1, me = rank0_counts ? rank_ : rank_ - 1;
  uint64_t& failed = summed_.back();
  for (size_t k = 0, uncounted = 0; k < count_end_; ++k) {
    if (counted(k) || int(uncounted++ % counters) != me) continue;  // the files to count dealt out in turn
    std::string err;
    std::unique_ptr<pgn::PgnFile> file = pgn::PgnFile::open(files_[k], &err);
    if (!file) {
      std::cerr << "cqlindex " << command_ << ": " << err << "\n";
      failed = 1;
      continue;
    }
    const uint64_t bytes = file->text().size();
    uint64_t* marks = slot_of_[k] == SIZE_MAX ? nullptr : &summed_[files_.size() + slot_of_[k] * per_file];
    unsigned mark = 0;
    auto note = [&](uint64_t game, const GameStart& at) {
      marks[mark * kCheckpointWords] = game, marks[mark * kCheckpointWords + 1] = at.offset;
      marks[mark * kCheckpointWords + 2] = at.line, marks[mark * kCheckpointWords + 3] = at.col;
      ++mark;
    };
    pgn::GameSplitter splitter(file->text());
    pgn::GameSpan span;
    for (uint64_t& game = summed_[k]; splitter.next(span); ++game)
      while (marks && mark < Checkpoint::kCheckpoints && span.offset >= checkpoint_byte(bytes, mark))
        note(game, GameStart{span.offset, span.first_line, span.first_col});
    while (marks && mark < Checkpoint::kCheckpoints) note(summed_[k], GameStart{bytes, 1, 1});  // none after
  }
  // Test hooks: a counting rank that dies or fails before the sum (rank 0 scanning meanwhile), and the count
  // slowed, so that rank 0 scans its first files before the sum is in.
  if (test_hook_names("CQLINDEX_TEST_KILL_COUNTING_RANK", rank_)) std::raise(SIGKILL);
  if (test_hook_names("CQLINDEX_TEST_FAIL_COUNTING_RANK", rank_)) {
    std::cerr << "cqlindex " << command_ << ": rank " << rank_
              << " fails in the game count (CQLINDEX_TEST_FAIL_COUNTING_RANK)\n";
    failed = 1;
  }
  if (const char* pause = std::getenv("CQLINDEX_TEST_COUNT_PAUSE_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(pause)));
}

bool ShareCount::arrived() {
  if (!in_) {
    int done = 0;
    MPI_Test(&from_rank1_, &done, MPI_STATUS_IGNORE);
    in_ = done != 0;
  }
  return in_;
}

bool ShareCount::finish(RepositoryShare& share) {
  if (!in_) wait_for(from_rank1_);
  in_ = true;
  if (summed_.back() != 0) return false;  // a file could not be counted
  const std::vector<std::string>& files = files_;
  const int rank = rank_, size = size_;
  const bool larger = !total_needed_, by_bytes = by_bytes_;
  const size_t count_end = count_end_;
  const size_t per_file = Checkpoint::kCheckpoints * kCheckpointWords;
  std::vector<uint64_t>& games = share.games;
  games.assign(summed_.begin(), summed_.begin() + files.size());
  for (size_t k = 0; k < files.size(); ++k)
    if (counted(k)) games[k] = indexes_.games(k);
  std::vector<std::vector<Checkpoint>> checkpoints(files.size());
  for (size_t k = 0; k < files.size(); ++k) {
    if (slot_of_[k] == SIZE_MAX) continue;
    const uint64_t* marks = &summed_[files.size() + slot_of_[k] * per_file];
    for (unsigned m = 0; m < Checkpoint::kCheckpoints; ++m, marks += kCheckpointWords)
      checkpoints[k].push_back(Checkpoint{marks[0], GameStart{marks[1], uint32_t(marks[2]), uint32_t(marks[3])}});
  }
  share.counted_only_before_shares = by_bytes;
  share.total = 0;
  std::vector<uint64_t> starts(files.size(), 0);
  for (size_t k = 1; k < files.size(); ++k) starts[k] = starts[k - 1] + games[k - 1];  // valid up to count_end
  if (!by_bytes) share.total = files.empty() ? 0 : starts.back() + games.back();
  // The pieces of rank r: whole files by bytes (those after the last rank's first numbered on from the one
  // before: they were not counted), whole files by games, or parts of files.
  auto pieces_of = [&](int r) {
    std::vector<SharePiece> pieces;
    if (by_bytes || files.size() >= size_t(size)) {
      const auto [begin, end] = by_bytes ? whole_files_of(byte_starts_, bytes_total_, r, size, larger)
                                         : whole_files_of(starts, share.total, r, size, larger);
      for (size_t k = begin; k < end; ++k)
        pieces.push_back(SharePiece{k, FilePart{}, k > count_end ? 0 : starts[k], k > count_end});
      return pieces;
    }
    // Fewer files than ranks: rank r's run of games [from, to) of the repository, cut into its files' parts.
    const uint64_t from = share_start(share.total, r, size, larger);
    const uint64_t to = r + 1 == size ? share.total : share_start(share.total, r + 1, size, larger);
    for (size_t k = 0; k < files.size(); ++k) {
      const uint64_t first = std::max(from, starts[k]), end = std::min(to, starts[k] + games[k]);
      if (first >= end) continue;
      FilePart part{first - starts[k], end - starts[k]};
      if (part.first == 0 && part.end == games[k]) part = FilePart{};
      pieces.push_back(SharePiece{k, part, starts[k]});
    }
    if (pieces.empty() && !files.empty()) {  // fewer games than ranks: an empty part where the run would be
      size_t k = 0;
      while (k + 1 < files.size() && starts[k] + games[k] <= from) ++k;
      pieces.push_back(SharePiece{k, FilePart{from - starts[k], from - starts[k]}, starts[k]});
    }
    return pieces;
  };
  share.pieces = pieces_of(rank);
  // Rank 0's share in about kPieces pieces (its games are all counted: it is never the last rank).
  constexpr uint64_t kPieces = 64;
  const std::vector<SharePiece> rank0 = rank == 0 ? share.pieces : pieces_of(0);
  uint64_t rank0_games = 0;
  for (const SharePiece& p : rank0)
    rank0_games += std::min(p.part.end, games[p.file]) - std::min(p.part.first, games[p.file]);
  share.rank0_pieces = cut_pieces(rank0, games, checkpoints, std::max<uint64_t>(1, rank0_games / kPieces));
  if (rank == 0) share.pieces = share.rank0_pieces;
  return true;
}

bool share_repository(const std::vector<std::string>& files, const RepositoryIndexes& indexes, bool indexed,
                      const std::string& command, RepositoryShare& share, bool total_needed) {
  ShareCount count(files, indexes, indexed, command, total_needed);
  return count.finish(share);
}

}  // namespace cqlindex::exec
