// Rule: `year OP N` (N a number) holds only in games whose Date tag has a year satisfying it; `year` fails
// when the date has no year, so games without one are out.
#include "planner/planner.h"
#include "planner/tag_values.h"

namespace cqlindex::planner {

namespace {

bool compare(int64_t x, const std::string& op, int64_t v) {
  return (op == "==" && x == v) || (op == "!=" && x != v) || (op == "<" && x < v) || (op == "<=" && x <= v) ||
         (op == ">" && x > v) || (op == ">=" && x >= v);
}

}  // namespace

PlanNode plan_year(Planner& p, const cql::Node& node, const Frame&) {
  const cql::Node* r = node.child(cql::Role::Right);
  if (!r || r->kind != cql::NodeKind::Number) return all_games(node, "year compared with a non-constant");
  auto games = p.union_where(store::Family::Tags, "Date", [&](std::string_view key) {
    const auto parts = store::keys::read_tag_key("Date", key);
    if (!parts) return false;
    if (parts->kind == store::keys::TagKeyKind::Truncated) return true;
    if (parts->kind != store::keys::TagKeyKind::Whole) return false;
    for (int64_t y : possible_years(parts->text))
      if (compare(y, node.text, r->a)) return true;
    return false;
  });
  return bounded(node, "year from the Date tag", "tags", std::move(games));
}

}  // namespace cqlindex::planner
