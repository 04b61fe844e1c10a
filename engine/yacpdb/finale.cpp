#include "engine/yacpdb/finale.h"

#include "engine/chess/movegen.h"

namespace cqlindex::yacpdb {

namespace {

using namespace chess;

// Squares the piece on s attacks with the given occupancy (pinned or not: a pinned unit still guards).
Bitboard attacks_from(const Position& pos, Square s, Bitboard occupied) {
  Piece p = pos.piece_on(s);
  if (type_of(p) == PAWN) return pawn_attacks(color_of(p), s);
  return attacks_of(type_of(p), s, occupied);
}

// The position without the piece on `gone`, same side to move; nullopt when that is no legal position.
std::optional<Position> without(const Position& pos, Square gone) {
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      Square s = make_square(File(file), Rank(rank));
      if (s == gone || pos.empty(s)) {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += piece_char(pos.piece_on(s));
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  fen += pos.side_to_move() == WHITE ? " w - - 0 1" : " b - - 0 1";
  return Position::from_fen(fen);
}

}  // namespace

std::optional<Finale> model_finale(const Position& pos) {
  if (has_legal_move(pos)) return std::nullopt;
  const Color them = pos.side_to_move();  // the mated (stalemated) side
  const Color us = ~them;
  const Square ksq = pos.king_square(them);
  const Bitboard field = king_attacks(ksq) | square_bb(ksq);
  const Bitboard occupied = pos.pieces() & ~square_bb(ksq);  // x-rays through the mated king count

  Finale f;
  Bitboard participants = 0;  // units of both sides that take part
  for (Bitboard b = field; b;) {
    Square s = pop_lsb(b);
    Bitboard guards = 0;
    for (Bitboard a = pos.pieces(us); a;) {
      Square from = pop_lsb(a);
      if (attacks_from(pos, from, occupied) & square_bb(s)) guards |= square_bb(from);
    }
    if (more_than_one(guards)) return std::nullopt;  // a square attacked twice: impure
    participants |= guards;
    Piece p = pos.piece_on(s);
    bool own_blocker = p != NO_PIECE && color_of(p) == them && s != ksq;
    if (!own_blocker) continue;
    participants |= square_bb(s);
    if (!guards) continue;
    // a guarded blocker: allowed only when its guard pins it to the king and the pin is needed
    Square guard = lsb(guards);
    bool pins = (between_squares(guard, ksq) & pos.pieces()) == square_bb(s) && aligned(guard, ksq, s) &&
                type_of(pos.piece_on(guard)) != KNIGHT && type_of(pos.piece_on(guard)) != PAWN &&
                type_of(pos.piece_on(guard)) != KING;
    if (!pins) return std::nullopt;
    auto freed = without(pos, guard);
    if (!freed || !has_legal_move(*freed)) return std::nullopt;
    ++f.pins;
  }
  // every officer of the mating side takes part
  Bitboard officers = pos.pieces(us) & ~pos.pieces(us, KING) & ~pos.pieces(us, PAWN);
  if (officers & ~participants) return std::nullopt;
  Bitboard everyone = pos.pieces() & ~square_bb(ksq);
  f.ideal = f.pins == 0 && (everyone & ~participants) == 0;
  return f;
}

}  // namespace cqlindex::yacpdb
