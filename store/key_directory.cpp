// The packed key directory (key_directory.h): front-coded keys in chunks.
#include "store/key_directory.h"

#include <algorithm>

#include "store/varint.h"

namespace cqlindex::store {

namespace {

// Returns the length of the common prefix of `a` and `b`.
size_t shared_prefix(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> directory_chunks(const std::vector<std::string>& keys,
                                                                  uint64_t games, size_t chunk_bytes) {
  std::vector<std::pair<std::string, std::string>> chunks;
  size_t i = 0;
  while (i < keys.size()) {
    std::string body;
    size_t count = 0;
    std::string_view previous;
    // at least one key a chunk, however long
    for (; i < keys.size() && (count == 0 || body.size() + keys[i].size() <= chunk_bytes); ++i, ++count) {
      const size_t shared = count == 0 ? 0 : shared_prefix(previous, keys[i]);
      put_varint(body, shared);
      put_varint(body, keys[i].size() - shared);
      body.append(keys[i], shared, std::string::npos);
      previous = keys[i];
    }
    std::string value;
    put_varint(value, games);
    put_varint(value, count);
    value += body;
    chunks.emplace_back(keys[i - count], std::move(value));
  }
  return chunks;
}

bool read_directory_chunk(std::string_view value, uint64_t& games,
                          const std::function<bool(std::string_view key)>& visit) {
  uint64_t count = 0;
  if (!get_varint(value, games) || !get_varint(value, count)) return false;
  std::string key;
  for (uint64_t n = 0; n < count; ++n) {
    uint64_t shared = 0, rest = 0;
    if (!get_varint(value, shared) || !get_varint(value, rest)) return false;
    if (shared > key.size() || (n == 0 && shared != 0) || rest > value.size()) return false;
    const std::string_view tail = value.substr(0, rest);
    // Each key follows the one before: it extends it, or its first new byte is greater. Anything else is not a
    // directory this reader wrote, and is not to be trusted.
    if (n > 0) {
      const bool extends = shared == key.size() && !tail.empty();
      const bool greater = shared < key.size() && !tail.empty() &&
                           static_cast<unsigned char>(tail[0]) > static_cast<unsigned char>(key[shared]);
      if (!extends && !greater) return false;
    }
    key.resize(shared);
    key.append(tail);
    value.remove_prefix(rest);
    if (!visit(key)) return true;
  }
  return value.empty();
}

}  // namespace cqlindex::store
