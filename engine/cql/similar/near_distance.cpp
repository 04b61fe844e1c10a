#include "engine/cql/similar/near_distance.h"

#include <array>

namespace cqlindex::cql::similar {
namespace {

constexpr uint8_t kOff = 64;

// "two files" for a shift of 2.
std::string files_in_words(int n) {
  static const char* const numbers[] = {"", "one", "two", "three", "four", "five", "six", "seven"};
  return std::string(numbers[n]) + (n == 1 ? " file" : " files");
}

// One elementary transform of CQL's names in words.
std::string name_in_words(const std::string& name) {
  if (name == "reflect_v") return "mirrored left-right";
  if (name == "reflect_h") return "mirrored top-bottom";
  if (name == "reflect_a1h8") return "reflected in the a1-h8 diagonal";
  if (name == "reflect_a8h1") return "reflected in the a8-h1 diagonal";
  if (name == "clockwise90") return "rotated 90 degrees clockwise";
  if (name == "counterclockwise90") return "rotated 90 degrees counterclockwise";
  if (name == "rotate180") return "rotated 180 degrees";
  if (name.starts_with("left^")) return "shifted " + files_in_words(name[5] - '0') + " left";
  if (name.starts_with("right^")) return "shifted " + files_in_words(name[6] - '0') + " right";
  return name;
}

}  // namespace

unsigned board_distance(const Board& a, const Board& b) {
  unsigned d = 0;
  for (int sq = 0; sq < 64; ++sq) d += a[sq] != b[sq];
  return d;
}

std::optional<NearFit> nearest_image(const Board& submission, bool notransform, const Board& repository,
                                     unsigned limit) {
  bool pawnless = true;
  for (chess::Piece p : submission) pawnless &= p == chess::NO_PIECE || chess::type_of(p) != chess::PAWN;
  std::optional<NearFit> best;
  Board image;
  for (const BoardTransform* t : transforms_for(pawnless, notransform)) {
    if (!apply_transform(*t, submission, image)) continue;
    const unsigned d = board_distance(image, repository);
    if (d <= limit && (!best || d < best->distance)) best = NearFit{d, t};
  }
  return best;
}

std::string transform_in_words(const BoardTransform& t) { return transform_in_words(t.name); }

std::string transform_in_words(const std::string& name) {
  if (name.empty()) return "as it stands";
  // CQL names a composition "second first" (board_transform.cpp): say the first one first.
  const size_t space = name.find(' ');
  if (space == std::string::npos) return name_in_words(name);
  return name_in_words(name.substr(space + 1)) + ", then " + name_in_words(name.substr(0, space));
}

unsigned undo_transform(const BoardTransform& t, const Board& image, Board& out) {
  std::array<uint8_t, 64> from;
  from.fill(kOff);
  for (int sq = 0; sq < 64; ++sq)
    if (t.to[sq] != kOff) from[t.to[sq]] = uint8_t(sq);
  out.fill(chess::NO_PIECE);
  unsigned dropped = 0;
  for (int sq = 0; sq < 64; ++sq) {
    if (image[sq] == chess::NO_PIECE) continue;
    if (from[sq] == kOff)
      ++dropped;
    else
      out[from[sq]] = image[sq];
  }
  return dropped;
}

}  // namespace cqlindex::cql::similar
