// Attack tables (leapers, magic-bitboard sliders, lines), computed at compile time.
#pragma once

#include <array>

#include "engine/chess/types.h"

namespace cqlindex::chess {

namespace detail {
struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};
// The tables are constants computed by the compiler (attacks.cpp).
extern const std::array<std::array<Bitboard, 64>, COLOR_NB> pawn_attacks;
extern const std::array<Bitboard, 64> knight_attacks;
extern const std::array<Bitboard, 64> king_attacks;
extern const std::array<Magic, 64> bishop_magics;
extern const std::array<Magic, 64> rook_magics;
extern const std::array<std::array<Bitboard, 64>, 64> between;
extern const std::array<Bitboard, 64> bishop_rays;
extern const std::array<Bitboard, 64> rook_rays;
extern const std::array<std::array<Bitboard, 64>, 64> line;
}  // namespace detail

// Nothing left to build: the tables are compile-time constants (kept for callers that make sure of them).
void init_attacks();

// Squares a pawn of colour c on s attacks (captures onto).
inline Bitboard pawn_attacks(Color c, Square s) { return detail::pawn_attacks[c][s]; }
// Squares a knight on s attacks.
inline Bitboard knight_attacks(Square s) { return detail::knight_attacks[s]; }
// Squares a king on s attacks.
inline Bitboard king_attacks(Square s) { return detail::king_attacks[s]; }
// Squares a bishop on s attacks given the occupancy (the first blocker on each ray is included).
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::bishop_magics[s];
  return m.attacks[m.index(occupied)];
}
// Squares a rook on s attacks given the occupancy.
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::rook_magics[s];
  return m.attacks[m.index(occupied)];
}
// Squares a queen on s attacks given the occupancy.
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}
// Squares a non-pawn piece of type pt on s attacks (0 for PAWN / NO_PIECE_TYPE).
inline Bitboard attacks_of(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case KNIGHT: return knight_attacks(s);
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return king_attacks(s);
    default: return 0;
  }
}
// Squares a bishop on s would attack on an empty board.
inline Bitboard bishop_rays(Square s) { return detail::bishop_rays[s]; }
// Squares a rook on s would attack on an empty board.
inline Bitboard rook_rays(Square s) { return detail::rook_rays[s]; }
// Squares strictly between a and b if they share a rank, file or diagonal, else 0.
inline Bitboard between_squares(Square a, Square b) { return detail::between[a][b]; }
// The whole line (edge to edge) through a and b, both included, if aligned, else 0.
inline Bitboard line_through(Square a, Square b) { return detail::line[a][b]; }
// True if a, b and c lie on one rank, file or diagonal.
inline bool aligned(Square a, Square b, Square c) { return line_through(a, b) & square_bb(c); }
// Of the rook-like and bishop-like pieces given, those that reach s (nothing strictly between, given the
// occupancy). Walks the few candidates on s's lines: no magic look-up, whose big tables often miss the cache.
inline Bitboard sliders_reaching(Square s, Bitboard rook_like, Bitboard bishop_like, Bitboard occupied) {
  Bitboard result = 0;
  for (Bitboard c = (rook_rays(s) & rook_like) | (bishop_rays(s) & bishop_like); c; c &= c - 1) {
    Square x = lsb(c);
    if (!(between_squares(s, x) & occupied)) result |= square_bb(x);
  }
  return result;
}

}  // namespace cqlindex::chess
