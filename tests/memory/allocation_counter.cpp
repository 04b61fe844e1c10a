// The global operator new and delete of the memory tests' binary, counting live bytes (by malloc_usable_size,
// so that a delete without its size is counted right) and their peak. The counters are atomics: RocksDB and the
// build allocate on several threads.
#include "allocation_counter.h"

#include <atomic>
#include <algorithm>
#include <cstdlib>
#include <malloc.h>
#include <new>

namespace {

std::atomic<int64_t> live{0};
std::atomic<int64_t> peak{0};

void* counted_alloc(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (!p) return nullptr;
  const int64_t now = live.fetch_add(int64_t(malloc_usable_size(p)), std::memory_order_relaxed) +
                      int64_t(malloc_usable_size(p));
  for (int64_t seen = peak.load(std::memory_order_relaxed);
       now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed);) {
  }
  return p;
}

void counted_free(void* p) {
  if (!p) return;
  live.fetch_sub(int64_t(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

void* operator new(std::size_t size) {
  if (void* p = counted_alloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_alloc(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_alloc(size); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }

namespace memory_test {

uint64_t live_bytes() { return uint64_t(std::max<int64_t>(live.load(), 0)); }

AllocationCounter::AllocationCounter() : start_(live_bytes()) { peak.store(live.load()); }
AllocationCounter::~AllocationCounter() = default;

uint64_t AllocationCounter::peak_above_start() const {
  const int64_t top = peak.load();
  return top > int64_t(start_) ? uint64_t(top) - start_ : 0;
}

}  // namespace memory_test
