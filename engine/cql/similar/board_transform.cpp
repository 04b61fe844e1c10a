#include "engine/cql/similar/board_transform.h"

#include <vector>

#include "engine/chess/symmetry.h"

namespace cqlindex::cql::similar {
namespace {

constexpr uint8_t kOff = chess::SQ_NONE;

// A symmetry of the square: files reflected, ranks reflected, then file and rank swapped (CQL's order).
BoardTransform dihedral(bool reflect_files, bool reflect_ranks, bool swap, std::string name) {
  BoardTransform t;
  t.name = std::move(name);
  for (int sq = 0; sq < 64; ++sq) {
    chess::Square image = chess::Square(sq);
    if (reflect_files) image = chess::flip_file(image);
    if (reflect_ranks) image = chess::flip_rank(image);
    if (swap) image = chess::flip_diagonal(image);
    t.to[sq] = image;
  }
  return t;
}

// A horizontal shift by `files` (negative: towards the a-file).
BoardTransform shift(int files) {
  BoardTransform t;
  t.name = (files < 0 ? "left^" : "right^") + std::to_string(files < 0 ? -files : files);
  for (int sq = 0; sq < 64; ++sq) t.to[sq] = chess::shift_square(chess::Square(sq), files, 0);
  return t;
}

// `second` applied after `first`, named as CQL names a composition: "second first".
BoardTransform then(const BoardTransform& first, const BoardTransform& second) {
  BoardTransform t;
  t.name = second.name + " " + first.name;
  for (int sq = 0; sq < 64; ++sq) t.to[sq] = first.to[sq] == kOff ? kOff : second.to[first.to[sq]];
  return t;
}

struct Tables {
  std::vector<BoardTransform> all;  // stable storage
  std::vector<const BoardTransform*> pawnless, pawns, identity;

  Tables() {
    all.reserve(64);
    const char* names[8] = {"",          "reflect_a1h8", "reflect_h", "counterclockwise90",
                            "reflect_v", "clockwise90",  "rotate180", "reflect_a8h1"};
    for (int i = 0; i < 8; ++i) all.push_back(dihedral(i & 4, i & 2, i & 1, names[i]));
    const size_t reflect_v = 4;
    std::vector<size_t> shifts;
    for (int files = -7; files <= 7; ++files)
      if (files != 0) {
        shifts.push_back(all.size());
        all.push_back(shift(files));
      }
    std::vector<size_t> reflected_shifts;
    for (size_t s : shifts) {
      reflected_shifts.push_back(all.size());
      all.push_back(then(all[s], all[reflect_v]));
    }
    for (size_t i = 0; i < 8; ++i) pawnless.push_back(&all[i]);
    pawns.push_back(&all[0]);
    for (size_t s : shifts) pawns.push_back(&all[s]);
    pawns.push_back(&all[reflect_v]);
    for (size_t s : reflected_shifts) pawns.push_back(&all[s]);
    identity.push_back(&all[0]);
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

std::span<const BoardTransform* const> transforms_for(bool pawnless, bool notransform) {
  const Tables& t = tables();
  if (notransform) return t.identity;
  return pawnless ? t.pawnless : t.pawns;
}

bool apply_transform(const BoardTransform& t, const Board& from, Board& to) {
  to.fill(chess::NO_PIECE);
  for (int sq = 0; sq < 64; ++sq) {
    if (from[sq] == chess::NO_PIECE) continue;
    uint8_t target = t.to[sq];
    if (target == kOff) return false;
    to[target] = from[sq];
  }
  return true;
}

}  // namespace cqlindex::cql::similar
