// The keys of one family held in memory (family_keys.h): one buffer of the keys in key order and their ends.
#include "store/family_keys.h"

#include <algorithm>

#include "store/index_store.h"

namespace cqlindex::store {

std::optional<FamilyKeys> FamilyKeys::read(const IndexStore& index, Family family, std::string* error) {
  FamilyKeys keys;
  keys.family_ = family;
  const auto add = [&](std::string_view key) {
    keys.bytes_.append(key);
    keys.ends_.push_back(keys.bytes_.size());
  };
  // The tags family's keys come packed from its directory when the index has one for its games, else streamed.
  const auto packed = family == Family::Tags ? index.tag_keys("", add, error) : IndexStore::DirectoryRead::Absent;
  if (packed == IndexStore::DirectoryRead::Failed) return std::nullopt;
  if (packed == IndexStore::DirectoryRead::Absent) {
    keys.bytes_.clear();
    keys.ends_.clear();
    const bool ok = index.for_each_read_once(family, "", [&](std::string_view key, std::string_view) {
      add(key);
      return true;
    }, error);
    if (!ok) return std::nullopt;
  }
  keys.bytes_.shrink_to_fit();
  keys.ends_.shrink_to_fit();
  return keys;
}

std::string_view FamilyKeys::key(size_t i) const {
  const uint64_t begin = i == 0 ? 0 : ends_[i - 1];
  return std::string_view(bytes_).substr(begin, ends_[i] - begin);
}

std::pair<size_t, size_t> FamilyKeys::range(std::string_view prefix) const {
  // RocksDB's key order is bytewise, as std::string_view compares (char_traits<char> compares as unsigned char)
  size_t lo = 0, hi = size();
  while (lo < hi) {  // the first key not below `prefix`
    const size_t mid = lo + (hi - lo) / 2;
    if (key(mid) < prefix) lo = mid + 1;
    else hi = mid;
  }
  const size_t first = lo;
  hi = size();
  while (lo < hi) {  // the first key past those that start with `prefix` (they follow `first` together)
    const size_t mid = lo + (hi - lo) / 2;
    if (key(mid).starts_with(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return {first, lo};
}

}  // namespace cqlindex::store
