// Rule: string tests on tags (`player white "Carlsen"`, `"Open" in event`, `site == "London"`, `eco "B1"`):
// a substring (or equality, which implies it) test on a tag's value. The candidates are the games of every
// tags-family value that may contain the text under any reading (tag_values.h), plus the games where the tag
// is missing or too long to be kept whole.
#include "planner/planner.h"
#include "planner/tag_values.h"

namespace cqlindex::planner {

using cql::NodeKind;

namespace {

bool indexed_tag(std::string_view name) {
  for (std::string_view t : store::keys::kIndexedTags)
    if (t == name) return true;
  return false;
}

// The tags a string filter reads (empty: not a tag filter the planner knows).
std::vector<std::string> tags_read(const cql::Node& n, const Frame& frame) {
  switch (n.kind) {
    case NodeKind::Player: {
      std::string colour = n.text;
      if (frame.swap_colors && !colour.empty()) colour = colour == "white" ? "black" : "white";
      if (colour == "white") return {"White"};
      if (colour == "black") return {"Black"};
      return {"White", "Black"};
    }
    case NodeKind::TagBuiltin: case NodeKind::Tag:
      if (indexed_tag(n.text)) return {n.text};
      return {};
    default: return {};
  }
}

}  // namespace

PlanNode plan_tag_test(Planner& p, const cql::Node& node, const Frame& frame) {
  const cql::Node* literal = nullptr;
  const cql::Node* source = nullptr;
  if (node.kind == NodeKind::StringIn) {
    literal = node.child(cql::Role::Left);
    source = node.child(cql::Role::Right);
  } else if (node.kind == NodeKind::Relation && node.text == "==") {
    literal = node.child(cql::Role::Right);
    source = node.child(cql::Role::Left);
    if (literal && literal->kind != NodeKind::StringLiteral) std::swap(literal, source);
  }
  if (!literal || !source || literal->kind != NodeKind::StringLiteral)
    return all_games(node, "a string test the index cannot decide");
  const std::vector<std::string> tags = tags_read(*source, frame);
  if (tags.empty()) return all_games(node, "this string is not an indexed tag");
  const std::string& text = literal->text;
  if (text.find('\n') != std::string::npos) return all_games(node, "the text spans both player names");
  Roaring acc;
  for (const std::string& tag : tags) {
    auto games = p.union_where(store::Family::Tags, tag, [&](std::string_view key) {
      const auto parts = store::keys::read_tag_key(tag, key);
      if (!parts) return false;  // another tag whose name starts with this one ("WhiteElo")
      switch (parts->kind) {
        case store::keys::TagKeyKind::Whole: return may_contain(tag, parts->text, text);
        case store::keys::TagKeyKind::Truncated: case store::keys::TagKeyKind::Missing: return true;
        default: return false;  // the Result tag's termination marker
      }
    });
    if (!games) return bounded(node, "tag", "tags", std::nullopt);
    acc |= *games;
  }
  std::string rule = "tag:";
  for (const std::string& t : tags) rule += " " + t;
  rule += " contains \"" + text + "\"";
  return bounded(node, rule, "tags", std::move(acc));
}

}  // namespace cqlindex::planner
