// The board transforms of CQL 6.2's similarposition, in the order CQL tries them and with the names its
// comments give them (see submission_db.h for how the order shows in the output).
//
//   pawnless boards: the 8 symmetries of the square, as (reflect files, reflect ranks, swap file and rank)
//     counted up from (no, no, no): "", reflect_a1h8, reflect_h, counterclockwise90, reflect_v, clockwise90,
//     rotate180, reflect_a8h1;
//   boards with pawns: "", the 14 horizontal shifts left^7 ... left^1, right^1 ... right^7, reflect_v, then
//     reflect_v after each shift ("reflect_v left^7" ... "reflect_v right^7");
//   notransform: "" only.
// A transform that would move a piece off the board does not apply to that board.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "engine/chess/types.h"

namespace cqlindex::cql::similar {

// A board as 64 squares (a1 = 0), chess::NO_PIECE where empty.
using Board = std::array<chess::Piece, 64>;

struct BoardTransform {
  std::string name;               // as CQL writes it; empty for the identity
  std::array<uint8_t, 64> to{};   // image of each square, 64 when it leaves the board
  bool identity() const { return name.empty(); }
};

// Returns the transforms CQL tries for a submission board, in CQL's order.
std::span<const BoardTransform* const> transforms_for(bool pawnless, bool notransform);

// Writes t applied to `from` into `to`; returns false (leaving `to` unspecified) when a piece leaves the board.
bool apply_transform(const BoardTransform& t, const Board& from, Board& to);

}  // namespace cqlindex::cql::similar
