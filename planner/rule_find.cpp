// Rule: `find F` and `find <-- F` (without `all` or a count range) hold only when F holds at some position of
// the searched game, so F's candidates bound them. With `all` or a range the count may be 0: all games.
#include "planner/planner.h"

namespace cqlindex::planner {

PlanNode plan_find(Planner& p, const cql::Node& node, const Frame& frame) {
  const cql::Node* body = node.child(cql::Role::Body);
  if (!body || node.kids.size() != 1 || node.has(cql::Option::All))
    return all_games(node, "find with 'all' or a count range may hold with no position found");
  PlanNode inner = p.plan(*body, frame);
  PlanNode out;
  out.filter = filter_text(node);
  out.rule = "find: its filter must hold at some position";
  out.games = inner.games;
  if (!out.games) out.fallback = "its filter cannot be bounded";
  out.kids.push_back(std::move(inner));
  return out;
}

}  // namespace cqlindex::planner
