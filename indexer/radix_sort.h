#pragma once
// Sorting 64-bit integers in place by radix: the position postings of a build's runs (posting_runs.h) and of its
// merge (position_merge.h), whose values are uniform hashes.
#include <cstdint>

namespace cqlindex::indexer {

// Sorts [first, last) in place, on the 8 bits at `shift` and then the lower ones: American flag sort (each value
// is swapped straight into its digit's bucket, so no second buffer), small ranges by comparison. Hashes are
// uniform: two passes leave ranges of a few dozen values at a run's size.
void radix_sort(uint64_t* first, uint64_t* last, int shift);

}  // namespace cqlindex::indexer
