#pragma once
// A posting list: the set of game ids (0-based, file order) that have some property, e.g. a canonical
// position. In memory a CRoaring bitmap; on disk the smaller of two encodings (see encode()).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <roaring/roaring.hh>

namespace cqlindex::store {

class PostingList {
 public:
  PostingList() = default;
  explicit PostingList(Roaring bits) : bits_(std::move(bits)) {}

  void add(uint32_t game) { bits_.add(game); }
  bool contains(uint32_t game) const { return bits_.contains(game); }
  uint64_t size() const { return bits_.cardinality(); }
  bool empty() const { return bits_.isEmpty(); }
  const Roaring& bits() const { return bits_; }
  Roaring& bits() { return bits_; }

  // Returns the on-disk form: a format byte, then the one id of a one-game list ('S': 90 % of position keys),
  // or the ids as varint deltas ('D': count, then gaps; for few games CRoaring's portable format costs 18+
  // bytes), or CRoaring's portable serialisation ('R'), whichever of the last two is smaller. Equal sets
  // always encode equally.
  std::string encode() const;

  // Returns encode() of the list of `ids` (increasing, no duplicates) without building a bitmap when the
  // varint form is certainly the smaller one (a build encodes millions of short lists).
  static std::string encode_sorted(const std::vector<uint32_t>& ids);
  // Writes encode_sorted(ids) to `out`, replacing what it held (its memory is reused: a build encodes a list
  // per key).
  static void encode_sorted_to(const std::vector<uint32_t>& ids, std::string& out);

  // Returns the list an encode() produced, or nullopt (with `error`) when the bytes are not one.
  static std::optional<PostingList> decode(std::string_view bytes, std::string* error = nullptr);

  friend bool operator==(const PostingList& a, const PostingList& b) { return a.bits_ == b.bits_; }

 private:
  Roaring bits_;
};

}  // namespace cqlindex::store
