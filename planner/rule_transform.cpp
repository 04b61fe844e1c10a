// Rule: transforms. A transformed filter matches when some member of its orbit matches, so its candidates are
// the union over the members. flipcolor/reversecolor are planned member by member (identity and the colour
// swap); the board symmetries (flip, rotate90, ...) close every square set under the 8 symmetries, and the
// shifts let a square set stand for any square: both give supersets of the orbit, which is sound.
#include "planner/planner.h"

#include <string_view>

#include "engine/chess/symmetry.h"

namespace cqlindex::planner {

namespace {

// Returns `b` united with its images under the 8 symmetries of the board.
uint64_t symmetry_closure(uint64_t b) {
  uint64_t out = 0;
  for (int t = 0; t < chess::SYMMETRY_NB; ++t) out |= chess::symmetric(chess::Symmetry(t), b);
  return out;
}

bool is_one_of(std::string_view name, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (n == name) return true;
  return false;
}

}  // namespace

uint64_t seen_squares(uint64_t squares, const Frame& frame) {
  if (frame.any_square) return ~uint64_t{0};
  if (frame.mirror_ranks) squares = chess::flip_rank(squares);
  if (frame.any_symmetry) squares = symmetry_closure(squares);
  return squares;
}

uint16_t seen_pieces(uint16_t pieces, const Frame& frame) {
  if (!frame.swap_colors) return pieces;
  uint16_t white = pieces & 0x3f, black = (pieces >> 6) & 0x3f;
  return static_cast<uint16_t>((pieces & ~0xfffu) | (white << 6) | black);
}

PlanNode plan_transform(Planner& p, const cql::Node& node, const Frame& frame) {
  const cql::Node* body = node.child(cql::Role::Body);
  if (!body || node.kids.size() != 1 || !node.options.empty())
    return all_games(node, "a counted or ranged transform (its orbit count may be 0)");
  // As a filter, a transformed filter (logical, set or numeric) matches when some member matches.
  std::vector<Frame> members;
  const std::string& name = node.text;
  if (name == "flipcolor" || name == "reversecolor") {
    Frame swapped = frame;
    swapped.swap_colors = !frame.swap_colors;
    if (name == "flipcolor") swapped.mirror_ranks = !frame.mirror_ranks;
    else swapped.any_symmetry = true;  // reversecolor's board image: a superset by the symmetry closure
    members = {frame, swapped};
  } else if (is_one_of(name, {"flip", "flipvertical", "fliphorizontal", "rotate90"})) {
    Frame f = frame;
    f.any_symmetry = true;
    members = {f};
  } else if (is_one_of(name, {"shift", "shifthorizontal", "shiftvertical"})) {
    Frame f = frame;
    f.any_square = true;
    members = {f};
  } else {
    return all_games(node, "transform '" + name + "' is not planned");
  }
  PlanNode out;
  out.filter = filter_text(node);
  out.rule = members.size() > 1 ? "transform " + name + ": union of its members" : "transform " + name + ": squares widened";
  Roaring acc;
  bool all = false;
  for (const Frame& f : members) {
    out.kids.push_back(p.plan(*body, f));
    if (f.swap_colors != frame.swap_colors) out.kids.back().filter.insert(0, "(colours swapped) ");
    if (out.kids.back().games) acc |= *out.kids.back().games;
    else all = true;
  }
  if (all) out.fallback = "a member cannot be bounded";
  else out.games = std::move(acc);
  return out;
}

}  // namespace cqlindex::planner
