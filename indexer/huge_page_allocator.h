#pragma once
// The allocator of a build's large sort buffers (RunWriter's postings and their key bytes): a
// buffer of 2 MiB or more is mapped on its own, aligned to 2 MiB and marked for transparent huge pages
// (madvise(MADV_HUGEPAGE): the kernel here gives them only where asked). A build touched about 540 MB of fresh
// 4 KiB pages on the 116,573-game train file, a page fault each (135,000 faults, a fifth of its CPU time in the
// kernel on this virtual machine), and its radix pass scatters into 256 groups across 32 MB, a TLB miss a
// write; one fault and one TLB entry per 2 MiB spare both. Smaller buffers come from operator new.
#include <cstddef>
#include <cstdint>
#include <new>
#include <sys/mman.h>

namespace cqlindex::indexer {

// Returns memory for `bytes` bytes, huge-page backed when large (deallocate with release_buffer and the same size).
inline void* allocate_buffer(size_t bytes) {
  constexpr size_t kHuge = size_t{2} << 20;
  if (bytes < kHuge) return ::operator new(bytes);
  const size_t size = (bytes + kHuge - 1) & ~(kHuge - 1);
  // Mapped one huge page larger, then trimmed to a 2 MiB-aligned start: a huge page needs an aligned range.
  void* raw = ::mmap(nullptr, size + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHuge - 1) & ~uintptr_t(kHuge - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  if (const uintptr_t end = start + size + kHuge; end > aligned + size)
    ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);  // (a hint: without it, 4 KiB pages)
  return reinterpret_cast<void*>(aligned);
}

// Frees what allocate_buffer(bytes) returned.
inline void release_buffer(void* p, size_t bytes) {
  constexpr size_t kHuge = size_t{2} << 20;
  if (bytes < kHuge) {
    ::operator delete(p);
    return;
  }
  ::munmap(p, (bytes + kHuge - 1) & ~(kHuge - 1));
}

// A std::allocator for vectors of trivially copyable records that use allocate_buffer.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(allocate_buffer(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { release_buffer(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
};

}  // namespace cqlindex::indexer
