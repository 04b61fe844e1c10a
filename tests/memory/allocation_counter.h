#pragma once
// Bytes allocated through operator new in this test binary (allocation_counter.cpp replaces the global
// operator new and delete): what is live, and the peak since a counter started. Counts what C++ code allocates
// (RocksDB's blocks and iterators, strings, vectors); memory from malloc itself (CRoaring's containers) is not
// counted.
#include <cstdint>

namespace memory_test {

// Returns the bytes allocated through operator new and not yet freed.
uint64_t live_bytes();

// While one lives, the peak of live_bytes() is recorded.
class AllocationCounter {
 public:
  AllocationCounter();
  ~AllocationCounter();
  AllocationCounter(const AllocationCounter&) = delete;
  AllocationCounter& operator=(const AllocationCounter&) = delete;
  // Returns the highest live_bytes() since the counter started, less live_bytes() when it started (0 if lower).
  uint64_t peak_above_start() const;

 private:
  uint64_t start_;
};

}  // namespace memory_test
