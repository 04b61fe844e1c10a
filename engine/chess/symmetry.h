// Board symmetry: the flips that generate the 8 symmetries of the square, and shifts, on squares and bitboards.
// Every place that moves a board or a square set (CQL's transforms, similarposition, the canonical keys of
// the index, the planner's square sets) writes symmetry with these.
#pragma once

#include "engine/chess/types.h"

namespace cqlindex::chess {

// Returns `s` reflected left-right (a1 <-> h1).
constexpr Square flip_file(Square s) { return Square(s ^ 7); }
// Returns `s` reflected top-bottom (a1 <-> a8).
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
// Returns `s` reflected about the a1-h8 diagonal (its file and rank swapped: b1 <-> a2).
constexpr Square flip_diagonal(Square s) { return Square(((s >> 3) | (s << 3)) & 63); }

// Returns `b` reflected left-right (each rank's bits reversed).
constexpr Bitboard flip_file(Bitboard b) {
  b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
  b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
  b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
  return b;
}
// Returns `b` reflected top-bottom (the order of its ranks reversed).
constexpr Bitboard flip_rank(Bitboard b) { return __builtin_bswap64(b); }
// Returns `b` reflected about the a1-h8 diagonal (three delta swaps, as in the Chess Programming Wiki).
constexpr Bitboard flip_diagonal(Bitboard b) {
  Bitboard t = 0x0F0F0F0F00000000ULL & (b ^ (b << 28));
  b ^= t ^ (t >> 28);
  t = 0x3333000033330000ULL & (b ^ (b << 14));
  b ^= t ^ (t >> 14);
  t = 0x5500550055005500ULL & (b ^ (b << 7));
  b ^= t ^ (t >> 7);
  return b;
}

// Returns `b` moved `files` files towards the h-file (negative: towards the a-file); squares that leave the
// board are dropped.
constexpr Bitboard shift_files(Bitboard b, int files) {
  if (files >= 8 || files <= -8) return 0;
  Bitboard kept = 0;  // the files that stay on the board
  for (int f = 0; f < 8; ++f)
    if (f + files >= 0 && f + files < 8) kept |= FILE_A_BB << f;
  b &= kept;
  return files >= 0 ? b << files : b >> -files;
}
// Returns `b` moved `ranks` ranks towards the 8th rank (negative: towards the 1st); squares that leave the board
// are dropped.
constexpr Bitboard shift_ranks(Bitboard b, int ranks) {
  if (ranks >= 8 || ranks <= -8) return 0;
  return ranks >= 0 ? b << (8 * ranks) : b >> (8 * -ranks);
}
// Returns `s` moved `files` files towards the h-file and `ranks` ranks towards the 8th; SQ_NONE when it leaves
// the board.
constexpr Square shift_square(Square s, int files, int ranks) {
  const int f = file_of(s) + files, r = rank_of(s) + ranks;
  return f < 0 || f > 7 || r < 0 || r > 7 ? SQ_NONE : Square(r * 8 + f);
}

// The 8 symmetries of the square, as the flips that make them, applied in this order: the diagonal flip
// (bit 4), then the rank flip (bit 2), then the file flip (bit 1).
enum Symmetry : uint8_t {
  IDENTITY = 0,
  FLIP_FILE = 1,          // a1 <-> h1
  FLIP_RANK = 2,          // a1 <-> a8
  ROTATE_180 = 3,         // a1 <-> h8
  FLIP_DIAGONAL = 4,      // b1 <-> a2, a1 and h8 stay
  ROTATE_270 = 5,         // a quarter turn counterclockwise: a1 -> h1
  ROTATE_90 = 6,          // a quarter turn clockwise: a1 -> a8
  FLIP_ANTIDIAGONAL = 7,  // a1 <-> h8 through the a8-h1 diagonal, which stays
  SYMMETRY_NB = 8
};

// Returns the image of `s` under `t`.
constexpr Square symmetric(Symmetry t, Square s) {
  if (t & FLIP_DIAGONAL) s = flip_diagonal(s);
  if (t & FLIP_RANK) s = flip_rank(s);
  if (t & FLIP_FILE) s = flip_file(s);
  return s;
}
// Returns the image of `b` under `t`.
constexpr Bitboard symmetric(Symmetry t, Bitboard b) {
  if (t & FLIP_DIAGONAL) b = flip_diagonal(b);
  if (t & FLIP_RANK) b = flip_rank(b);
  if (t & FLIP_FILE) b = flip_file(b);
  return b;
}

}  // namespace cqlindex::chess
