#pragma once
// The keys of one family of an open index, read once and then held in memory: a server (`cqlindex serve`) keeps
// the tags family's keys, so that a tag test (`player "Barden"`) filters the names in memory and reads only the
// posting lists of those it keeps, instead of reading the whole family at every query. Reading them is work in
// the size of the family, so only a process that keeps an index open for many queries does it; a command-line
// query's open stays constant-time.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/family.h"

namespace cqlindex::store {

class IndexStore;

class FamilyKeys {
 public:
  // Returns every key of `family` in `index`, in key order (the tags family's from its key directory when the
  // index has one, else blocks read once, not kept in the block cache); nullopt (with `error`) when reading fails.
  static std::optional<FamilyKeys> read(const IndexStore& index, Family family, std::string* error);

  // Returns the family the keys are of.
  Family family() const { return family_; }
  // Returns the number of keys.
  size_t size() const { return ends_.size(); }
  // Returns key `i` (0-based, in key order).
  std::string_view key(size_t i) const;
  // Returns the positions [first, last) of the keys that start with `prefix` (an empty range when none does).
  std::pair<size_t, size_t> range(std::string_view prefix) const;
  // Returns the bytes the keys take in memory.
  size_t bytes() const { return bytes_.capacity() + ends_.capacity() * sizeof(uint64_t); }

 private:
  Family family_ = Family::Tags;
  std::string bytes_;          // the keys one after the other
  std::vector<uint64_t> ends_;  // where each key ends in bytes_
};

}  // namespace cqlindex::store
