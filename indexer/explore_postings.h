#pragma once
// The explore family's postings of one game (store/keys/explore_key.h): for each mainline position of its first
// kExploreDepth plies, first visits only, the position's Zobrist key and the move played from it (none: the game
// ended there) -> the game. They go through the build's sorted runs like every posting family.
#include <cstdint>

#include "engine/chess/position.h"
#include "indexer/posting_runs.h"
#include "store/keys/explore_key.h"

namespace cqlindex::indexer {

class ExplorePostings {
 public:
  // `depth`: the plies filed (0 when the index has no explore family).
  ExplorePostings(uint32_t game, RunWriter& runs, uint32_t depth) : game_(game), runs_(runs), depth_(depth) {}

  // True while the game's next position is within the family's depth.
  bool wanted() const { return ply_ < depth_; }
  // Files the position after the game's next ply with the move played from it (Move::none(): the last).
  void add(const chess::Position& position, chess::Move next);

 private:
  uint32_t game_;
  RunWriter& runs_;
  uint32_t depth_;
  uint32_t ply_ = 0;
  uint64_t seen_[store::keys::kExploreDepth];  // the positions filed (a repetition is filed once)
  uint32_t filed_ = 0;
};

}  // namespace cqlindex::indexer
