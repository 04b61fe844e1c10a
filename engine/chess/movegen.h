// Strictly legal move generation.
#pragma once

#include "engine/chess/position.h"

namespace cqlindex::chess {

struct MoveList {
  // 512 > the most moves any position with at most 16 pieces per side can have (from_fen enforces that).
  static constexpr int kCapacity = 512;
  Move moves[kCapacity];
  int size = 0;

  void push(Move m) { moves[size++] = m; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
  Move* begin() { return moves; }
  Move* end() { return moves + size; }
  bool empty() const { return size == 0; }
  bool contains(Move m) const;
};

// Every legal move of the side to move.
MoveList legal_moves(const Position& pos);
// Moves that follow the pieces' rules but may leave the mover's king attacked (CQL's "pseudolegal"):
// king steps onto attacked squares, pinned pieces off their line, moves that ignore a check, e.p.
// exposing the king. Castling is included when the right is held and the squares between king, rook and
// their destinations are empty, even if the king is in or passes through check. The enemy king is never
// captured.
MoveList pseudo_legal_moves(const Position& pos);
// True if the side to move has at least one legal move (stops at the first one).
bool has_legal_move(const Position& pos);
// Side to move is in check and has no legal move.
bool is_checkmate(const Position& pos);
// Side to move is not in check and has no legal move.
bool is_stalemate(const Position& pos);

}  // namespace cqlindex::chess
