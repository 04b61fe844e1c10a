#pragma once
// What the index records of one game: its postings (one per family and key) and its GameRecord.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <roaring/roaring.hh>

#include "engine/pgn/game.h"
#include "indexer/planner_keys.h"
#include "indexer/posting_runs.h"
#include "store/game_record.h"

namespace cqlindex::indexer {

// The postings one build thread collects. Families with many keys per game (similar, material) go through
// sorted runs; the small ones (768 piece-square keys, a dozen flags) are kept as bitmaps in memory.
struct WorkerPostings {
  explicit WorkerPostings(RunWriter runs_) : runs(std::move(runs_)), piece_square(16 * 64) {}
  RunWriter runs;
  std::vector<Roaring> piece_square;  // by Piece * 64 + Square
  std::array<Roaring, kGameFlagCount> flags;
};

struct IndexedGame {
  store::GameRecord record;
  uint32_t positions = 0;  // mainline positions indexed (start included)
};

// Adds the postings of `game` (as game id `id`) to `out` and returns its record; `base_offset` is added to
// the game's byte offset (non-zero when indexing an appended tail of the PGN).
IndexedGame index_game(const pgn::Game& game, uint32_t id, uint64_t base_offset, WorkerPostings& out);

}  // namespace cqlindex::indexer
