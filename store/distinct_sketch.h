#pragma once
// A HyperLogLog sketch of the distinct position hashes a build saw (2^12 registers, about 1.6 % error). It sizes
// the similar family's buckets (position_buckets.h: similar_bucket_bits) before a single bucket is written, and it
// is kept in the meta family so that an --append can size them again, and `info` can say how many distinct
// positions the index holds, without reading the family. Merging sketches takes register maxima, so the sketch of
// a build does not depend on its thread count or on how its work was cut.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cqlindex::store {

class DistinctSketch {
 public:
  static constexpr unsigned kIndexBits = 12;
  static constexpr size_t kRegisters = size_t{1} << kIndexBits;

  // Counts the 64-bit hash `h` (an XXH3-64 of a position key: its bits are already uniform).
  void add(uint64_t h) {
    const size_t index = h & (kRegisters - 1);
    const uint64_t rest = h >> kIndexBits;
    const uint8_t rank = rest ? static_cast<uint8_t>(__builtin_ctzll(rest) + 1) : uint8_t{64 - kIndexBits + 1};
    if (rank > registers_[index]) registers_[index] = rank;
  }
  // Adds everything `other` counted.
  void merge(const DistinctSketch& other);
  // Returns the estimated number of distinct hashes added.
  uint64_t estimate() const;

  // Returns the sketch as text (one character per register), for the meta family.
  std::string to_text() const;
  // Returns the sketch that to_text() wrote, or nullopt when `text` is not one.
  static std::optional<DistinctSketch> from_text(std::string_view text);

  friend bool operator==(const DistinctSketch&, const DistinctSketch&) = default;

 private:
  std::array<uint8_t, kRegisters> registers_{};
};

}  // namespace cqlindex::store
