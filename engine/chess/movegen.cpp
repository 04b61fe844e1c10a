#include "engine/chess/movegen.h"

namespace cqlindex::chess {

namespace {

// Calls sink(move) for every legal (or, if !Legal, pseudo-legal) move; stops early when the sink returns true.
template <bool Legal, typename Sink>
bool generate(const Position& pos, Sink&& sink) {
  Color us = pos.side_to_move(), them = ~us;
  Square ksq = pos.king_square(us);
  Bitboard occ = pos.pieces();
  Bitboard own = pos.pieces(us), enemies = pos.pieces(them);
  // The enemy king is never captured (it can only stand in check after a null move or in a set-up
  // position with the side not to move in check).
  Bitboard no_go = own | pos.pieces(them, KING);
  Bitboard checkers = Legal ? pos.checkers() : 0;
  Bitboard pinned = Legal ? pos.pinned() : 0;

  // King steps: the destination must not be attacked once the king has left its square.
  Bitboard occ_without_king = occ ^ square_bb(ksq);
  for (Bitboard b = king_attacks(ksq) & ~no_go; b;) {
    Square to = pop_lsb(b);
    if (!Legal || !pos.attacked_by(them, to, occ_without_king))
      if (sink(Move(ksq, to))) return true;
  }
  if (more_than_one(checkers)) return false;

  // Squares that resolve a single check (block or capture), or anything not ours.
  Bitboard target = (checkers ? between_squares(ksq, lsb(checkers)) | checkers : ~Bitboard(0)) & ~no_go;

  // Pawns.
  int push = pawn_push(us);
  Rank promo_rank = relative_rank(us, RANK_8);
  Rank double_rank = relative_rank(us, RANK_2);
  Square ep = pos.ep_square();
  auto emit_pawn = [&](Square from, Square to) {
    if (rank_of(to) == promo_rank) {
      for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT})
        if (sink(Move::make(from, to, PROMOTION, pt))) return true;
      return false;
    }
    return sink(Move(from, to));
  };
  for (Bitboard pawns = pos.pieces(us, PAWN); pawns;) {
    Square from = pop_lsb(pawns);
    Bitboard allowed = (pinned & square_bb(from)) ? line_through(ksq, from) : ~Bitboard(0);
    Square one = from + push;
    if (pos.empty(one)) {
      if ((target & allowed & square_bb(one)) && emit_pawn(from, one)) return true;
      if (rank_of(from) == double_rank) {
        Square two = one + push;
        if (pos.empty(two) && (target & allowed & square_bb(two)) && sink(Move(from, two))) return true;
      }
    }
    Bitboard attacks = pawn_attacks(us, from);
    for (Bitboard caps = attacks & enemies & target & allowed; caps;)
      if (emit_pawn(from, pop_lsb(caps))) return true;
    if (ep != SQ_NONE && (attacks & square_bb(ep))) {
      Move m = Move::make(from, ep, EN_PASSANT);
      if ((!Legal || pos.is_legal(m)) && sink(m)) return true;
    }
  }

  // Knights, bishops, rooks, queens. A pinned piece moves only along its pin line (a knight never).
  for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
    for (Bitboard b = pos.pieces(us, pt); b;) {
      Square from = pop_lsb(b);
      Bitboard att = attacks_of(pt, from, occ) & target;
      if (pinned & square_bb(from)) att &= line_through(ksq, from);
      while (att)
        if (sink(Move(from, pop_lsb(att)))) return true;
    }
  }

  // Castling.
  if (!checkers) {
    for (bool king_side : {true, false}) {
      Square rsq = pos.castling_rook_square(castling_right(us, king_side));
      if (rsq == SQ_NONE) continue;
      Move m = Move::make(ksq, rsq, CASTLING);
      bool ok = Legal ? pos.is_legal(m) : pos.castling_path_clear(m);
      if (ok && sink(m)) return true;
    }
  }
  return false;
}

}  // namespace

bool MoveList::contains(Move m) const {
  for (Move x : *this)
    if (x == m) return true;
  return false;
}

MoveList legal_moves(const Position& pos) {
  MoveList list;
  generate<true>(pos, [&list](Move m) {
    list.push(m);
    return false;
  });
  return list;
}

MoveList pseudo_legal_moves(const Position& pos) {
  MoveList list;
  generate<false>(pos, [&list](Move m) {
    list.push(m);
    return false;
  });
  return list;
}

bool has_legal_move(const Position& pos) {
  return generate<true>(pos, [](Move) { return true; });
}

bool is_checkmate(const Position& pos) { return pos.in_check() && !has_legal_move(pos); }

bool is_stalemate(const Position& pos) { return !pos.in_check() && !has_legal_move(pos); }

}  // namespace cqlindex::chess
