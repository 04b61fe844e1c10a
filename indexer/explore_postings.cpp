// The explore family's postings of one game: its first plies' positions and the moves played from them.
#include "indexer/explore_postings.h"

#include <algorithm>

namespace cqlindex::indexer {

void ExplorePostings::add(const chess::Position& position, chess::Move next) {
  if (!wanted()) return;
  ++ply_;
  const uint64_t key = position.key();
  if (std::find(seen_, seen_ + filed_, key) != seen_ + filed_) return;  // counted at its first visit
  seen_[filed_++] = key;
  char bytes[store::keys::kExploreKeyBytes];
  runs_.add(store::Family::Explore, store::keys::explore_key(key, next, bytes), game_);
}

}  // namespace cqlindex::indexer
