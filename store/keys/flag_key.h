#pragma once
// The flags family's keys: one name per per-game fact of the mainline ("check", "mate", "promote=Q", ...).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cqlindex::store::keys {

// Per-game facts of the mainline, each a key of the flags family.
enum class GameFlag : uint8_t {
  Check,        // some position has the side to move in check
  Mate,         // some position is checkmate
  Stalemate,    // some position is stalemate
  PromoteQueen, PromoteRook, PromoteBishop, PromoteKnight,  // a move promotes to that piece
  CastleShort, CastleLong,  // a castling move (either colour)
  EnPassant,    // an en passant capture
  NullMove,     // a null move
  PgnProblem,   // the PGN text of the game has errors or warnings (variations included): a query reads the
                // game to report them even when the index rules it out, as a scan would
  Count
};
constexpr size_t kGameFlagCount = static_cast<size_t>(GameFlag::Count);

// Returns the flags family key of `flag` ("check", "mate", "promote=Q", "castle=O-O", ...).
std::string_view game_flag_key(GameFlag flag);

}  // namespace cqlindex::store::keys
