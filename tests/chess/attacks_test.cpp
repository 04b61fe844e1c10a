// Attack tables against a naive ray walk, plus between/line tables and basic helpers.
#include <catch2/catch.hpp>

#include <random>

#include "engine/chess/attacks.h"

using namespace cqlindex::chess;

namespace {

Bitboard naive_slider(Square s, Bitboard occupied, const int (*dirs)[2]) {
  Bitboard result = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_of(s) + dirs[d][0], r = rank_of(s) + dirs[d][1];
    for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += dirs[d][0], r += dirs[d][1]) {
      Bitboard b = square_bb(make_square(File(f), Rank(r)));
      result |= b;
      if (occupied & b) break;
    }
  }
  return result;
}

const int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
const int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

}  // namespace

TEST_CASE("attacks: sliders match a naive ray walk", "[chess][attacks]") {
  std::mt19937_64 rng(42);
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    for (int i = 0; i < 2000; ++i) {
      Bitboard occ = rng() & rng();
      if (i % 2) occ &= rng();
      REQUIRE(rook_attacks(s, occ) == naive_slider(s, occ, kRookDirs));
      REQUIRE(bishop_attacks(s, occ) == naive_slider(s, occ, kBishopDirs));
      REQUIRE(queen_attacks(s, occ) == (rook_attacks(s, occ) | bishop_attacks(s, occ)));
    }
    CHECK(rook_rays(s) == naive_slider(s, 0, kRookDirs));
    CHECK(bishop_rays(s) == naive_slider(s, 0, kBishopDirs));
  }
}

TEST_CASE("attacks: leapers and pawns", "[chess][attacks]") {
  CHECK(knight_attacks(SQ_A1) == (square_bb(SQ_B3) | square_bb(SQ_C2)));
  CHECK(popcount(knight_attacks(SQ_E4)) == 8);
  CHECK(king_attacks(SQ_H8) == (square_bb(SQ_G8) | square_bb(SQ_G7) | square_bb(SQ_H7)));
  CHECK(popcount(king_attacks(SQ_D5)) == 8);
  CHECK(pawn_attacks(WHITE, SQ_E4) == (square_bb(SQ_D5) | square_bb(SQ_F5)));
  CHECK(pawn_attacks(BLACK, SQ_E4) == (square_bb(SQ_D3) | square_bb(SQ_F3)));
  CHECK(pawn_attacks(WHITE, SQ_A2) == square_bb(SQ_B3));
  CHECK(pawn_attacks(WHITE, SQ_H8) == 0);
  CHECK(attacks_of(KNIGHT, SQ_E4, 0) == knight_attacks(SQ_E4));
  CHECK(attacks_of(PAWN, SQ_E4, 0) == 0);
}

TEST_CASE("attacks: between and line tables", "[chess][attacks]") {
  CHECK(between_squares(SQ_A1, SQ_A4) == (square_bb(SQ_A2) | square_bb(SQ_A3)));
  CHECK(between_squares(SQ_A1, SQ_D4) == (square_bb(SQ_B2) | square_bb(SQ_C3)));
  CHECK(between_squares(SQ_A1, SQ_B2) == 0);
  CHECK(between_squares(SQ_A1, SQ_B3) == 0);  // not aligned
  CHECK(between_squares(SQ_E4, SQ_E4) == 0);
  CHECK(line_through(SQ_A1, SQ_B3) == 0);
  CHECK(line_through(SQ_C3, SQ_E5) == (bishop_rays(SQ_A1) | square_bb(SQ_A1)));
  CHECK(line_through(SQ_B1, SQ_G1) == rank_bb(RANK_1));
  CHECK(aligned(SQ_A1, SQ_H8, SQ_D4));
  CHECK_FALSE(aligned(SQ_A1, SQ_H8, SQ_D5));
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      REQUIRE(between_squares(Square(a), Square(b)) == between_squares(Square(b), Square(a)));
      REQUIRE((between_squares(Square(a), Square(b)) & ~line_through(Square(a), Square(b))) == 0);
    }
}

TEST_CASE("types: squares, pieces, moves", "[chess][types]") {
  CHECK(make_square(FILE_E, RANK_4) == SQ_E4);
  CHECK(file_of(SQ_G7) == FILE_G);
  CHECK(rank_of(SQ_G7) == RANK_7);
  CHECK(square_name(SQ_A1) == "a1");
  CHECK(square_name(SQ_H8) == "h8");
  CHECK(square_name(SQ_NONE) == "-");
  CHECK(make_piece(BLACK, KNIGHT) == B_KNIGHT);
  CHECK(color_of(B_QUEEN) == BLACK);
  CHECK(type_of(W_ROOK) == ROOK);
  CHECK(~WHITE == BLACK);
  CHECK(piece_char(B_KING) == 'k');
  Bitboard b = square_bb(SQ_C3) | square_bb(SQ_F6);
  CHECK(popcount(b) == 2);
  CHECK(lsb(b) == SQ_C3);
  CHECK(msb(b) == SQ_F6);
  CHECK(pop_lsb(b) == SQ_C3);
  CHECK(b == square_bb(SQ_F6));
  Move m = Move::make(SQ_E7, SQ_E8, PROMOTION, ROOK);
  CHECK(m.from() == SQ_E7);
  CHECK(m.to() == SQ_E8);
  CHECK(m.kind() == PROMOTION);
  CHECK(m.promotion() == ROOK);
  CHECK(Move(SQ_E2, SQ_E4).promotion() == NO_PIECE_TYPE);
  CHECK(Move::null().is_null());
  CHECK_FALSE(Move::null().is_none());
  CHECK(Move::none().is_none());
  CHECK(Move::none().raw() == 0);
  CHECK_FALSE(Move(SQ_E2, SQ_E4).is_null());
  CHECK(move_to_uci(m) == "e7e8r");
  CHECK(move_to_uci(Move::make(SQ_E1, SQ_H1, CASTLING)) == "e1g1");
  CHECK(move_to_uci(Move::make(SQ_E1, SQ_H1, CASTLING), true) == "e1h1");
  CHECK(move_to_uci(Move::make(SQ_E8, SQ_A8, CASTLING)) == "e8c8");
  CHECK(move_to_uci(Move::null()) == "0000");
  static_assert(sizeof(Move) == 2);
}
