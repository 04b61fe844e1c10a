#pragma once
// What the index records of one game: its postings (one per family and key) and its GameRecord.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <roaring/roaring.hh>

#include "engine/pgn/game.h"
#include "indexer/bitmap_spill.h"
#include "indexer/posting_runs.h"
#include "store/distinct_sketch.h"
#include "store/game_record.h"
#include "store/keys/flag_key.h"

namespace cqlindex::indexer {

// The postings one build thread collects. Families with many keys per game (similar, material) go through
// sorted runs; the small ones (768 piece-square keys, a dozen flags) are kept as bitmaps in memory, spilled to
// disk every `spill_games` games (bitmap_spill.h) so that they never hold more than that many games.
struct WorkerPostings {
  WorkerPostings(RunWriter runs_, BitmapSpill spill_, uint32_t spill_games_)
      : runs(std::move(runs_)), piece_square(kPieceSquareLists), spill(std::move(spill_)), spill_games(spill_games_) {}
  static constexpr size_t kPieceSquareLists = 16 * 64;  // by Piece * 64 + Square

  RunWriter runs;
  std::vector<Roaring> piece_square;  // by Piece * 64 + Square
  std::array<Roaring, store::keys::kGameFlagCount> flags;
  store::DistinctSketch distinct;  // of the position hashes (sizes the similar family's buckets)
  BitmapSpill spill;               // the bitmaps' chunks spilled so far, lists in bitmap_lists() order
  uint32_t spill_games;
  uint32_t games_in_memory = 0;
  bool explore = false;            // file the explore family's postings (BuildOptions::explore)
  bool spill_ok = true;            // false once a spill failed (with spill_error)
  std::string spill_error;

  // Adds game `id` to piece-square list `list` (ids come increasing). Held in a batch of the list's and added
  // kBatch at a time (Roaring::addMany): one add a game walked the bitmap's containers each time, across 1,024
  // bitmaps, a twentieth of a build's CPU at a million games.
  void add_piece_square(size_t list, uint32_t id) {
    uint32_t* batch = pending_ids.data() + list * kBatch;
    batch[pending_count[list]++] = id;
    if (pending_count[list] == kBatch) add_pending(list);
  }
  // Returns the bitmaps in a fixed order: piece_square, then flags (the batches added first).
  std::vector<Roaring*> bitmap_lists();
  // Counts a game indexed; spills the bitmaps when they hold `spill_games` games.
  void game_done();

 private:
  static constexpr size_t kBatch = 64;
  std::vector<uint32_t> pending_ids = std::vector<uint32_t>(kPieceSquareLists * kBatch);
  std::vector<uint8_t> pending_count = std::vector<uint8_t>(kPieceSquareLists);  // ids held by list
  // Adds list `list`'s held ids to its bitmap.
  void add_pending(size_t list);
};

struct IndexedGame {
  store::GameRecord record;
  uint32_t positions = 0;  // mainline positions indexed (start included)
};

// Adds the postings of `game` (as game id `id`) to `out` and returns its record; `base_offset` is added to
// the game's byte offset (non-zero when indexing an appended tail of the PGN).
IndexedGame index_game(const pgn::Game& game, uint32_t id, uint64_t base_offset, WorkerPostings& out);

}  // namespace cqlindex::indexer
