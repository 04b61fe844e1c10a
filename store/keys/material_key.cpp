// The material family's key layout.
#include "store/keys/material_key.h"

namespace cqlindex::store::keys {

Material material_of(const chess::Position& pos) {
  using namespace chess;
  Material m{};
  int i = 0;
  for (Color c : {WHITE, BLACK})
    for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT, PAWN}) m[i++] = static_cast<uint8_t>(popcount(pos.pieces(c, pt)));
  return m;
}

std::string material_key(const Material& m) { return std::string(m.begin(), m.end()); }

Material material_from_key(std::string_view key) {
  Material m{};
  for (size_t i = 0; i < m.size() && i < key.size(); ++i) m[i] = static_cast<uint8_t>(key[i]);
  return m;
}

}  // namespace cqlindex::store::keys
