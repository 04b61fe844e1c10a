#pragma once
// The similar family's layout. A canonical position key (indexer/canonical_key.h) is not stored itself: its
// 64-bit XXH3 hash is cut into a 16-bit bucket, the RocksDB key, and a 32-bit tag (the next 32 bits); a
// bucket's value lists (tag, games) for every position that falls in it, in increasing tag order:
//   entry := tag (4 bytes, big-endian) varint(v)
//            v even: one game, id v / 2 (90 % of positions occur in one game only);
//            v odd:  (v - 1) / 2 more bytes hold the games in PostingList's on-disk form.
// Why hashes: exact keys cost 18 bytes a position on disk here (about 10 under zstd -19 over sorted keys), so an
// index could not stay smaller than its PGN; a tag costs 4. A bucket and tag hit is a candidate, not an answer:
// every reader of this family either replays the candidate games and compares exact keys (similarposition) or
// needs only a superset of the games (the planner). Two different positions share bucket and tag with
// probability 2^-48, so on a 6.4-million-position repository a look-up meets a stranger about once in 40 million.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/posting_list.h"

namespace cqlindex::store {

// Where a position key is filed: its bucket (the RocksDB key) and its tag inside the bucket.
struct PositionHash {
  uint16_t bucket;
  uint32_t tag;
  friend bool operator==(const PositionHash&, const PositionHash&) = default;
};

// Returns the bucket and tag of the position key `key`.
PositionHash position_hash(std::string_view key);

// The 6-byte form (bucket, tag), big-endian, so that byte order is bucket-then-tag order; builds sort postings
// on it.
constexpr size_t kPositionHashBytes = 6;
void write_position_hash(PositionHash h, char (&out)[kPositionHashBytes]);
// Returns the hash that write_position_hash wrote to `bytes` (kPositionHashBytes long).
PositionHash read_position_hash(std::string_view bytes);

// Returns the RocksDB key of `bucket` (2 bytes, big-endian).
std::string bucket_key(uint16_t bucket);

// Builds one bucket value from entries given in increasing tag order.
class PositionBucketWriter {
 public:
  // Adds the entry of `tag` with the games `ids` (increasing, no duplicates, not empty).
  void add(uint32_t tag, const std::vector<uint32_t>& ids);
  // The same for games held in a posting list (not empty).
  void add(uint32_t tag, const PostingList& games);
  bool empty() const { return value_.empty(); }
  // Returns the value built so far and starts a new, empty one.
  std::string take();

 private:
  void add_single_or(uint32_t tag, uint64_t count, uint32_t first, const std::function<std::string()>& encoded);
  std::string value_;
};

// Calls `visit(tag, games)` for each entry of a bucket value in order; returns false (with `error`) when the
// bytes are not a bucket value (truncated, tags out of order, a bad posting list).
bool for_each_in_bucket(std::string_view value, const std::function<void(uint32_t tag, PostingList&& games)>& visit,
                        std::string* error);

// Returns the number of entries (distinct positions) of a bucket value, or nullopt (with `error`) when the
// bytes are not a bucket value; their games are not decoded.
std::optional<size_t> bucket_entry_count(std::string_view value, std::string* error);

// Returns the games filed under `tag` in a bucket value (empty when absent), or nullopt (with `error`) when the
// bytes are not a bucket value.
std::optional<PostingList> find_in_bucket(std::string_view value, uint32_t tag, std::string* error);

}  // namespace cqlindex::store
