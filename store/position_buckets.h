#pragma once
// The similar family's layout. A canonical position key (store/keys/canonical_key.h) is not stored itself: its
// 64-bit XXH3 hash h files it. The RocksDB key is a bucket: h's top 32 bits with all but the first `bucket_bits`
// cleared (4 bytes, big-endian, so that key order is hash order). `bucket_bits` (16 to 32) is chosen at build from
// the estimated size of the family so that a bucket holds about 1 KiB whatever the size of the repository
// (similar_bucket_bits), and is kept in the meta family. A bucket's value lists (tag, games) for every position
// that falls in it, in increasing tag order, the tag being h's bits 16 to 47 (from the top):
//   entry := tag (4 bytes, big-endian) varint(v)
//            v even: one game, id v / 2 (90 % of positions occur in one game only);
//            v odd:  (v - 1) / 2 more bytes hold the games in PostingList's on-disk form.
// Bucket and tag together keep h's top 48 bits whatever `bucket_bits` is (the tag repeats the bucket's bits past
// the 16th), so two positions share bucket and tag with probability 2^-48 at every bucket count, and a bucket of
// b bits splits into buckets of more bits without the position keys: the tags hold the bits.
// Why hashes: exact keys cost 18 bytes a position on disk here (about 10 under zstd -19 over sorted keys), so an
// index could not stay smaller than its PGN; a tag costs 4. A bucket and tag hit is a candidate, not an answer:
// every reader of this family either replays the candidate games and compares exact keys (similarposition) or
// needs only a superset of the games (the planner). On a 6.4-million-position repository a look-up meets a
// stranger about once in 40 million.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/posting_list.h"

namespace cqlindex::store {

// Returns the XXH3-64 of the position key `key`.
uint64_t position_hash(std::string_view key);

// Returns the tag of hash `h` inside its bucket: its bits 16 to 47 from the top.
constexpr uint32_t position_tag(uint64_t h) { return static_cast<uint32_t>(h >> 16); }

// The fewest and most bucket bits an index may use (65,536 buckets to 2^32).
constexpr unsigned kMinBucketBits = 16;
constexpr unsigned kMaxBucketBits = 32;

// The average bucket value the bucket count aims at: a look-up reads one 4 KiB block either way.
constexpr uint64_t kBucketBytes = 1024;

// Returns the bucket bits for a family of about `distinct_positions` positions filed `postings` times (a position
// in several games is filed once per game): the fewest (at least kMinBucketBits) that keep the estimated bucket
// value (5 bytes a position, 2 a posting) at or below `bucket_bytes` on average (tests aim lower, so that a
// small repository gets, and outgrows, as many buckets as a large one).
unsigned similar_bucket_bits(uint64_t distinct_positions, uint64_t postings, uint64_t bucket_bytes = kBucketBytes);

// Returns the bucket of hash `h` when the family has `bucket_bits` bits: h's top 32 bits, the ones past the
// first `bucket_bits` cleared.
constexpr uint32_t position_bucket(uint64_t h, unsigned bucket_bits) {
  return static_cast<uint32_t>(h >> 32) & ~(bucket_bits >= 32 ? 0u : 0xFFFFFFFFu >> bucket_bits);
}

// Returns the RocksDB key of `bucket` (4 bytes, big-endian).
std::string bucket_key(uint32_t bucket);

// The 6-byte form of a hash: its top 48 bits, big-endian, so that byte order is hash order (bucket-then-tag
// order at every bucket count); builds sort postings on it.
constexpr size_t kPositionHashBytes = 6;
void write_position_hash(uint64_t h, char (&out)[kPositionHashBytes]);
// Returns the hash whose top 48 bits write_position_hash wrote to `bytes` (kPositionHashBytes long); its low 16
// bits are 0.
uint64_t read_position_hash(std::string_view bytes);

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
  // Appends an entry's tag and varint (see above).
  void put_head(uint32_t tag, uint64_t v);
  // Appends the entry of `tag` whose encoded games are in games_.
  void put_games(uint32_t tag);
  std::string value_;
  std::string games_;  // an entry's encoded games, before they are appended (its memory reused)
};

// Calls `visit(tag, games)` for each entry of a bucket value in order; returns false (with `error`) when the
// bytes are not a bucket value (truncated, tags out of order, a bad posting list).
bool for_each_in_bucket(std::string_view value, const std::function<void(uint32_t tag, PostingList&& games)>& visit,
                        std::string* error);

// Returns the number of entries (distinct positions) of a bucket value, or nullopt (with `error`) when the
// bytes are not a bucket value; their games are not decoded.
std::optional<size_t> bucket_entry_count(std::string_view value, std::string* error);

// Calls `visit(i, games)` for each tag wanted[i] (non-decreasing) that the bucket value holds, decoding only those
// entries (the near-anticipation search asks a bucket for many tags at once); false (with `error`) when the bytes
// are not a bucket value.
bool find_tags_in_bucket(std::string_view value, const std::vector<uint32_t>& wanted,
                         const std::function<void(size_t, PostingList&&)>& visit, std::string* error);

// Returns the games filed under `tag` in a bucket value (empty when absent), or nullopt (with `error`) when the
// bytes are not a bucket value.
std::optional<PostingList> find_in_bucket(std::string_view value, uint32_t tag, std::string* error);

}  // namespace cqlindex::store
