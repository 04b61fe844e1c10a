// Rule: `year OP N` (N a number) holds only in games whose Date tag gives a year satisfying it (every reading:
// tag_values.h), or, for `!=`, in games where `year` has no value: no Date tag, or a Date without a year
// ("????.??.??", ""): a comparison with a side that has no value fails, except `!=` (holds_without_value).
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
  const bool without_year = holds_without_value(node.text);
  auto games = p.union_where(store::Family::Tags, "Date", [&](std::string_view key) {
    using store::keys::TagKeyKind;
    const auto parts = store::keys::read_tag_key("Date", key);
    if (!parts) return false;
    switch (parts->kind) {
      case TagKeyKind::Truncated: return true;
      case TagKeyKind::Missing: return without_year;
      case TagKeyKind::Whole: {
        const PossibleYears years = possible_years(parts->text);
        if (years.maybe_none && without_year) return true;
        for (int64_t y : years.years)
          if (compare(y, node.text, r->a)) return true;
        return false;
      }
      default: return false;
    }
  });
  return bounded(node, without_year ? "year from the Date tag (games without a year kept)" : "year from the Date tag",
                 "tags", std::move(games));
}

}  // namespace cqlindex::planner
