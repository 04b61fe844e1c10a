#pragma once
// The piecesq family's key: a piece's FEN letter and a square's name ("Ra1", "pe5"), three bytes; its games
// are those in which that piece ever stood on that square (mainline).
#include <optional>
#include <string>
#include <string_view>

#include "engine/chess/types.h"

namespace cqlindex::store::keys {

// Returns the piecesq family key of `piece` on `square`: its FEN letter and the square's name ("Ra1", "pe5").
std::string piece_square_key(chess::Piece piece, chess::Square square);
// Returns the square of a piecesq family key; nullopt when `key` is not one.
std::optional<chess::Square> piece_square_key_square(std::string_view key);

}  // namespace cqlindex::store::keys
