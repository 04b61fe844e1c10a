// The in-place radix sort of radix_sort.h.
#include "indexer/radix_sort.h"

#include <algorithm>
#include <bit>
#include <cstddef>

namespace cqlindex::indexer {

void radix_sort(uint64_t* first, uint64_t* last, int shift, int last_shift) {
  const size_t n = static_cast<size_t>(last - first);
  if (shift < last_shift) return;
  if (n <= 64 || shift < 0) {
    std::sort(first, last);
    return;
  }
  auto digit = [shift](uint64_t v) { return static_cast<size_t>((v >> shift) & 0xFF); };
  size_t begins[256] = {}, heads[256], ends[256];  // heads: where a bucket's next misplaced value is
  for (const uint64_t* p = first; p != last; ++p) ++begins[digit(*p)];
  for (size_t d = 0, at = 0; d < 256; ++d) {
    const size_t count = begins[d];
    heads[d] = begins[d] = at;
    ends[d] = at += count;
  }
  for (size_t d = 0; d < 256; ++d)
    while (heads[d] < ends[d]) {  // the value at the bucket's head goes to its own bucket until one belongs here
      uint64_t v = first[heads[d]];
      for (size_t to = digit(v); to != d; to = digit(v)) std::swap(v, first[heads[to]++]);
      first[heads[d]++] = v;
    }
  for (size_t d = 0; d < 256; ++d)
    if (ends[d] - begins[d] > 1) radix_sort(first + begins[d], first + ends[d], shift - 8, last_shift);
}

void SliceSorter::sort(std::vector<uint64_t>& values) {
  const size_t n = values.size();
  if (n <= 64) {
    std::sort(values.begin(), values.end());
    return;
  }
  const int bits = std::clamp(static_cast<int>(std::bit_width(n)) - 2, 4, 16);  // about four values a bucket
  const int shift = 64 - bits;
  const size_t buckets = size_t{1} << bits;
  begins_.assign(buckets + 1, 0);
  for (uint64_t v : values) ++begins_[(v >> shift) + 1];
  for (size_t d = 1; d <= buckets; ++d) begins_[d] += begins_[d - 1];
  heads_.assign(begins_.begin(), begins_.end() - 1);
  scratch_.resize(n);
  for (uint64_t v : values) scratch_[heads_[v >> shift]++] = v;
  for (size_t d = 0; d < buckets; ++d) {
    uint64_t* const first = scratch_.data() + begins_[d];
    uint64_t* const last = scratch_.data() + begins_[d + 1];
    if (last - first <= 16) {  // (a hash in many runs fills its bucket: those are sorted as a range)
      for (uint64_t* i = first + 1; i < last; ++i) {
        const uint64_t v = *i;
        uint64_t* j = i;
        for (; j > first && j[-1] > v; --j) *j = j[-1];
        *j = v;
      }
    } else {
      std::sort(first, last);
    }
  }
  values.swap(scratch_);
}

}  // namespace cqlindex::indexer
