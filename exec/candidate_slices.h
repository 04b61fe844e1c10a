#pragma once
// A file's candidate games in slices, their byte ranges read from the index: the next slice is read on a thread of
// its own while the current one is replayed, so the run's workers do not wait for the index between slices.
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <roaring/roaring.hh>

#include "engine/cql/query.h"
#include "engine/pgn/game_splitter.h"

namespace cqlindex::store {
class IndexStore;
}

namespace cqlindex::exec {

class CandidateSlices {
 public:
  // The candidates `ids` (game ids of `index`, 0-based) numbered from first_number + 1, up to `games`'s end, in
  // slices of `slice` (the first three shorter: 1/8, 1/4 and 1/2 of it).
  CandidateSlices(const store::IndexStore& index, const Roaring& ids, uint64_t first_number,
                  std::optional<cql::Range> games, size_t slice);
  ~CandidateSlices();
  CandidateSlices(const CandidateSlices&) = delete;
  CandidateSlices& operator=(const CandidateSlices&) = delete;

  // The next slice's spans, in game order, into `spans` (empty: none left); false (with `*error`) when their
  // records cannot be read.
  bool next(std::vector<pgn::GameSpan>& spans, std::string* error);

 private:
  struct Slice {
    std::vector<pgn::GameSpan> spans;
    bool ok = true;
    std::string error;
  };
  // Reads the slice after the last one read into `s`.
  void read(Slice& s);

  const store::IndexStore& index_;
  const Roaring& ids_;
  Roaring::const_iterator at_;
  const uint64_t first_number_;
  const std::optional<cql::Range> games_;
  const size_t slice_;
  bool more_ = true;  // ids are left to read
  unsigned slices_read_ = 0;
  Slice ahead_slice_;
  std::thread ahead_;  // reading ahead_slice_ (not joinable: nothing read ahead)
};

}  // namespace cqlindex::exec
