#pragma once
// The meta family: what ties an index to its PGN and how it was built.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace cqlindex::store {

// Bumped whenever a key or value layout changes; an index of another version is refused.
constexpr uint32_t kSchemaVersion = 7;  // 2: the tags family is filled (the planner trusts it); 3: game positions;
                                      // 4: the similar family holds position buckets (store/position_buckets.h);
                                      // 5: the PGN's identity and sample hash (constant-time freshness), and
                                      // RocksDB file checksums (`cqlindex verify`); 6: as many buckets as the
                                      // repository needs (4-byte bucket keys, similar_bucket_bits, the sketch);
                                      // 7: the explore family (keys/explore_key.h)

struct IndexMeta {
  uint32_t schema_version = kSchemaVersion;
  std::string pgn_path;       // absolute path of the PGN when it was indexed
  uint64_t pgn_size = 0;      // bytes indexed
  int64_t pgn_mtime_ns = 0;   // modification time then
  uint64_t pgn_device = 0;    // st_dev and st_ino then: a file replaced (or copied, moved) is re-checked in full
  uint64_t pgn_inode = 0;
  uint64_t pgn_fingerprint = 0;  // XXH3-64 of the first pgn_size bytes (`verify`, `build --append`)
  uint64_t pgn_sample_hash = 0;  // XXH3-64 of the sampled blocks of those bytes (every open; content_fingerprint.h)
  uint32_t game_count = 0;
  uint64_t position_count = 0;   // mainline positions indexed
  std::string build_options;     // free text, e.g. "threads=2"
  uint32_t similar_bucket_bits = 16;  // the similar family's bucket bits (store/position_buckets.h)
  std::string distinct_sketch;   // DistinctSketch::to_text() of the positions indexed ("" when none)

  friend bool operator==(const IndexMeta&, const IndexMeta&) = default;
};

// Returns the meta as key -> value rows of the meta family (one row per field, readable keys).
std::map<std::string, std::string> encode_index_meta(const IndexMeta& meta);

// Returns the meta held by `rows`, or nullopt (with `error`) when a field is missing or malformed.
std::optional<IndexMeta> decode_index_meta(const std::map<std::string, std::string>& rows, std::string* error);

}  // namespace cqlindex::store
