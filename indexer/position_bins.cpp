// A run's position postings binned by their top byte (position_bins.h).
#include "indexer/position_bins.h"

#include <algorithm>
#include <cstring>

namespace cqlindex::indexer {

void PositionBins::reserve(size_t values) {
  // Each bin's last block may be part-full: 256 blocks more than the values fill.
  const size_t blocks = values / kBlock + 257;
  if (blocks <= blocks_in_pool_) return;
  const size_t bytes = blocks * kBlock * sizeof(uint64_t);
  std::unique_ptr<uint64_t[], PoolRelease> pool(static_cast<uint64_t*>(allocate_buffer(bytes)), PoolRelease{bytes});
  if (next_block_ > 0) std::memcpy(pool.get(), pool_.get(), next_block_ * kBlock * sizeof(uint64_t));
  pool_ = std::move(pool);
  blocks_in_pool_ = blocks;
}

void PositionBins::start_block(size_t bin) {
  if (next_block_ == blocks_in_pool_) reserve(2 * blocks_in_pool_ * kBlock);  // (more than reserved: grown)
  blocks_[bin].push_back(static_cast<uint32_t>(next_block_));
  heads_[bin] = next_block_++ * kBlock;
}

void PositionBins::clear() {
  for (auto& blocks : blocks_) blocks.clear();
  heads_.fill(0);
  next_block_ = 0;
  size_ = 0;
}

void PositionBins::release() {
  clear();
  pool_.reset();
  blocks_in_pool_ = 0;
  std::vector<uint64_t>().swap(gathered_);
  for (auto& blocks : blocks_) std::vector<uint32_t>().swap(blocks);
}

}  // namespace cqlindex::indexer
