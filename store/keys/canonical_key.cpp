// Canonical similarity keys. The occupancy of each candidate transform is computed with bitboard operations
// first; only the winning transform (and transforms tied with it on occupancy) is encoded piece by piece.
#include "store/keys/canonical_key.h"

#include <array>
#include <bit>
#include <cstring>

#include "engine/chess/symmetry.h"

namespace cqlindex::store::keys {
namespace {

using chess::Bitboard;
using chess::Square;

using chess::Symmetry;

// Square maps, built at compile time: inverse[t][s] is the original square that symmetry t sends to s.
constexpr auto kInverse = [] {
  std::array<std::array<Square, 64>, chess::SYMMETRY_NB> inv{};
  for (int t = 0; t < chess::SYMMETRY_NB; ++t)
    for (int s = 0; s < 64; ++s) inv[t][chess::symmetric(Symmetry(t), Square(s))] = Square(s);
  return inv;
}();

// Returns the number of files by which the board `b` can move left (its leftmost occupied file).
int leftmost_file(Bitboard b) {
  b |= b >> 32;
  b |= b >> 16;
  b |= b >> 8;
  return std::countr_zero(static_cast<uint8_t>(b) | 0x100u);
}

// A candidate image of the board: symmetry t followed by a shift of `shift` files to the left.
struct Candidate {
  Symmetry t;
  int shift;
  Bitboard occupancy;
};

// A board to key: a chess::Position, or 64 squares and a side to move (BoardSource).
struct BoardSource {
  const std::array<chess::Piece, 64>& board;
  chess::Color side;
  Bitboard occupied, pawns;
  chess::Piece piece_on(Square s) const { return board[s]; }
  chess::Color side_to_move() const { return side; }
};
Bitboard occupancy_of(const chess::Position& pos) { return pos.pieces(); }
Bitboard occupancy_of(const BoardSource& b) { return b.occupied; }
Bitboard pawns_of(const chess::Position& pos) { return pos.pieces(chess::PAWN); }
Bitboard pawns_of(const BoardSource& b) { return b.pawns; }

// Writes the key of `pos` under candidate `c` to `out`; returns its length. (Two pieces a byte, high nibble
// first, written whole: the nibble-at-a-time form, read back and or-ed, was a tenth of a build's CPU.)
template <typename Source>
size_t encode(const Source& pos, const Candidate& c, char* out) {
  static_assert(std::endian::native == std::endian::little, "the occupancy is byte-swapped to big-endian");
  out[0] = static_cast<char>(pos.side_to_move());
  const uint64_t big_endian = __builtin_bswap64(c.occupancy);
  std::memcpy(out + 1, &big_endian, 8);
  size_t n = 9;
  const Square* source_of = kInverse[c.t].data() + c.shift;  // the original square of each image square
  for (Bitboard occ = c.occupancy; occ;) {
    const uint8_t high = pos.piece_on(source_of[chess::pop_lsb(occ)]);  // 1..6 white, 9..14 black
    const uint8_t low = occ ? pos.piece_on(source_of[chess::pop_lsb(occ)]) : 0;
    out[n++] = static_cast<char>(high << 4 | low);
  }
  return n;
}

}  // namespace

std::string board_key(const chess::Position& pos) {
  char buffer[kMaxKeyBytes];
  return std::string(buffer, encode(pos, Candidate{chess::IDENTITY, 0, pos.pieces()}, buffer));
}

namespace {

// The canonical key of a Position or a BoardSource (see canonical_key below).
template <typename Source>
size_t canonical_key_of(const Source& pos, char (&out)[kMaxKeyBytes]) {
  const Bitboard occupied = occupancy_of(pos);
  std::array<Candidate, 8> candidates;
  int count = 0;
  if (pawns_of(pos)) {
    for (Symmetry t : {chess::IDENTITY, chess::FLIP_FILE}) {
      Bitboard image = chess::symmetric(t, occupied);
      int shift = leftmost_file(image);
      candidates[count++] = Candidate{t, shift, image >> shift};
    }
  } else {
    for (int t = 0; t < chess::SYMMETRY_NB; ++t)
      candidates[count++] = Candidate{Symmetry(t), 0, chess::symmetric(Symmetry(t), occupied)};
  }
  // The occupancy is written big-endian, so comparing keys starts with comparing occupancies as integers.
  Bitboard best_occ = candidates[0].occupancy;
  for (int i = 1; i < count; ++i) best_occ = std::min(best_occ, candidates[i].occupancy);
  size_t best_size = 0;
  char other[kMaxKeyBytes];
  for (int i = 0; i < count; ++i) {
    if (candidates[i].occupancy != best_occ) continue;
    if (best_size == 0) {
      best_size = encode(pos, candidates[i], out);
      continue;
    }
    size_t size = encode(pos, candidates[i], other);  // same occupancy, so the same length
    if (std::string_view(other, size) < std::string_view(out, best_size)) std::copy(other, other + size, out);
  }
  return best_size;
}

}  // namespace

size_t canonical_key(const chess::Position& pos, char (&out)[kMaxKeyBytes]) { return canonical_key_of(pos, out); }

size_t canonical_key(const std::array<chess::Piece, 64>& board, chess::Color side, char (&out)[kMaxKeyBytes]) {
  Bitboard occupied = 0, pawns = 0;
  for (int sq = 0; sq < 64; ++sq) {
    if (board[sq] == chess::NO_PIECE) continue;
    occupied |= Bitboard(1) << sq;
    if (chess::type_of(board[sq]) == chess::PAWN) pawns |= Bitboard(1) << sq;
  }
  return canonical_key_of(BoardSource{board, side, occupied, pawns}, out);
}

size_t canonical_key(const std::array<chess::Piece, 64>& board, Bitboard occupied, Bitboard pawns, chess::Color side,
                     char (&out)[kMaxKeyBytes]) {
  return canonical_key_of(BoardSource{board, side, occupied, pawns}, out);
}

std::string canonical_key(const chess::Position& pos) {
  char buffer[kMaxKeyBytes];
  return std::string(buffer, canonical_key(pos, buffer));
}

}  // namespace cqlindex::store::keys
