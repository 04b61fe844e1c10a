// Rule: `elo [white|black] OP N` (N a number). The candidates of one side are the games whose Elo tag of
// that side reads as a number satisfying the comparison, plus every game where the rating may come from
// elsewhere (CQL 6.2 also reads WhiteRating/USCF/... tags and a " (2450)" after the name): the Elo tag
// missing, not a positive whole number (the evaluator reads none from "2700 ", and `!=` holds without one) or
// too long, or the name ending in ')'. `elo` without a colour is the larger of the two: whatever the
// comparison, one side satisfies it, so the union of both sides bounds it.
#include "engine/pgn/cql_tag_values.h"
#include "planner/planner.h"

namespace cqlindex::planner {

namespace {

bool compare(int64_t x, const std::string& op, int64_t v) {
  return (op == "==" && x == v) || (op == "!=" && x != v) || (op == "<" && x < v) || (op == "<=" && x <= v) ||
         (op == ">" && x > v) || (op == ">=" && x >= v);
}

std::optional<Roaring> side_candidates(Planner& p, const std::string& side, const std::string& op, int64_t value) {
  const std::string tag = side + "Elo";
  auto rated = p.union_where(store::Family::Tags, tag, [&](std::string_view key) {
    using store::keys::TagKeyKind;
    const auto parts = store::keys::read_tag_key(tag, key);
    if (!parts) return false;
    if (parts->kind == TagKeyKind::Missing || parts->kind == TagKeyKind::Truncated) return true;
    if (parts->kind != TagKeyKind::Whole) return false;
    // read as the evaluator reads it (the whole value a number: "2700 " has none); a side without a rating
    // (or 0) is kept whatever the comparison: the rating may come from elsewhere, and `!=` holds without one
    const std::optional<int64_t> elo = pgn::tag_integer(parts->text);
    if (!elo || *elo <= 0) return true;
    return compare(*elo, op, value);
  });
  auto named = p.union_where(store::Family::Tags, side, [&](std::string_view key) {
    const auto parts = store::keys::read_tag_key(side, key);
    return parts && (parts->kind == store::keys::TagKeyKind::Truncated ||
                     (parts->kind == store::keys::TagKeyKind::Whole && key.find(')') != std::string_view::npos));
  });
  if (!rated || !named) return std::nullopt;
  return *rated | *named;
}

}  // namespace

PlanNode plan_elo(Planner& p, const cql::Node& node, const Frame& frame) {
  const cql::Node* l = node.child(cql::Role::Left);
  const cql::Node* r = node.child(cql::Role::Right);
  if (!l || !r || l->kind != cql::NodeKind::Elo || r->kind != cql::NodeKind::Number)
    return all_games(node, "elo compared with a non-constant");
  std::string colour = l->text;
  if (frame.swap_colors && !colour.empty()) colour = colour == "white" ? "black" : "white";
  std::vector<std::string> sides;
  if (colour != "black") sides.push_back("White");
  if (colour != "white") sides.push_back("Black");
  Roaring acc;
  for (const std::string& side : sides) {
    auto games = side_candidates(p, side, node.text, r->a);
    if (!games) return bounded(node, "elo", "tags", std::nullopt);
    acc |= *games;
  }
  return bounded(node, "elo from the Elo tags (unrated games kept)", "tags", std::move(acc));
}

}  // namespace cqlindex::planner
