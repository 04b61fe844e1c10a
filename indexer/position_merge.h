#pragma once
// Merges the sorted runs of the similar family's key ranges (position hashes -> games: nine postings in ten) in
// hash order, as RunMerger does for every family, without its heap: the runs are read a slice of the hash space
// at a time (its first 16 bits), each run's records of the slice appended to one array of (the hash's other 32
// bits, game) integers, which a bucket sort orders (SliceSorter). A heap merge paid about log2(runs) unpredictable comparisons a
// posting, the build's largest cost at a million games (32 runs a range); the slices cost a few steps a posting.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "indexer/radix_sort.h"

namespace cqlindex::indexer {

class PositionMerge {
 public:
  PositionMerge();
  ~PositionMerge();

  // Opens `runs` (run files of a similar key range, RunWriter's records), each read through its share of
  // `buffer_bytes` (as RunMerger::open shares them); false (with `error`) when one cannot be opened.
  bool open(const std::vector<std::string>& runs, std::string* error, size_t buffer_bytes = SIZE_MAX);
  // Moves to the next position: fills `hash` (store::read_position_hash's form) and `games` (increasing, no
  // duplicates); false at the end, or when a run cannot be read or holds another record (error() says which).
  bool next(uint64_t& hash, std::vector<uint32_t>& games);
  // Returns the most values a slice has held so far: the merge's memory, which a hash in every game must not grow.
  size_t largest_slice() const { return largest_slice_; }
  // Returns why next() stopped early ("" at the true end).
  const std::string& error() const { return error_; }

 private:
  struct Run;
  // Reads the runs' records of the next slice into values_, sorted; false when none is left or on error.
  bool read_slice();

  std::vector<std::unique_ptr<Run>> runs_;
  std::vector<uint64_t> values_;  // the slice's (hash bits 16 to 47 of the u64 form, game), sorted
  std::vector<uint64_t> part_;    // one run's values of the slice, as read
  SliceSorter sorter_;
  // The games of a hash past the first kStretch of a run's stretch of it (the start position's hash has every
  // game): kept as games, 4 bytes each, and moved out whole, so that such a hash costs what its list costs and
  // not twice that in values_ (at 10 million games the slice of the start position grew values_ to 128 MB).
  static constexpr size_t kStretch = 64;
  std::vector<std::pair<uint64_t, std::vector<uint32_t>>> long_;  // (hash bits 16 to 47, games), by hash
  size_t at_ = 0;                 // the next of values_ to yield
  size_t largest_slice_ = 0;
  uint64_t slice_ = 0;            // the slice values_ hold (the hash's first 16 bits)
  std::string error_;
};

}  // namespace cqlindex::indexer
