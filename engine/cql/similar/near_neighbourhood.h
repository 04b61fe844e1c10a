// The distance-1 neighbourhood of a submission position, as boards to look up in the index by their canonical
// similarity keys (store/keys/canonical_key.h): every board within distance 1 of an image of the position (under
// the transforms similarposition tries for it, near_distance.h) is similar to one of the boards given, so the
// union of their keys' games holds every game reaching such a board. About 600 boards for a position with
// pawns (a few hundred more when it sits away from the a- or h-file), about 1,300 without.
//
// Only boards a game can reach are given: no king is added, removed or replaced (a game's positions hold one
// king of each colour) and no pawn is put on the first or last rank. Boards similar to each other are given once
// where that is cheap to see:
//   - a pawnless position: its own neighbours, and for the 7 other symmetries only the neighbours that gain a
//     pawn (a pawnless board's key is the same under every symmetry, a board with pawns' only under mirroring);
//   - a position with pawns: its own neighbours, plus the pieces added on the files a shift brings in from
//     beyond the a- and h-file (a key with pawns is the same under shifts and mirroring), plus, when it has one
//     pawn, the boards without it under every shift (a pawnless key is not the same under shifts).
#pragma once

#include <functional>

#include "engine/chess/position.h"
#include "engine/cql/similar/board_transform.h"

namespace cqlindex::cql::similar {

// A board of the neighbourhood, with its occupied squares and pawns (what keying it needs first).
struct Neighbour {
  const Board& board;
  chess::Bitboard occupied, pawns;
};

// Calls visit(neighbour) for each board of the distance-1 neighbourhood of `pos` (the side to move is `pos`'s),
// `pos`'s own board included; a board may come more than once.
void for_each_neighbour(const chess::Position& pos, bool notransform,
                        const std::function<void(const Neighbour&)>& visit);

}  // namespace cqlindex::cql::similar
