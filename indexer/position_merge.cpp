// Position runs merged by slices of the hash space (position_merge.h).
#include "indexer/position_merge.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "indexer/posting_runs.h"
#include "indexer/radix_sort.h"
#include "store/family.h"
#include "store/position_buckets.h"

namespace cqlindex::indexer {

namespace {

// A position record of a run file: [length 7][family Similar][hash, 6 bytes][game, 4 bytes], big-endian.
constexpr size_t kRecord = 2 + store::kPositionHashBytes + 4;

}  // namespace

// One run file read through a buffer, and the record under its read position.
struct PositionMerge::Run {
  std::string path;
  int fd = -1;
  std::string buffer;
  size_t pos = 0, end = 0;
  bool eof = false;
  bool loaded = false;  // a record is under the read position
  uint64_t hash = 0;    // its hash (read_position_hash's form) and game
  uint32_t game = 0;

  ~Run() {
    if (fd >= 0) ::close(fd);
  }
  // Reads the next record; false at the end of the file, or with `error` on a failed read or another record.
  bool load(std::string& error) {
    if (end - pos < kRecord && !eof) {
      std::memmove(buffer.data(), buffer.data() + pos, end - pos);
      end -= pos;
      pos = 0;
      while (!eof && end < buffer.size()) {
        const ssize_t n = ::read(fd, buffer.data() + end, buffer.size() - end);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = path + ": " + std::strerror(errno);
        if (n <= 0) eof = true;
        else end += static_cast<size_t>(n);
      }
    }
    loaded = false;
    if (pos == end) return false;
    const char* r = buffer.data() + pos;
    if (end - pos < kRecord || r[0] != 1 + static_cast<char>(store::kPositionHashBytes) ||
        r[1] != static_cast<char>(store::Family::Similar)) {
      if (error.empty()) error = path + ": not a run of position postings (damaged, or written by another version)";
      return false;
    }
    hash = store::read_position_hash(std::string_view(r + 2, store::kPositionHashBytes));
    game = 0;
    for (size_t k = 0; k < 4; ++k) game = (game << 8) | static_cast<uint8_t>(r[2 + store::kPositionHashBytes + k]);
    pos += kRecord;
    loaded = true;
    return true;
  }
};

PositionMerge::PositionMerge() = default;
PositionMerge::~PositionMerge() = default;

bool PositionMerge::open(const std::vector<std::string>& runs, std::string* error, size_t buffer_bytes) {
  const size_t buffer = std::clamp(buffer_bytes / std::max<size_t>(runs.size(), 1), kLeastRunReadBuffer, kRunReadBuffer);
  for (const std::string& path : runs) {
    auto run = std::make_unique<Run>();
    run->path = path;
    run->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (run->fd < 0) {
      if (error) *error = path + ": " + std::strerror(errno);
      return false;
    }
    run->buffer.resize(buffer);
    run->load(error_);
    if (!error_.empty()) {
      if (error) *error = error_;
      return false;
    }
    runs_.push_back(std::move(run));
  }
  return true;
}

bool PositionMerge::read_slice() {
  values_.clear();
  at_ = 0;
  // The next slice: the smallest first 16 bits among the runs' current records.
  bool any = false;
  for (const auto& run : runs_)
    if (run->loaded && (!any || run->hash >> 48 < slice_)) {
      slice_ = run->hash >> 48;
      any = true;
    }
  if (!any) return false;
  long_.clear();
  for (const auto& run : runs_) {
    uint64_t stretch_hash = 0;
    size_t stretch = 0;
    std::vector<uint32_t>* stretch_games = nullptr;  // the long stretch's games (no insertion while it lasts)
    while (run->loaded && run->hash >> 48 == slice_) {
      const uint64_t rest = (run->hash >> 16) & 0xFFFFFFFF;
      stretch = stretch > 0 && rest == stretch_hash ? stretch + 1 : 1;
      stretch_hash = rest;
      if (stretch <= kStretch) {
        values_.push_back((rest << 32) | run->game);
      } else {  // a long stretch: its first kStretch values name the hash in values_, the rest are games
        if (stretch == kStretch + 1) {
          auto it = std::lower_bound(long_.begin(), long_.end(), rest,
                                     [](const auto& entry, uint64_t r) { return entry.first < r; });
          if (it == long_.end() || it->first != rest) it = long_.insert(it, {rest, {}});
          stretch_games = &it->second;
        }
        stretch_games->push_back(run->game);
      }
      run->load(error_);
    }
    if (!error_.empty()) return false;
  }
  radix_sort(values_.data(), values_.data() + values_.size(), 56);
  return true;
}

bool PositionMerge::next(uint64_t& hash, std::vector<uint32_t>& games) {
  if (at_ == values_.size() && !read_slice()) return false;
  const uint64_t rest = values_[at_] >> 32;
  hash = (slice_ << 48) | (rest << 16);
  games.clear();
  auto long_games = std::lower_bound(long_.begin(), long_.end(), rest,
                                     [](const auto& entry, uint64_t r) { return entry.first < r; });
  if (long_games != long_.end() && long_games->first == rest) {  // the games past its stretches, then the others
    games.swap(long_games->second);
    for (; at_ < values_.size() && values_[at_] >> 32 == rest; ++at_) games.push_back(static_cast<uint32_t>(values_[at_]));
    std::sort(games.begin(), games.end());
    games.erase(std::unique(games.begin(), games.end()), games.end());
    return true;
  }
  // A game's postings may straddle two runs of one writer: equal values lie next to each other.
  for (; at_ < values_.size() && values_[at_] >> 32 == rest; ++at_) {
    const auto game = static_cast<uint32_t>(values_[at_]);
    if (games.empty() || games.back() != game) games.push_back(game);
  }
  return true;
}

}  // namespace cqlindex::indexer
