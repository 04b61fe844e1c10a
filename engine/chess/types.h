// Basic chess value types: colours, pieces, squares, bitboards and the 16-bit Move.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

namespace cqlindex::chess {

using Bitboard = uint64_t;

enum Color : uint8_t { WHITE, BLACK, COLOR_NB = 2 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : uint8_t { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };

enum Piece : uint8_t {
  NO_PIECE,
  W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
  B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
  PIECE_NB = 16
};

// clang-format off
enum Square : uint8_t {
  SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
  SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
  SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
  SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
  SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
  SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
  SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
  SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
  SQ_NONE = 64, SQUARE_NB = 64
};
// clang-format on

enum File : uint8_t { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H, FILE_NB };
enum Rank : uint8_t { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_NB };

// Castling rights as a 4-bit mask.
enum CastlingRight : uint8_t {
  NO_CASTLING = 0,
  WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
  WHITE_CASTLING = WHITE_OO | WHITE_OOO, BLACK_CASTLING = BLACK_OO | BLACK_OOO,
  ALL_CASTLING = 15
};

// Index 0..3 of a single castling right (WHITE_OO -> 0, ..., BLACK_OOO -> 3).
constexpr int castling_index(CastlingRight cr) { return std::countr_zero(unsigned(cr)); }
// The right for colour c on the king side (h-side) or queen side (a-side).
constexpr CastlingRight castling_right(Color c, bool king_side) {
  return CastlingRight(1u << (2 * c + (king_side ? 0 : 1)));
}

constexpr Square make_square(File f, Rank r) { return Square((r << 3) | f); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
constexpr bool is_ok(Square s) { return s < SQ_NONE; }
// The same square seen from colour c's side (a1 <-> a8 for black).
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr Rank relative_rank(Color c, Rank r) { return Rank(r ^ (c * 7)); }
constexpr Square operator+(Square s, int d) { return Square(int(s) + d); }
constexpr Square operator-(Square s, int d) { return Square(int(s) - d); }
// +8 for white (one step forward), -8 for black.
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard file_bb(File f) { return FILE_A_BB << f; }
constexpr Bitboard file_bb(Square s) { return file_bb(file_of(s)); }
constexpr Bitboard rank_bb(Rank r) { return RANK_1_BB << (8 * r); }
constexpr Bitboard rank_bb(Square s) { return rank_bb(rank_of(s)); }

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }

constexpr int popcount(Bitboard b) { return std::popcount(b); }
// Least significant set square; b must be non-zero.
constexpr Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
// Most significant set square; b must be non-zero.
constexpr Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
// Returns the least significant square and clears it from b.
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

// "e4" for SQ_E4, "-" for SQ_NONE.
std::string square_name(Square s);
// 'P','N',... for white pieces, 'p','n',... for black, '.' for NO_PIECE.
char piece_char(Piece p);
// 'N','B','R','Q','K' ('P' for a pawn, '?' otherwise).
char piece_type_char(PieceType pt);

enum MoveKind : uint8_t { NORMAL, PROMOTION = 1, EN_PASSANT = 2, CASTLING = 3 };

// A move in 16 bits: bits 0-5 destination, 6-11 origin, 12-13 promotion piece (KNIGHT..QUEEN) - KNIGHT,
// 14-15 kind. CASTLING is encoded as king origin -> castling rook square (uniform for Chess960).
// Move::none() is 0; Move::null() (pass) has origin == destination == b1, which no real move has.
class Move {
 public:
  constexpr Move() = default;
  constexpr explicit Move(uint16_t raw) : data_(raw) {}
  constexpr Move(Square from, Square to) : data_(uint16_t((from << 6) | to)) {}

  static constexpr Move make(Square from, Square to, MoveKind kind = NORMAL, PieceType promo = KNIGHT) {
    return Move(uint16_t((kind << 14) | ((promo - KNIGHT) << 12) | (from << 6) | to));
  }
  static constexpr Move none() { return Move(); }
  static constexpr Move null() { return Move(uint16_t((SQ_B1 << 6) | SQ_B1)); }

  constexpr Square from() const { return Square((data_ >> 6) & 0x3F); }
  constexpr Square to() const { return Square(data_ & 0x3F); }
  constexpr MoveKind kind() const { return MoveKind(data_ >> 14); }
  // The promotion piece for a PROMOTION move, else NO_PIECE_TYPE.
  constexpr PieceType promotion() const {
    return kind() == PROMOTION ? PieceType(((data_ >> 12) & 3) + KNIGHT) : NO_PIECE_TYPE;
  }
  constexpr bool is_null() const { return data_ == null().data_; }
  constexpr bool is_none() const { return data_ == 0; }
  // True for a real move (neither none nor null).
  constexpr bool is_ok() const { return !is_none() && !is_null(); }
  constexpr uint16_t raw() const { return data_; }
  constexpr bool operator==(const Move&) const = default;

 private:
  uint16_t data_ = 0;
};

// Long algebraic form ("e2e4", "e7e8q", "0000" for null). Castling is written as the king's two-square
// step ("e1g1") unless chess960, where it is king-takes-own-rook ("e1h1").
std::string move_to_uci(Move m, bool chess960 = false);

}  // namespace cqlindex::chess
