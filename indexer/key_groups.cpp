// Postings grouped by key (key_groups.h).
#include "indexer/key_groups.h"

#include <algorithm>
#include <cstring>
#include <xxhash.h>

namespace cqlindex::indexer {

void KeyGroups::add(std::string_view key, uint32_t game) {
  const uint32_t g = group_of(key, XXH3_64bits(key.data(), key.size()));
  Group& group = groups_[g];
  if (group.count > 0 && game < group.last_game) group.ordered = false;
  group.last_game = game;
  ++group.count;
  postings_.push_back((uint64_t{g} << 32) | game);
}

uint32_t KeyGroups::group_of(std::string_view key, uint64_t hash) {
  if (2 * (groups_.size() + 1) > table_.size()) grow();
  const uint64_t tag = hash >> 32;
  const size_t mask = table_.size() - 1;
  for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const uint64_t entry = table_[slot];
    if (entry == 0) {
      groups_.push_back(Group{static_cast<uint32_t>(bytes_.size()), static_cast<uint32_t>(key.size()), 0, 0, true});
      bytes_.insert(bytes_.end(), key.begin(), key.end());
      table_[slot] = (tag << 32) | groups_.size();
      return static_cast<uint32_t>(groups_.size() - 1);
    }
    const auto g = static_cast<uint32_t>(entry) - 1;
    if (entry >> 32 == tag && key_of(groups_[g]) == key) return g;
  }
}

void KeyGroups::grow() {
  table_.assign(std::max<size_t>(1024, 2 * table_.size()), 0);
  const size_t mask = table_.size() - 1;
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    const std::string_view key = key_of(groups_[g]);
    const uint64_t hash = XXH3_64bits(key.data(), key.size());
    size_t slot = hash & mask;
    while (table_[slot] != 0) slot = (slot + 1) & mask;
    table_[slot] = ((hash >> 32) << 32) | (g + 1);
  }
}

void KeyGroups::count_out() {
  order_.resize(groups_.size());
  for (uint32_t g = 0; g < order_.size(); ++g) order_[g] = g;
  // (the family byte leads every key: byte order is family, then key, as the run files and the store want)
  std::sort(order_.begin(), order_.end(),
            [this](uint32_t a, uint32_t b) { return key_of(groups_[a]) < key_of(groups_[b]); });
  starts_.resize(groups_.size());
  uint32_t at = 0;
  for (uint32_t g : order_) {
    starts_[g] = at;
    at += groups_[g].count;
  }
  games_.resize(postings_.size());
  // Each group's games land in arrival order: a stable count, so increasing when they came increasing.
  std::vector<uint32_t> next(starts_);
  for (const uint64_t p : postings_) games_[next[p >> 32]++] = static_cast<uint32_t>(p);
}

void KeyGroups::clear() {
  bytes_.clear();
  groups_.clear();
  std::fill(table_.begin(), table_.end(), 0);
  postings_.clear();
}

void KeyGroups::release() {
  Buffer<char>().swap(bytes_);
  std::vector<Group>().swap(groups_);
  std::vector<uint64_t>().swap(table_);
  Buffer<uint64_t>().swap(postings_);
  std::vector<uint32_t>().swap(order_);
  std::vector<uint32_t>().swap(starts_);
  Buffer<uint32_t>().swap(games_);
}

}  // namespace cqlindex::indexer
