#include "engine/chess/perft.h"

#include "engine/chess/movegen.h"

namespace cqlindex::chess {

uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList moves = legal_moves(pos);
  if (depth == 1) return uint64_t(moves.size);
  uint64_t nodes = 0;
  for (Move m : moves) nodes += perft(pos.after(m), depth - 1);
  return nodes;
}

}  // namespace cqlindex::chess
