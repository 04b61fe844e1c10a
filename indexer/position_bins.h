#pragma once
// A run's position postings (RunWriter::add_position's 8-byte integers) binned by their top byte as they come, in
// blocks of one pool: the run is then sorted a bin at a time (a few ten thousand values, in cache), where a first
// radix pass over the whole run swapped values across 16 MB of memory (half of the run's sort).
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "indexer/huge_page_allocator.h"

namespace cqlindex::indexer {

// Frees a pool that allocate_buffer(bytes) returned.
struct PoolRelease {
  size_t bytes = 0;
  void operator()(uint64_t* p) const { release_buffer(p, bytes); }
};

class PositionBins {
 public:
  // Makes room for `values` values at most (address space only until touched: huge_page_allocator.h).
  void reserve(size_t values);
  // Adds `v` to the bin of its top byte (room was reserved for it).
  void add(uint64_t v) {
    const size_t bin = v >> 56;
    if (heads_[bin] % kBlock == 0) start_block(bin);  // (the bin has no block yet, or its block is full)
    pool_[heads_[bin]++] = v;
    ++size_;
  }
  // Returns the number of values added since the last clear().
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Calls visit(first, last) for each bin that holds values, in the order of their top byte: the bin's values
  // gathered in one array, which visit may reorder. Stops (returning false) when visit returns false.
  template <class Visit>
  bool for_each_bin(Visit&& visit) {
    for (size_t bin = 0; bin < 256; ++bin) {
      if (blocks_[bin].empty()) continue;
      gathered_.clear();
      for (const uint32_t block : blocks_[bin]) {
        const uint64_t* first = pool_.get() + size_t{block} * kBlock;
        const bool last = block == blocks_[bin].back();
        gathered_.insert(gathered_.end(), first, last ? pool_.get() + heads_[bin] : first + kBlock);
      }
      if (!visit(gathered_.data(), gathered_.data() + gathered_.size())) return false;
    }
    return true;
  }
  // Forgets the values, keeping the pool; release() frees it too.
  void clear();
  void release();

 private:
  static constexpr size_t kBlock = 512;  // values: 4 KiB
  // Gives `bin` the pool's next free block.
  void start_block(size_t bin);
  std::unique_ptr<uint64_t[], PoolRelease> pool_;
  size_t blocks_in_pool_ = 0;
  size_t next_block_ = 0;
  size_t size_ = 0;
  std::array<size_t, 256> heads_{};  // by bin: where its next value goes in the pool (a block's end: none)
  std::array<std::vector<uint32_t>, 256> blocks_;  // by bin: its blocks, in order
  std::vector<uint64_t> gathered_;
};

}  // namespace cqlindex::indexer
