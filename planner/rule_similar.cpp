// Rule: `similarposition "F.pgn"` holds at a position similar to some mainline position of F's games, so the
// game must contain a position with one of their canonical keys (similar family). `notransform` only
// narrows (identical boards share a canonical key). Under an enclosing transform the current position is
// seen transformed, which the keys do not model: all games (the evaluator refuses it anyway, as CQL 6.2).
// The file's positions come from the run's submission database (read once, shared with the evaluator); an
// unreadable file is the evaluator's error, so: all games.
#include <set>

#include "store/keys/canonical_key.h"
#include "planner/planner.h"

namespace cqlindex::planner {

PlanNode plan_similar(Planner& p, const cql::Node& node, const Frame& frame) {
  if (frame.swap_colors || frame.mirror_ranks || frame.any_symmetry || frame.any_square)
    return all_games(node, "similarposition under a transform");
  std::string error;
  const cql::similar::SubmissionDb* db = p.submissions().load(node.text, node.has(cql::Option::NoTransform), &error);
  if (!db) return all_games(node, "cannot read the submissions file: " + error);
  std::set<std::string> keys;
  for (uint32_t id = 0; id < db->positions(); ++id) keys.insert(store::keys::canonical_key(db->board(id)));
  Roaring acc;
  for (const std::string& key : keys) {
    auto games = p.position_games(key);
    if (!games) return bounded(node, "similar positions", "similar", std::nullopt);
    acc |= *games;
  }
  return bounded(node, "similar positions (" + std::to_string(keys.size()) + " submitted positions)", "similar",
                 std::move(acc));
}

}  // namespace cqlindex::planner
