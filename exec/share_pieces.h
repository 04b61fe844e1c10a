#pragma once
// The pieces of a distributed run's shares (docs/distributed.md, "How the repository is shared"): a rank's share
// is a list of pieces in game order, each some games of one file with the number of the file's first game. Rank
// 0's share is cut into small pieces, which it scans from the front while the ranks done with their own shares
// take pieces from the back (distributed_steal.h): rank 0 also merges, and the ranks' speeds differ. No MPI here.
#include <cstdint>
#include <vector>

#include "exec/repository_part.h"

namespace cqlindex::exec {

// A piece of a rank's share: games `part` of file `file`, whose first game follows `offset` games; or, when
// `follows`, a whole file numbered on from the piece before it (its games were not counted: see share_repository).
struct SharePiece {
  size_t file = 0;
  FilePart part;
  uint64_t offset = 0;
  bool follows = false;
};

// Returns where the share of rank `rank` (of `size`) starts among `total` games or bytes: with `rank0_larger`
// rank 0's share is 5/4 of an even one and the others share the rest evenly (they take pieces from the back of
// rank 0's share when they are done with their own, so the ranks end together even when rank 0 is the fastest;
// its share is counted, which the last rank's is not: distributed_share.h); else even shares.
uint64_t share_start(uint64_t total, int rank, int size, bool rank0_larger = true);

// A game of a file found by the game count: its index (0-based) and where it starts. The count notes one such
// place every 1/(kCheckpoints + 1) of the file's bytes, where a piece may end.
struct Checkpoint {
  static constexpr unsigned kCheckpoints = 63;
  uint64_t game = 0;
  GameStart start;
};

// Returns the checkpoint a game count notes at mark `mark` (0-based, < kCheckpoints) of a file of `bytes`: the
// byte from which the first game starting there (or later) is the checkpoint's game.
uint64_t checkpoint_byte(uint64_t bytes, unsigned mark);

// Returns `pieces` (in game order) cut at the checkpoints of their files into pieces of at least `target` games
// (the last of a piece at least half of it; `games`: each file's count; `checkpoints`: each file's, by byte,
// empty where a file has none). A piece numbered on (`follows`) or of a file without checkpoints stays whole. The pieces cover the same games, once
// each, in the same order, each knowing where its games start and end where a checkpoint says so.
std::vector<SharePiece> cut_pieces(const std::vector<SharePiece>& pieces, const std::vector<uint64_t>& games,
                                   const std::vector<std::vector<Checkpoint>>& checkpoints, uint64_t target);

// Returns how many of the `left` pieces rank 0 has not begun go now to a rank that asks for more. Their balanced
// split gives it the back half, the odd one included, and more by rank 0's merge still to do after its scan
// (`merge_pieces`: its expected seconds over a piece's), so that both end together; it gets half of that now (at
// least one piece) and asks again when done, when the split is made anew from the rates then.
size_t pieces_to_give(size_t left, double merge_pieces = 0);

}  // namespace cqlindex::exec
