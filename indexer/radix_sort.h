#pragma once
// Sorting 64-bit integers in place by radix: the position postings of a build's runs (posting_runs.h) and of its
// merge (position_merge.h), whose values are uniform hashes.
#include <cstdint>

namespace cqlindex::indexer {

// Sorts [first, last) in place, on the 8 bits at `shift` and then the lower ones: American flag sort (each value
// is swapped straight into its digit's bucket, so no second buffer), small ranges by comparison. Hashes are
// uniform: two passes leave ranges of a few dozen values at a run's size.
void radix_sort(uint64_t* first, uint64_t* last, int shift);
// Sorts [first, last) into `out` (room for as many values), leaving [first, last) as it was: the first pass, on
// the top 8 bits, scatters the values to `out` with independent writes (in place, each swap waits for the load
// before it: that pass over a run's megabytes was the sort's slowest), then radix_sort orders each bucket.
void radix_sort_into(const uint64_t* first, const uint64_t* last, uint64_t* out);

}  // namespace cqlindex::indexer
