// Rule: `similarposition "F.pgn"` holds at a position similar to some mainline position of F's games, so the
// game must contain a position with one of their canonical keys (similar family). `notransform` only
// narrows (identical boards share a canonical key). Under an enclosing transform the current position is
// seen transformed, which the keys do not model: all games. The file is read as the evaluator reads it
// (relative to the working directory); an unreadable file is the evaluator's error, so: all games.
#include <set>

#include "engine/pgn/reader.h"
#include "indexer/canonical_key.h"
#include "planner/planner.h"

namespace cqlindex::planner {

PlanNode plan_similar(Planner& p, const cql::Node& node, const Frame& frame) {
  if (frame.swap_colors || frame.mirror_ranks || frame.any_symmetry || frame.any_square)
    return all_games(node, "similarposition under a transform");
  std::string error;
  auto file = pgn::PgnFile::open(node.text, &error);
  if (!file) return all_games(node, "cannot read the submissions file: " + error);
  std::set<std::string> keys;
  pgn::GameReader reader(file->text());
  pgn::Game game;
  while (reader.next(game)) {
    if (!game.start_known) continue;
    chess::Position pos = game.start;
    keys.insert(indexer::canonical_key(pos));
    for (pgn::NodeIndex n = game.root().first_child; n != pgn::kNoNode; n = game.nodes[n].first_child) {
      pos.do_move(game.nodes[n].move);
      keys.insert(indexer::canonical_key(pos));
    }
  }
  Roaring acc;
  for (const std::string& key : keys) {
    auto games = p.position_games(key);
    if (!games) return bounded(node, "similar positions", "similar", std::nullopt);
    acc |= *games;
  }
  PlanNode out = bounded(node, "similar positions (" + std::to_string(keys.size()) + " submitted positions)",
                         "similar", std::move(acc));
  return out;
}

}  // namespace cqlindex::planner
