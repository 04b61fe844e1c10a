// Rule: `line --> A --> B* --> C{2,3}` (or `<--`) matches only when every constituent that must match at
// least once (a plain filter, a `+` or `{n,m}` repetition with n >= 1, a parenthesised chain of such) holds at
// some position of the game, so the candidates are the intersection of theirs. Each constituent is planned
// on its own: they hold at different positions. A line with a count range may hold with no match: all games.
#include "planner/planner.h"

namespace cqlindex::planner {

using cql::NodeKind;

namespace {

// Collects the filters of `con` that must hold at some position when the line matches.
void required_filters(const cql::Node& con, std::vector<const cql::Node*>& out) {
  switch (con.kind) {
    case NodeKind::SeqFilter:
      if (const cql::Node* f = con.child(cql::Role::Arg)) out.push_back(f);
      return;
    case NodeKind::SeqChain:
      for (const cql::Child& c : con.kids) required_filters(*c.node, out);
      return;
    case NodeKind::SeqRepeat:
      if (con.a >= 1)
        if (const cql::Node* arg = con.child(cql::Role::Arg)) required_filters(*arg, out);
      return;
    default: return;  // unknown constituent: no requirement (sound)
  }
}

}  // namespace

PlanNode plan_line(Planner& p, const cql::Node& node, const Frame& frame) {
  for (const cql::Child& c : node.kids)
    if (c.role != cql::Role::Arg) return all_games(node, "a line with a count range may hold with no match");
  std::vector<const cql::Node*> filters;
  for (const cql::Child& c : node.kids) required_filters(*c.node, filters);
  PlanNode out;
  out.filter = filter_text(node);
  out.rule = "line: each required constituent holds at some position";
  std::optional<Roaring> acc;
  for (const cql::Node* f : filters) {
    out.kids.push_back(p.plan(*f, frame));
    if (out.kids.back().games) acc = acc ? (*acc & *out.kids.back().games) : *out.kids.back().games;
  }
  if (acc) out.games = std::move(acc);
  else out.fallback = "no constituent could be bounded";
  return out;
}

}  // namespace cqlindex::planner
