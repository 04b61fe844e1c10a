#pragma once
// Sorting 64-bit integers in place by radix: the position postings of a build's runs (posting_runs.h) and of its
// merge (position_merge.h), whose values are uniform hashes.
#include <cstdint>
#include <vector>

namespace cqlindex::indexer {

// Sorts [first, last) in place, on the 8 bits at `shift` and then the lower ones down to the 8 at `last_shift`
// (values equal in those bits stay in any order; -8: every bit): American flag sort (each value is swapped
// straight into its digit's bucket, so no second buffer), small ranges by comparison. Hashes are uniform: two
// passes leave ranges of a few dozen values at a run's size.
void radix_sort(uint64_t* first, uint64_t* last, int shift, int last_shift = -8);

// Sorts a few thousand uniform values at a time (a slice of PositionMerge): each is copied straight into its
// bucket of the top bits (about four values a bucket) in a second array, then the buckets are sorted by
// insertion. Twice as fast as radix_sort at this size, where its 256 buckets a level cost more than the values.
class SliceSorter {
 public:
  // Sorts `values` (their storage is swapped with the sorter's second array).
  void sort(std::vector<uint64_t>& values);

 private:
  std::vector<uint64_t> scratch_;
  std::vector<uint32_t> begins_, heads_;
};

}  // namespace cqlindex::indexer
