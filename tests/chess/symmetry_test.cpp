// Board symmetry (engine/chess/symmetry.h) against a naive version written with files and ranks: each flip is an
// involution, the 8 symmetries form the dihedral group (its composition table), shifts drop what leaves the board.
#include <array>
#include <random>

#include <catch2/catch.hpp>

#include "engine/chess/symmetry.h"

using namespace cqlindex::chess;

namespace {

// The naive image of (file, rank) under symmetry t, on centred coordinates x = 2*file - 7, y = 2*rank - 7:
// the diagonal flip swaps x and y, then the rank flip negates y, then the file flip negates x.
Square naive_symmetric(int t, Square s) {
  int x = 2 * file_of(s) - 7, y = 2 * rank_of(s) - 7;
  if (t & 4) std::swap(x, y);
  if (t & 2) y = -y;
  if (t & 1) x = -x;
  return make_square(File((x + 7) / 2), Rank((y + 7) / 2));
}

// Returns the image of `b` square by square with the naive map.
Bitboard naive_symmetric(int t, Bitboard b) {
  Bitboard out = 0;
  for (int s = 0; s < 64; ++s)
    if (b >> s & 1) out |= square_bb(naive_symmetric(t, Square(s)));
  return out;
}

// Returns `b` moved by (files, ranks) square by square, dropping what leaves the board.
Bitboard naive_shift(Bitboard b, int files, int ranks) {
  Bitboard out = 0;
  for (int s = 0; s < 64; ++s) {
    const int f = s % 8 + files, r = s / 8 + ranks;
    if (b >> s & 1 && f >= 0 && f < 8 && r >= 0 && r < 8) out |= Bitboard(1) << (r * 8 + f);
  }
  return out;
}

// Returns the symmetry that is `a` applied after `b`, found by comparing the maps on every square.
int compose(int a, int b) {
  for (int c = 0; c < SYMMETRY_NB; ++c) {
    bool same = true;
    for (int s = 0; s < 64 && same; ++s)
      same = symmetric(Symmetry(a), symmetric(Symmetry(b), Square(s))) == symmetric(Symmetry(c), Square(s));
    if (same) return c;
  }
  return -1;
}

}  // namespace

TEST_CASE("symmetry: the flips on squares", "[chess][symmetry]") {
  CHECK(flip_file(SQ_A1) == SQ_H1);
  CHECK(flip_file(SQ_C6) == SQ_F6);
  CHECK(flip_rank(SQ_A1) == SQ_A8);
  CHECK(flip_rank(SQ_C6) == SQ_C3);
  CHECK(flip_diagonal(SQ_B1) == SQ_A2);
  CHECK(flip_diagonal(SQ_H8) == SQ_H8);
  CHECK(flip_diagonal(SQ_C6) == SQ_F3);
  for (int s = 0; s < 64; ++s) {
    const Square sq = Square(s);
    CHECK(flip_file(flip_file(sq)) == sq);
    CHECK(flip_rank(flip_rank(sq)) == sq);
    CHECK(flip_diagonal(flip_diagonal(sq)) == sq);
  }
}

TEST_CASE("symmetry: the named symmetries move a1 where their names say", "[chess][symmetry]") {
  CHECK(symmetric(IDENTITY, SQ_A1) == SQ_A1);
  CHECK(symmetric(FLIP_FILE, SQ_A1) == SQ_H1);
  CHECK(symmetric(FLIP_RANK, SQ_A1) == SQ_A8);
  CHECK(symmetric(ROTATE_180, SQ_A1) == SQ_H8);
  CHECK(symmetric(FLIP_DIAGONAL, SQ_A1) == SQ_A1);
  CHECK(symmetric(FLIP_DIAGONAL, SQ_B1) == SQ_A2);
  CHECK(symmetric(ROTATE_270, SQ_A1) == SQ_H1);   // counterclockwise: a1 -> h1 -> h8
  CHECK(symmetric(ROTATE_270, SQ_H1) == SQ_H8);
  CHECK(symmetric(ROTATE_90, SQ_A1) == SQ_A8);    // clockwise: a1 -> a8 -> h8
  CHECK(symmetric(ROTATE_90, SQ_A8) == SQ_H8);
  CHECK(symmetric(FLIP_ANTIDIAGONAL, SQ_A1) == SQ_H8);
  CHECK(symmetric(FLIP_ANTIDIAGONAL, SQ_A8) == SQ_A8);
}

