// Screening an orbit's images by the one-square piece designators they start with (square_pattern.h).
#include "engine/cql/eval/square_pattern.h"

#include <algorithm>
#include <bit>

#include "engine/cql/eval/context.h"
#include "engine/cql/eval/op.h"

namespace cqlindex::cql::eval {
namespace {

// True for a piece designator of at most one square: decided by one bit test (no square: never holds).
bool one_square_designator(const Op* o) { return o && o->code == OpCode::PieceSet && std::popcount(o->squares) <= 1; }

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
  // the width: the number of leading one-square designators every image has
  size_t width = SIZE_MAX;
  bool whole = true;
  for (const auto& k : orbit.kids) {
    if (!k) return nullptr;
    const std::vector<const Op*> c = conjuncts(*k);
    size_t lead = 0;
    while (lead < c.size() && one_square_designator(c[lead])) ++lead;
    width = std::min(width, lead);
    whole = whole && lead == c.size();
  }
  if (width == 0) return nullptr;
  auto p = std::make_shared<SquarePattern>();
  p->width_ = width;
  p->whole_ = whole;
  for (size_t i = 0; i < orbit.kids.size(); ++i) {
    const std::vector<const Op*> c = conjuncts(*orbit.kids[i]);
    std::vector<Term> row;
    for (size_t j = 0; j < width; ++j) {
      if (!c[j]->squares) break;  // a square pushed off the board: the image never matches
      auto kind = std::find(p->kinds_.begin(), p->kinds_.end(), c[j]->pieces);
      if (kind == p->kinds_.end()) {
        if (p->kinds_.size() == kMaxKinds) return nullptr;
        kind = p->kinds_.insert(p->kinds_.end(), c[j]->pieces);
      }
      row.push_back({uint8_t(kind - p->kinds_.begin()), uint8_t(std::countr_zero(c[j]->squares))});
    }
    if (row.size() < width) continue;
    p->terms_.insert(p->terms_.end(), row.begin(), row.end());
    p->image_.push_back(uint32_t(i));
  }
  return p;
}

void SquarePattern::pieces_in(const chess::Position& p, uint64_t* have) const {
  for (size_t k = 0; k < kinds_.size(); ++k) have[k] = pieces_of(p, kinds_[k]);
}

}  // namespace cqlindex::cql::eval
