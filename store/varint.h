#pragma once
// LEB128 unsigned varints and big-endian fixed-width integers: the byte layouts every store key and value uses.
#include <cstdint>
#include <string>
#include <string_view>

namespace cqlindex::store {

// Writes `v` as an unsigned LEB128 varint at `p` (room for 10 bytes); returns the byte after it.
inline char* write_varint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

// Appends `v` as an unsigned LEB128 varint.
inline void put_varint(std::string& out, uint64_t v) {
  char bytes[10];
  out.append(bytes, write_varint(bytes, v));
}

// Reads a varint from the front of `in` and advances it; returns false on truncated or overlong input.
inline bool get_varint(std::string_view& in, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    uint8_t byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    v |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

// Writes `v` as 4 big-endian bytes at `p`; returns the byte after them.
inline char* write_be32(char* p, uint32_t v) {
  for (int i = 3; i >= 0; --i) *p++ = static_cast<char>(v >> (8 * i));
  return p;
}

// Appends `v` as 4 big-endian bytes (so that keys sort numerically).
inline void put_be32(std::string& out, uint32_t v) {
  char bytes[4];
  out.append(bytes, write_be32(bytes, v));
}

// Returns the big-endian uint32 in the first 4 bytes of `in` (which must hold at least 4 bytes).
inline uint32_t get_be32(std::string_view in) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

}  // namespace cqlindex::store
