#pragma once
// Canonical keys of positions under CQL's similarposition transforms (spec/cql-similarposition.txt):
// two positions are similar iff their canonical keys are equal.
//   - same side to move; castling and en passant ignored;
//   - pawnless boards: the least encoding over the 8 symmetries of the square;
//   - boards with pawns: the least over {identity, left-right reflection}, each shifted so that its
//     leftmost occupied file is the a-file.
// A key is an exact encoding, never a hash: 1 byte side to move, 8 bytes occupancy (big-endian, a1 = lowest
// bit), then one 4-bit piece code per occupied square in square order (a1, b1, ..., h8), high nibble first.
// "Least" is byte order, which is the order of (occupancy, piece codes).
#include <array>
#include <string>

#include "engine/chess/position.h"

namespace cqlindex::store::keys {

// The longest key: side to move, occupancy, 32 piece nibbles.
constexpr size_t kMaxKeyBytes = 1 + 8 + 16;

// Writes the canonical similarity key of `pos` to `out`; returns its length.
size_t canonical_key(const chess::Position& pos, char (&out)[kMaxKeyBytes]);

// The same for a board given as 64 squares (a1 = 0, chess::NO_PIECE where empty) and a side to move: what
// the near-anticipation search (exec/near_search.h) keys the boards around a submission position by.
size_t canonical_key(const std::array<chess::Piece, 64>& board, chess::Color side, char (&out)[kMaxKeyBytes]);
// The same when the board's occupied squares and pawns are known.
size_t canonical_key(const std::array<chess::Piece, 64>& board, chess::Bitboard occupied, chess::Bitboard pawns,
                     chess::Color side, char (&out)[kMaxKeyBytes]);

// Returns the canonical similarity key of `pos`.
std::string canonical_key(const chess::Position& pos);

// Returns the key of `pos`'s exact board and side to move (no transform; same layout).
std::string board_key(const chess::Position& pos);

}  // namespace cqlindex::store::keys
