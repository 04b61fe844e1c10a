#pragma once
// The tags family's keys, packed (the tagkeys family): a tag test (`player "Kasparov"`) reads the names of its
// tag from a few large values and reads the posting lists of the names it keeps, where a scan of the tags
// family paid RocksDB's step from key to key (about 0.2 µs, 14 ms for the 64,000 White and Black names of the
// train file) for names it then dropped.
//
// Layout: the keys in key order, cut into chunks of about kDirectoryChunkBytes. A chunk's RocksDB key is its first
// key; its value is varint games (the game count of the index the chunk was written for: a chunk of another
// count is not used, so an index changed without its directory falls back to the scan), varint count, then each
// key front-coded: varint bytes shared with the key before (0 for the first), varint length of the rest, the rest.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cqlindex::store {

// The raw bytes a chunk holds at most (one RocksDB block, before compression, is 32 KiB: see index_store.cpp).
constexpr size_t kDirectoryChunkBytes = 16 * 1024;

// Returns the directory of `keys` (strictly increasing) as (chunk key, chunk value) rows in key order, each
// chunk marked as written for an index of `games` games.
std::vector<std::pair<std::string, std::string>> directory_chunks(const std::vector<std::string>& keys,
                                                                  uint64_t games,
                                                                  size_t chunk_bytes = kDirectoryChunkBytes);

// Calls visit(key) for each key of the chunk `value` in order, until it returns false. Returns false when the
// value is malformed or its keys are not increasing; `games` gets the game count it was written for.
bool read_directory_chunk(std::string_view value, uint64_t& games,
                          const std::function<bool(std::string_view key)>& visit);

}  // namespace cqlindex::store
