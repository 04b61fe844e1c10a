#pragma once
// speed: an orbit whose images are conjunctions holding one-square piece designators (`shift {♕d4 ◭e4 ♛f4}`: 81
// images; `shift {mate ♘b7 ♗d6}`) is screened by bit tests. An image whose designators do not all hold cannot
// match and, since they and the conjuncts before them have no effect, is skipped; an image made only of such
// designators matches without being evaluated at all.
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/chess/position.h"

namespace cqlindex::cql::eval {

struct Op;

class SquarePattern {
 public:
  static constexpr size_t kMaxKinds = 8;  // distinct piece kinds of the designators (one bitboard each)

  // The pattern of an orbit's images, or nullptr when some image has no one-square designator ahead of its
  // first conjunct with an effect.
  static std::shared_ptr<const SquarePattern> of(const Op& orbit);

  // Fills have[k] with the squares of the pieces of kind k in p.
  void pieces_in(const chess::Position& p, uint64_t* have) const;
  // Number of images that can match (images whose designators name a square off the board are left out).
  size_t rows() const { return image_.size(); }
  // The orbit's image that row r screens.
  size_t image(size_t r) const { return image_[r]; }
  // True when every designator of row r holds, given pieces_in's bitboards.
  bool holds(size_t r, const uint64_t* have) const {
    const Term* t = &terms_[r * width_];
    for (size_t j = 0; j < width_; ++j)
      if (!((have[t[j].kind] >> t[j].square) & 1)) return false;
    return true;
  }
  // True when the designators are the whole image: it matches exactly when they hold.
  bool whole() const { return whole_; }
  // The value of row r's image when whole: its last designator's square.
  uint64_t value(size_t r) const { return uint64_t{1} << terms_[(r + 1) * width_ - 1].square; }

 private:
  struct Term {
    uint8_t kind;    // index into kinds_
    uint8_t square;  // a1 = 0
  };
  std::vector<uint16_t> kinds_;  // piece_bits of each kind
  std::vector<Term> terms_;      // width_ terms per row
  std::vector<uint32_t> image_;  // row -> image
  size_t width_ = 0;
  bool whole_ = false;
};

}  // namespace cqlindex::cql::eval
