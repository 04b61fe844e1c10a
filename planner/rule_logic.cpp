// Rule: conjunctions ({...}, and, set intersection) intersect their parts' candidates; disjunctions (or, set
// union) unite them. The material comparisons of one conjunction hold at the same position, so they are
// combined into one material condition before the index is read.
#include "planner/planner.h"

namespace cqlindex::planner {

using cql::NodeKind;

namespace {

bool is_conjunction(const cql::Node& n) { return n.kind == NodeKind::Compound || n.kind == NodeKind::And; }

// The conjuncts of `node`, nested {...} and `and` flattened (they all hold at the same position).
void conjuncts(const cql::Node& node, std::vector<const cql::Node*>& out) {
  for (const cql::Child& c : node.kids) {
    if (is_conjunction(*c.node)) conjuncts(*c.node, out);
    else out.push_back(c.node.get());
  }
}

PlanNode plan_conjunction(Planner& p, const cql::Node& node, const Frame& frame) {
  PlanNode out;
  out.filter = filter_text(node);
  out.rule = "and";
  MaterialCondition material;
  std::string material_text;
  std::vector<const cql::Node*> parts;
  if (is_conjunction(node)) conjuncts(node, parts);
  else
    for (const cql::Child& c : node.kids) parts.push_back(c.node.get());
  for (const cql::Node* c : parts) {
    if (frame.positions_indexed) {
      if (auto term = material_term(*c, frame)) {
        material.push_back(*term);
        material_text += (material_text.empty() ? "" : " and ") + filter_text(*c);
        continue;
      }
    }
    out.kids.push_back(p.plan(*c, frame));
  }
  if (!material.empty()) out.kids.push_back(plan_material(p, node, material, material_text));
  std::optional<Roaring> acc;
  for (const PlanNode& k : out.kids)
    if (k.games) acc = acc ? (*acc & *k.games) : *k.games;
  if (acc) out.games = std::move(acc);
  else out.fallback = "no part could be bounded";
  return out;
}

PlanNode plan_disjunction(Planner& p, const cql::Node& node, const Frame& frame) {
  PlanNode out;
  out.filter = filter_text(node);
  out.rule = "or";
  Roaring acc;
  bool all = false;
  for (const cql::Child& c : node.kids) {
    out.kids.push_back(p.plan(*c.node, frame));
    if (out.kids.back().games) acc |= *out.kids.back().games;
    else all = true;
  }
  if (all) out.fallback = "a branch cannot be bounded";
  else out.games = std::move(acc);
  return out;
}

}  // namespace

PlanNode plan_logic(Planner& p, const cql::Node& node, const Frame& frame) {
  switch (node.kind) {
    case NodeKind::Compound: case NodeKind::And: case NodeKind::Intersect:
      return plan_conjunction(p, node, frame);
    case NodeKind::Or: case NodeKind::Union:
      return plan_disjunction(p, node, frame);
    default: return all_games(node, "not a logical connective");
  }
}

}  // namespace cqlindex::planner
