#pragma once
// The piece-square and flag bitmaps of one build thread, bounded in memory: every `max_games` games the thread
// indexed, its bitmaps are appended to a spill file as one chunk (CRoaring's portable form, one entry per list)
// and cleared. The build then ORs, one list at a time, the chunks of every thread into the list it writes, so the
// memory of these families is that of one list (a bit per game at most), not of all of them, whatever the input.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <roaring/roaring.hh>

namespace cqlindex::indexer {

class BitmapSpill {
 public:
  // Chunks go to `path` (created at the first spill).
  explicit BitmapSpill(std::string path) : path_(std::move(path)) {}
  ~BitmapSpill();
  BitmapSpill(BitmapSpill&& other) noexcept;
  BitmapSpill(const BitmapSpill&) = delete;
  BitmapSpill& operator=(const BitmapSpill&) = delete;

  // Appends `lists` to the file as one chunk and clears them; false (with `error`) when the file cannot be written.
  bool spill(std::vector<Roaring*> lists, std::string* error);
  // ORs list `i` of every chunk into `into`; false (with `error`) when the file cannot be read back.
  bool union_into(size_t i, Roaring& into, std::string* error) const;
  // Returns the number of chunks written.
  size_t chunks() const { return chunks_.size(); }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t end_ = 0;
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> chunks_;  // per chunk, per list: offset and length
};

}  // namespace cqlindex::indexer
