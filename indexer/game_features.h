#pragma once
// What the index records of one game: its postings (one per family and key) and its GameRecord.
#include <cstdint>

#include "engine/pgn/game.h"
#include "indexer/posting_runs.h"
#include "store/game_record.h"

namespace cqlindex::indexer {

struct IndexedGame {
  store::GameRecord record;
  uint32_t positions = 0;  // mainline positions indexed (start included)
};

// Adds the postings of `game` (as game id `id`) to `runs` and returns its record; `base_offset` is added to
// the game's byte offset (non-zero when indexing an appended tail of the PGN).
IndexedGame index_game(const pgn::Game& game, uint32_t id, uint64_t base_offset, RunWriter& runs);

}  // namespace cqlindex::indexer
