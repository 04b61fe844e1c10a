// Position runs merged by slices of the hash space (position_merge.h).
#include "indexer/position_merge.h"

#include <algorithm>

#include "indexer/posting_runs.h"
#include "indexer/radix_sort.h"
#include "store/family.h"
#include "store/position_buckets.h"

namespace cqlindex::indexer {

// One run file and its current position posting.
struct PositionMerge::Run {
  std::string path;
  RunReader reader;
  bool loaded = false;  // a posting is under the read position
  uint64_t hash = 0;    // its hash (read_position_hash's form) and game
  uint32_t game = 0;

  // Reads the next posting; false at the end of the file, or with `error` on a failed read or another record.
  bool load(std::string& error) {
    if (loaded && reader.next_game()) {  // (a run of add()'s postings has records of many games)
      game = reader.game();
      return true;
    }
    loaded = reader.load();
    if (!loaded) {
      if (error.empty()) error = reader.failure();
      return false;
    }
    const std::string_view text = reader.text;
    if (text.size() != 1 + store::kPositionHashBytes || text[0] != static_cast<char>(store::Family::Similar)) {
      loaded = false;
      if (error.empty()) error = path + ": not a run of position postings (damaged, or written by another version)";
      return false;
    }
    hash = store::read_position_hash(text.substr(1));
    game = reader.game();
    return true;
  }
};

PositionMerge::PositionMerge() = default;
PositionMerge::~PositionMerge() = default;

bool PositionMerge::open(const std::vector<std::string>& runs, std::string* error, size_t buffer_bytes) {
  const size_t buffer = run_read_buffer(buffer_bytes, runs.size());
  for (const std::string& path : runs) {
    auto run = std::make_unique<Run>();
    run->path = path;
    if (!run->reader.open(path, buffer, error)) return false;
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
    // The run's records of the slice, in any order within it: a run of positions is sorted by the slice only.
    part_.clear();
    while (run->loaded && run->hash >> 48 == slice_) {
      part_.push_back((((run->hash >> 16) & 0xFFFFFFFF) << 32) | run->game);
      run->load(error_);
    }
    if (!error_.empty()) return false;
    if (part_.size() <= kStretch) {  // (a run's slice holds ~30 postings: no long stretch)
      values_.insert(values_.end(), part_.begin(), part_.end());
      continue;
    }
    sorter_.sort(part_);  // its long stretches of one hash next to each other
    uint64_t stretch_hash = 0;
    size_t stretch = 0;
    std::vector<uint32_t>* stretch_games = nullptr;  // the long stretch's games (no insertion while it lasts)
    for (const uint64_t v : part_) {
      const uint64_t rest = v >> 32;
      stretch = stretch > 0 && rest == stretch_hash ? stretch + 1 : 1;
      stretch_hash = rest;
      if (stretch <= kStretch) {
        values_.push_back(v);
      } else {  // a long stretch: its first kStretch values name the hash in values_, the rest are games
        if (stretch == kStretch + 1) {
          auto it = std::lower_bound(long_.begin(), long_.end(), rest,
                                     [](const auto& entry, uint64_t r) { return entry.first < r; });
          if (it == long_.end() || it->first != rest) it = long_.insert(it, {rest, {}});
          stretch_games = &it->second;
        }
        stretch_games->push_back(static_cast<uint32_t>(v));
      }
    }
  }
  largest_slice_ = std::max(largest_slice_, values_.size());
  sorter_.sort(values_);
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
