// The piecesq family's key layout.
#include "store/keys/piece_square_key.h"

namespace cqlindex::store::keys {

std::string piece_square_key(chess::Piece piece, chess::Square square) {
  return {chess::piece_char(piece), static_cast<char>('a' + chess::file_of(square)),
          static_cast<char>('1' + chess::rank_of(square))};
}

std::optional<chess::Square> piece_square_key_square(std::string_view key) {
  if (key.size() != 3 || key[1] < 'a' || key[1] > 'h' || key[2] < '1' || key[2] > '8') return std::nullopt;
  return chess::make_square(chess::File(key[1] - 'a'), chess::Rank(key[2] - '1'));
}

}  // namespace cqlindex::store::keys
