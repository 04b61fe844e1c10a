// Rule: counts and power of piece designators compared with a number (`#N >= 2`, `Q == 0`, `power a < 10`)
// are linear conditions on a position's material. The conditions of one conjunction must hold together at
// some position, so the candidates are the union of the material signatures (material family) that satisfy
// all of them. A designator restricted to some squares only gives a lower bound on the whole board's count.
#include "planner/planner.h"

namespace cqlindex::planner {

using cql::NodeKind;

namespace {

constexpr uint16_t kEmptyBit = 0x1000;
// Material index (Q R B N P q r b n p) of each piece_bits kind (K Q R B N P k q r b n p); -1 for kings.
constexpr int kMaterialIndex[12] = {-1, 0, 1, 2, 3, 4, -1, 5, 6, 7, 8, 9};
constexpr int kPower[12] = {0, 9, 5, 3, 3, 1, 0, 9, 5, 3, 3, 1};

std::string mirrored(const std::string& op) {
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  return op;
}

// The weights of `#set` or `power set` over the whole board, the kings it counts (a position has one of each
// colour: a start position without both kings is refused by the reader) and whether the set covers the
// whole board.
struct Counted {
  std::array<int, 10> weight{};
  int kings = 0;
  bool whole_board = true;
};

std::optional<Counted> counted(const cql::Node& n, const Frame& frame) {
  if (n.kind != NodeKind::CountSquares && n.kind != NodeKind::Power) return std::nullopt;
  const cql::Node* set = n.child(cql::Role::Arg);
  if (!set || set->kind != NodeKind::PieceSet || set->pieces == 0 || (set->pieces & kEmptyBit)) return std::nullopt;
  const bool power = n.kind == NodeKind::Power;
  Counted c;
  const uint16_t pieces = seen_pieces(set->pieces, frame);
  if (!power) c.kings = (pieces & 0x1 ? 1 : 0) + (pieces & 0x40 ? 1 : 0);
  for (int kind = 0; kind < 12; ++kind)
    if (pieces >> kind & 1 && kMaterialIndex[kind] >= 0) c.weight[kMaterialIndex[kind]] = power ? kPower[kind] : 1;
  c.whole_board = set->squares == ~uint64_t{0} && !frame.any_square;
  return c;
}

}  // namespace

bool MaterialTerm::holds(const store::keys::Material& m) const {
  int64_t sum = 0;
  for (size_t i = 0; i < m.size(); ++i) sum += int64_t(weight[i]) * m[i];
  if (op == "==") return sum == value;
  if (op == "!=") return sum != value;
  if (op == "<") return sum < value;
  if (op == "<=") return sum <= value;
  if (op == ">") return sum > value;
  if (op == ">=") return sum >= value;
  return true;
}

std::optional<MaterialTerm> material_term(const cql::Node& node, const Frame& frame) {
  if (node.kind != NodeKind::Relation) return std::nullopt;
  const cql::Node* l = node.child(cql::Role::Left);
  const cql::Node* r = node.child(cql::Role::Right);
  if (!l || !r) return std::nullopt;
  std::string op = node.text;
  if (l->kind == NodeKind::Number) {
    std::swap(l, r);
    op = mirrored(op);
  }
  if (r->kind != NodeKind::Number) return std::nullopt;
  auto c = counted(*l, frame);
  if (!c) return std::nullopt;
  MaterialTerm t;
  t.weight = c->weight;
  t.op = op;
  t.value = r->a - c->kings;
  if (c->whole_board) return t;
  // Only part of the board: its count is at most the whole board's, so only a lower bound carries over.
  // A bound of one is better left to the piece-square rule ("some P on the 7th rank" beats "some P").
  int64_t needed = 0;
  if (op == ">=" || op == "==") needed = r->a;
  else if (op == ">") needed = r->a + 1;
  if (needed <= 1) return std::nullopt;  // "<", "<=", "!=" on part of the board say nothing about the whole
  t.op = ">=";
  t.value = needed - c->kings;
  return t;
}

PlanNode plan_material(Planner& p, const cql::Node& node, const MaterialCondition& condition, std::string text) {
  // Each look-up reads the whole material family: a condition seen again (under a board transform, whose
  // members all count the same material) is read once.
  std::string id = "material";
  for (const MaterialTerm& t : condition) {
    for (int w : t.weight) id += " " + std::to_string(w);
    id += " " + t.op + " " + std::to_string(t.value) + ";";
  }
  auto games = p.memoised(id, [&] {
    return p.material_where([&](const store::keys::Material& m) {
      for (const MaterialTerm& t : condition)
        if (!t.holds(m)) return false;
      return true;
    });
  });
  PlanNode out = bounded(node, "material at one position", "material", std::move(games));
  out.filter = std::move(text);
  return out;
}

}  // namespace cqlindex::planner
