// Postings grouped by key (key_groups.h).
#include "indexer/key_groups.h"

#include <algorithm>
#include <cstring>
#include <xxhash.h>

namespace cqlindex::indexer {

void KeyGroups::add(std::string_view key, uint32_t game) {
  const uint32_t g = group_of(key, XXH3_64bits(key.data(), key.size()));
  postings_.push_back((uint64_t{g} << 32) | game);
}

uint32_t KeyGroups::group_of(std::string_view key, uint64_t hash) {
  if (2 * (keys_.size() + 1) > table_.size()) grow();
  const auto tag = static_cast<uint32_t>(hash >> 32);
  const size_t mask = table_.size() - 1;
  for (size_t at = hash & mask;; at = (at + 1) & mask) {
    Slot& slot = table_[at];
    if (slot.group_plus_one == 0) {
      const KeyRef ref{static_cast<uint32_t>(bytes_.size()), static_cast<uint32_t>(key.size())};
      bytes_.insert(bytes_.end(), key.begin(), key.end());
      keys_.push_back(ref);
      slot = Slot{tag, static_cast<uint32_t>(keys_.size()), ref};
      return static_cast<uint32_t>(keys_.size() - 1);
    }
    if (slot.tag == tag && slot.key.length == key.size() &&
        std::memcmp(bytes_.data() + slot.key.offset, key.data(), key.size()) == 0)
      return slot.group_plus_one - 1;
  }
}

void KeyGroups::grow() {
  table_.assign(std::max<size_t>(1024, 2 * table_.size()), Slot{});
  const size_t mask = table_.size() - 1;
  for (uint32_t g = 0; g < keys_.size(); ++g) {
    const std::string_view key = key_of(keys_[g]);
    const uint64_t hash = XXH3_64bits(key.data(), key.size());
    size_t at = hash & mask;
    while (table_[at].group_plus_one != 0) at = (at + 1) & mask;
    table_[at] = Slot{static_cast<uint32_t>(hash >> 32), g + 1, keys_[g]};
  }
}

void KeyGroups::count_out() {
  const size_t groups = keys_.size();
  order_.resize(groups);
  for (uint32_t g = 0; g < groups; ++g) order_[g] = g;
  // (the family byte leads every key: byte order is family, then key, as the run files and the store want)
  std::sort(order_.begin(), order_.end(), [this](uint32_t a, uint32_t b) { return key_of(keys_[a]) < key_of(keys_[b]); });
  counts_.assign(groups, 0);
  for (const uint64_t p : postings_) ++counts_[p >> 32];
  starts_.resize(groups);
  uint32_t at = 0;
  for (uint32_t g : order_) {
    starts_[g] = at;
    at += counts_[g];
  }
  games_.resize(postings_.size());
  // Each group's games land in arrival order: a stable count, so increasing when they came increasing.
  std::vector<uint32_t> next(starts_);
  for (const uint64_t p : postings_) games_[next[p >> 32]++] = static_cast<uint32_t>(p);
}

void KeyGroups::clear() {
  bytes_.clear();
  keys_.clear();
  std::fill(table_.begin(), table_.end(), Slot{});
  postings_.clear();
}

void KeyGroups::release() {
  Buffer<char>().swap(bytes_);
  std::vector<KeyRef>().swap(keys_);
  std::vector<Slot>().swap(table_);
  Buffer<uint64_t>().swap(postings_);
  std::vector<uint32_t>().swap(order_);
  std::vector<uint32_t>().swap(starts_);
  std::vector<uint32_t>().swap(counts_);
  Buffer<uint32_t>().swap(games_);
}

}  // namespace cqlindex::indexer
