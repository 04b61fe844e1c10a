// Rule: position predicates the build records per game. `check`, `mate` (and pure/model/ideal mates, which
// are mates) and `stalemate` (and its pure/model/ideal forms) hold at some mainline position only in games
// with that flag (flags family).
#include "planner/planner.h"

#include <string_view>

namespace cqlindex::planner {

PlanNode plan_position_flag(Planner& p, const cql::Node& node, const Frame&) {
  using store::keys::GameFlag;
  const std::string_view name = node.text;
  std::optional<GameFlag> flag;
  if (name == "check") flag = GameFlag::Check;
  else if (name == "mate" || name == "puremate" || name == "modelmate" || name == "idealmate") flag = GameFlag::Mate;
  else if (name == "stalemate" || name == "purestalemate" || name == "modelstalemate" || name == "idealstalemate")
    flag = GameFlag::Stalemate;
  if (!flag) return all_games(node, "'" + node.text + "' is not recorded per game");
  return bounded(node, "game flag " + std::string(store::keys::game_flag_key(*flag)), "flags",
                 p.postings(store::Family::Flags, store::keys::game_flag_key(*flag)));
}

}  // namespace cqlindex::planner
