// The in-place radix sort of radix_sort.h.
#include "indexer/radix_sort.h"

#include <algorithm>
#include <cstddef>

namespace cqlindex::indexer {

void radix_sort(uint64_t* first, uint64_t* last, int shift) {
  const size_t n = static_cast<size_t>(last - first);
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
    if (ends[d] - begins[d] > 1) radix_sort(first + begins[d], first + ends[d], shift - 8);
}

}  // namespace cqlindex::indexer
