// Rule: `result 1-0` (filter or header) holds only in games whose Result tag reads as that result or whose
// termination marker is it (CQL 6.2 prefers the marker, a reader may prefer the tag: both are kept).
// flipcolor swaps 1-0 and 0-1.
#include "planner/planner.h"
#include "planner/tag_values.h"

namespace cqlindex::planner {

PlanNode plan_result(Planner& p, const cql::Node& node, const Frame& frame) {
  std::string wanted = node.text;
  if (frame.swap_colors) wanted = wanted == "1-0" ? "0-1" : wanted == "0-1" ? "1-0" : wanted;
  auto games = p.union_where(store::Family::Tags, "Result", [&](std::string_view key) {
    const auto parts = store::keys::read_tag_key("Result", key);
    if (!parts) return false;
    const std::string_view value = parts->text;
    switch (parts->kind) {
      case store::keys::TagKeyKind::Whole: return result_of_tag(value) == wanted || value == wanted;
      case store::keys::TagKeyKind::Marker: return value == wanted;
      case store::keys::TagKeyKind::Truncated: return true;
      default: return false;
    }
  });
  return bounded(node, "result " + wanted + " (Result tag or termination marker)", "tags", std::move(games));
}

}  // namespace cqlindex::planner
