#pragma once
// Key layouts of the families the planner reads (material, piecesq, flags). The planner builds look-up keys
// with these same functions, so the two sides cannot drift apart.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/chess/position.h"

namespace cqlindex::indexer {

// A position's material: counts of Q R B N P (white) then q r b n p (black); kings are always one each.
using Material = std::array<uint8_t, 10>;

// Returns the material of `pos`.
Material material_of(const chess::Position& pos);
// Returns the material family key: the ten counts as ten bytes, in the order of Material.
std::string material_key(const Material& m);
// Returns the material held by a key of the material family (the inverse of material_key).
Material material_from_key(std::string_view key);

// Returns the piecesq family key of `piece` on `square`: its FEN letter and the square's name ("Ra1", "pe5").
std::string piece_square_key(chess::Piece piece, chess::Square square);

// Per-game facts of the mainline, each a key of the flags family.
enum class GameFlag : uint8_t {
  Check,        // some position has the side to move in check
  Mate,         // some position is checkmate
  Stalemate,    // some position is stalemate
  PromoteQueen, PromoteRook, PromoteBishop, PromoteKnight,  // a move promotes to that piece
  CastleShort, CastleLong,  // a castling move (either colour)
  EnPassant,    // an en passant capture
  NullMove,     // a null move
  Count
};
constexpr size_t kGameFlagCount = static_cast<size_t>(GameFlag::Count);

// Returns the flags family key of `flag` ("check", "mate", "promote=Q", "castle=O-O", ...).
std::string_view game_flag_key(GameFlag flag);

}  // namespace cqlindex::indexer
