#pragma once
// A run's postings of the families keyed by bytes (material, tags, explore, ...), grouped by key as they come:
// a hash table finds a key's group in one probe, and the postings are put in key order by counting, not by
// comparing. A run holds a few ten thousand distinct keys for a million postings (the same material signatures
// and tag values again and again), so sorting the keys and counting the postings out costs a fraction of
// comparison-sorting the postings (which was a tenth of a build's CPU at a million games).
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "indexer/huge_page_allocator.h"

namespace cqlindex::indexer {

class KeyGroups {
 public:
  // Buffers the posting `key` -> `game`; `key` is the family byte and the key (at most 256 bytes).
  void add(std::string_view key, uint32_t game);
  // Returns the number of postings buffered.
  size_t size() const { return postings_.size(); }
  bool empty() const { return postings_.empty(); }
  // Makes room for `postings` postings at once (address space only until touched: huge_page_allocator.h).
  void reserve(size_t postings) { postings_.reserve(postings); }

  // Calls visit(key, games, count) for each key in byte order, its games increasing and without duplicates;
  // stops (returning false) when visit returns false.
  template <class Visit>
  bool for_each_in_order(Visit&& visit);
  // Forgets the postings, keeping the buffers; release() frees them too.
  void clear();
  void release();

 private:
  // A key's bytes in bytes_.
  struct KeyRef {
    uint32_t offset;
    uint32_t length;
  };
  // A slot of the open-addressed table: the key's hash's top 32 bits, its group + 1 (0: empty) and where its
  // bytes are, so that a look-up reads the slot and the key's bytes and nothing else (one group's facts in a
  // third place cost a third cache miss a posting).
  struct Slot {
    uint32_t tag;
    uint32_t group_plus_one;
    KeyRef key;
  };
  // Returns the key `ref` names.
  std::string_view key_of(KeyRef ref) const { return std::string_view(bytes_.data() + ref.offset, ref.length); }
  // Returns the group of `key` (created when new), found from its hash `hash`.
  uint32_t group_of(std::string_view key, uint64_t hash);
  // Doubles the table and puts every group back.
  void grow();
  // Fills order_ (groups by key), starts_ and counts_ (by group), and games_ (each group's games, grouped in
  // that order, as they came).
  void count_out();

  template <class T>
  using Buffer = std::vector<T, HugePageAllocator<T>>;
  Buffer<char> bytes_;
  std::vector<KeyRef> keys_;  // by group
  std::vector<Slot> table_;
  Buffer<uint64_t> postings_;  // (group << 32) | game, as they came
  std::vector<uint32_t> order_;
  std::vector<uint32_t> starts_;  // by group: where its games begin in games_
  std::vector<uint32_t> counts_;  // by group: its postings
  Buffer<uint32_t> games_;
};

template <class Visit>
bool KeyGroups::for_each_in_order(Visit&& visit) {
  count_out();
  for (uint32_t g : order_) {
    uint32_t* games = games_.data() + starts_[g];
    const uint32_t count = counts_[g];
    if (!std::is_sorted(games, games + count)) std::sort(games, games + count);  // (a build's come sorted)
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; ++i)
      if (kept == 0 || games[kept - 1] != games[i]) games[kept++] = games[i];
    if (!visit(key_of(keys_[g]), static_cast<const uint32_t*>(games), kept)) return false;
  }
  return true;
}

}  // namespace cqlindex::indexer
