// The explore family's key: a position's Zobrist key, then a move.
#include "store/keys/explore_key.h"

namespace cqlindex::store::keys {
namespace {

// Writes `v` as `bytes` big-endian bytes at `out`.
void put_be(char* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<char>((v >> (8 * (bytes - 1 - i))) & 0xFF);
}

}  // namespace

std::string explore_position_prefix(uint64_t position_key) {
  char out[kExplorePositionBytes];
  put_be(out, position_key, kExplorePositionBytes);
  return std::string(out, kExplorePositionBytes);
}

std::string_view explore_key(uint64_t position_key, chess::Move move, char (&out)[kExploreKeyBytes]) {
  put_be(out, position_key, kExplorePositionBytes);
  put_be(out + kExplorePositionBytes, move.raw(), 2);
  return std::string_view(out, kExploreKeyBytes);
}

std::string explore_key(uint64_t position_key, chess::Move move) {
  char out[kExploreKeyBytes];
  return std::string(explore_key(position_key, move, out));
}

std::optional<chess::Move> explore_key_move(std::string_view key) {
  if (key.size() != kExploreKeyBytes) return std::nullopt;
  return chess::Move(uint16_t(uint8_t(key[8]) << 8 | uint8_t(key[9])));
}

}  // namespace cqlindex::store::keys
