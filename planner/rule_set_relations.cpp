// Rule: set filters whose value can be non-empty only when each of their set arguments is non-empty at the
// same position: `A attacks B`, `A attackedby B`, `A -> B -> C`, `ray (A B C)`, `pin from A through B to
// C`, `light S` / `dark S`, and square/piece loops without `all` (non-empty only if the domain is and the
// body holds for some member: body parts that do not depend on the loop variable must hold). The candidates
// are the intersection of the arguments' candidates. `if A then B else C` holds only where A and B hold or
// C holds.
#include "planner/planner.h"

namespace cqlindex::planner {

using cql::NodeKind;

namespace {

PlanNode intersect_kids(Planner& p, const cql::Node& node, const Frame& frame, std::string rule) {
  PlanNode out;
  out.filter = filter_text(node);
  out.rule = std::move(rule);
  std::optional<Roaring> acc;
  for (const cql::Child& c : node.kids) {
    if (c.node->type != cql::ValueType::Set && c.role != cql::Role::Body) continue;
    out.kids.push_back(p.plan(*c.node, frame));
    if (out.kids.back().games) acc = acc ? (*acc & *out.kids.back().games) : *out.kids.back().games;
  }
  if (acc) out.games = std::move(acc);
  else out.fallback = "no argument could be bounded";
  return out;
}

PlanNode plan_if(Planner& p, const cql::Node& node, const Frame& frame) {
  const cql::Node* test = node.child(cql::Role::If);
  const cql::Node* then = node.child(cql::Role::Then);
  const cql::Node* otherwise = node.child(cql::Role::Else);
  if (!test || !then || !otherwise) return all_games(node, "'if' without 'else' may hold when its test fails");
  PlanNode out;
  out.filter = filter_text(node);
  out.rule = "if: (test and then) or else";
  out.kids.push_back(p.plan(*test, frame));
  out.kids.push_back(p.plan(*then, frame));
  out.kids.push_back(p.plan(*otherwise, frame));
  std::optional<Roaring> both;
  for (int i = 0; i < 2; ++i)
    if (out.kids[i].games) both = both ? (*both & *out.kids[i].games) : *out.kids[i].games;
  if (!both || !out.kids[2].games) {
    out.fallback = "a branch cannot be bounded";
    return out;
  }
  out.games = *both | *out.kids[2].games;
  return out;
}

}  // namespace

PlanNode plan_set_relation(Planner& p, const cql::Node& node, const Frame& frame) {
  switch (node.kind) {
    case NodeKind::Attacks: case NodeKind::AttackedBy: case NodeKind::AttackRay:
      return intersect_kids(p, node, frame, "attack: every side must be present");
    case NodeKind::Ray: return intersect_kids(p, node, frame, "ray: every argument must be present");
    case NodeKind::Pin: return intersect_kids(p, node, frame, "pin: every named set must be present");
    case NodeKind::LightDark: return intersect_kids(p, node, frame, node.text + ": a subset of its argument");
    case NodeKind::SquareLoop: case NodeKind::PieceLoop:
      if (node.has(cql::Option::All)) return all_games(node, "'all' loops hold on an empty domain");
      return intersect_kids(p, node, frame, "loop: its domain and its body at one position");
    case NodeKind::If: return plan_if(p, node, frame);
    default: return all_games(node, "not a set relation");
  }
}

}  // namespace cqlindex::planner