TEST_CASE("symmetry: squares and bitboards agree with the naive version", "[chess][symmetry]") {
  std::mt19937_64 rng(16);
  for (int t = 0; t < SYMMETRY_NB; ++t) {
    for (int s = 0; s < 64; ++s) CHECK(symmetric(Symmetry(t), Square(s)) == naive_symmetric(t, Square(s)));
    for (int trial = 0; trial < 200; ++trial) {
      const Bitboard b = rng() & rng();  // about 16 squares
      CHECK(symmetric(Symmetry(t), b) == naive_symmetric(t, b));
    }
    CHECK(symmetric(Symmetry(t), ~Bitboard(0)) == ~Bitboard(0));
  }
  for (int trial = 0; trial < 200; ++trial) {
    const Bitboard b = rng();
    CHECK(flip_file(flip_file(b)) == b);
    CHECK(flip_rank(flip_rank(b)) == b);
    CHECK(flip_diagonal(flip_diagonal(b)) == b);
    CHECK(flip_file(b) == naive_symmetric(FLIP_FILE, b));
    CHECK(flip_rank(b) == naive_symmetric(FLIP_RANK, b));
    CHECK(flip_diagonal(b) == naive_symmetric(FLIP_DIAGONAL, b));
  }
}

TEST_CASE("symmetry: the composition table of the 8 symmetries", "[chess][symmetry]") {
  // Row a, column b: the symmetry a applied after b. The dihedral group of the square, with I identity, F file
  // flip, R rank flip, H half turn, D diagonal flip, L quarter turn counterclockwise (ROTATE_270), C clockwise
  // (ROTATE_90), A antidiagonal flip: worked out by hand on (x, y) -> (+-x or +-y, +-y or +-x).
  constexpr int I = IDENTITY, F = FLIP_FILE, R = FLIP_RANK, H = ROTATE_180, D = FLIP_DIAGONAL, L = ROTATE_270,
                C = ROTATE_90, A = FLIP_ANTIDIAGONAL;
  const int table[8][8] = {
      //   I  F  R  H  D  L  C  A      (b)
      {I, F, R, H, D, L, C, A},  // I
      {F, I, H, R, L, D, A, C},  // F
      {R, H, I, F, C, A, D, L},  // R
      {H, R, F, I, A, C, L, D},  // H
      {D, C, L, A, I, R, F, H},  // D
      {L, A, D, C, F, H, I, R},  // L
      {C, D, A, L, R, I, H, F},  // C
      {A, L, C, D, H, F, R, I},  // A
  };
  for (int a = 0; a < SYMMETRY_NB; ++a)
    for (int b = 0; b < SYMMETRY_NB; ++b) {
      INFO("a = " << a << ", b = " << b);
      CHECK(compose(a, b) == table[a][b]);
    }
  // Four quarter turns are the identity; a reflection is its own inverse.
  CHECK(compose(C, compose(C, compose(C, C))) == I);
  CHECK(compose(C, L) == I);
  for (int t : {F, R, D, A}) CHECK(compose(t, t) == I);
}

TEST_CASE("symmetry: shifts drop the squares that leave the board", "[chess][symmetry]") {
  std::mt19937_64 rng(61);
  for (int trial = 0; trial < 100; ++trial) {
    const Bitboard b = rng();
    for (int d = -8; d <= 8; ++d) {
      CHECK(shift_files(b, d) == naive_shift(b, d, 0));
      CHECK(shift_ranks(b, d) == naive_shift(b, 0, d));
    }
  }
  CHECK(shift_files(square_bb(SQ_H4), 1) == 0);
  CHECK(shift_files(square_bb(SQ_A4), -1) == 0);
  CHECK(shift_files(square_bb(SQ_A4), 7) == square_bb(SQ_H4));
  CHECK(shift_square(SQ_C3, 2, -1) == SQ_E2);
  CHECK(shift_square(SQ_C3, -3, 0) == SQ_NONE);
  CHECK(shift_square(SQ_C8, 0, 1) == SQ_NONE);
  for (int s = 0; s < 64; ++s)
    for (int df = -8; df <= 8; ++df)
      for (int dr = -8; dr <= 8; ++dr) {
        const Bitboard image = naive_shift(square_bb(Square(s)), df, dr);
        CHECK(shift_square(Square(s), df, dr) == (image ? lsb(image) : SQ_NONE));
      }
}
