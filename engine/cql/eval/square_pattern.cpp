// Screening an orbit's images by their one-square piece designators (square_pattern.h).
#include "engine/cql/eval/square_pattern.h"

#include <algorithm>
#include <bit>

#include "engine/cql/eval/context.h"
#include "engine/cql/eval/op.h"

namespace cqlindex::cql::eval {
namespace {

// True for a piece designator of at most one square: decided by one bit test (no square: never holds).
bool one_square_designator(const Op* o) { return o && o->code == OpCode::PieceSet && std::popcount(o->squares) <= 1; }

// True when evaluating o can have no effect beyond its value (no variable, comment, sort or output): such a
// conjunct may be skipped when a later designator of its image fails. A short list of position tests.
bool without_effect(const Op* o) {
  if (!o) return true;
  switch (o->code) {
    case OpCode::Number: case OpCode::Squares: case OpCode::PieceSet: case OpCode::True: case OpCode::False:
    case OpCode::Compound: case OpCode::And: case OpCode::Or: case OpCode::Not:
    case OpCode::Union: case OpCode::Intersect: case OpCode::Complement: case OpCode::Attacks: case OpCode::AttackedBy:
    case OpCode::Between: case OpCode::LightDark: case OpCode::Direction: case OpCode::CountSquares:
    case OpCode::Relation: case OpCode::SetEquality: case OpCode::CountCompare:
    case OpCode::Check: case OpCode::Mate: case OpCode::Stalemate: case OpCode::Wtm: case OpCode::Btm:
    case OpCode::Initial: case OpCode::Terminal:
      break;
    default: return false;
  }
  for (const auto& k : o->kids)
    if (!without_effect(k.get())) return false;
  return true;
}

// The filters an image is the conjunction of: a compound's children, else the image itself.
std::vector<const Op*> conjuncts(const Op& image) {
  std::vector<const Op*> out;
  if (image.code == OpCode::Compound)
    for (const auto& k : image.kids) out.push_back(k.get());
  else
    out.push_back(&image);
  return out;
}

}  // namespace

std::shared_ptr<const SquarePattern> SquarePattern::of(const Op& orbit) {
  if (orbit.kids.empty()) return nullptr;
  // the width: the number of one-square designators every image has before its first conjunct with an effect
  size_t width = SIZE_MAX;
  bool whole = true;
  for (const auto& k : orbit.kids) {
    if (!k) return nullptr;
    size_t lead = 0;
    for (const Op* c : conjuncts(*k)) {
      whole = whole && one_square_designator(c);
      if (one_square_designator(c)) ++lead;
      else if (!without_effect(c)) break;
    }
    width = std::min(width, lead);
  }
  if (width == 0) return nullptr;
  auto p = std::make_shared<SquarePattern>();
  p->width_ = width;
  p->whole_ = whole;
  for (size_t i = 0; i < orbit.kids.size(); ++i) {
    std::vector<Term> row;
    bool never = false;  // a square pushed off the board: the image never matches
    for (const Op* c : conjuncts(*orbit.kids[i])) {
      if (row.size() == width) break;
      if (!one_square_designator(c)) continue;
      if (!c->squares) {
        never = true;
        break;
      }
      auto kind = std::find(p->kinds_.begin(), p->kinds_.end(), c->pieces);
      if (kind == p->kinds_.end()) {
        if (p->kinds_.size() == kMaxKinds) return nullptr;
        kind = p->kinds_.insert(p->kinds_.end(), c->pieces);
      }
      row.push_back({uint8_t(kind - p->kinds_.begin()), uint8_t(std::countr_zero(c->squares))});
    }
    if (never) continue;
    p->terms_.insert(p->terms_.end(), row.begin(), row.end());
    p->image_.push_back(uint32_t(i));
  }
  return p;
}

void SquarePattern::pieces_in(const chess::Position& p, uint64_t* have) const {
  for (size_t k = 0; k < kinds_.size(); ++k) have[k] = pieces_of(p, kinds_[k]);
}

}  // namespace cqlindex::cql::eval
