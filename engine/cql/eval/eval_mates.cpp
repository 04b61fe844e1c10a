// puremate, modelmate, idealmate and purestalemate, modelstalemate, idealstalemate: the problemists' mate
// purity tests as CQL 6.2 defines them (its built-in mate functions), for whichever side is mated. The
// value is the set of participating pieces.
//
// Pure mate (the mated side to move, in checkmate; "field" = the squares next to its king):
//  - each empty or mating-side square of the field is guarded by exactly one mating piece (a checking
//    line piece also guards the field square just behind the king);
//  - each own piece in the field is unguarded, or, with a single check, guarded once, pinned, and able to
//    move (pseudolegally) onto the checker or between it and the king (or to capture en passant);
//  - in a double check every checker is needed: for each checker some unpinned non-king defender attacks
//    the other checker or a square between it and the king.
// Model mate adds: every mating Q, R, B, N participates. Ideal mate: every piece of both sides participates.
// Pure stalemate: each empty or mating-side field square is attacked once, each pinned own piece in the field
// attacked once, each unpinned own piece in the field not at all.
#include <bit>
#include <vector>

#include "engine/chess/attacks.h"
#include "engine/chess/movegen.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {
namespace {

using namespace chess;

constexpr int kVec[8][2] = {{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

int step(int s, int dir) {
  int f = (s & 7) + kVec[dir][0], r = (s >> 3) + kVec[dir][1];
  if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
  return r * 8 + f;
}

bool slides_along(Piece pc, int dir) {
  PieceType t = type_of(pc);
  return t == QUEEN || (dir >= 4 ? t == BISHOP : t == ROOK);
}

// Squares the piece on s attacks (with the current occupancy).
Bitboard attacks_from(const Position& p, Square s) {
  Piece pc = p.piece_on(s);
  if (pc == NO_PIECE) return 0;
  if (type_of(pc) == PAWN) return pawn_attacks(color_of(pc), s);
  return attacks_of(type_of(pc), s, p.pieces());
}

// The squares of `last` reached by a line piece of `first` whose line runs over empty squares to a square of
// `middle` and from there over empty squares to `last` (CQL's chained attack arrows `first->middle->last`).
Bitboard attack_chain(const Position& p, Bitboard first, Bitboard middle, Bitboard last) {
  Bitboard out = 0;
  for (Bitboard b = first & p.pieces(); b; b &= b - 1) {
    const Square s0 = lsb(b);
    for (int d = 0; d < 8; ++d) {
      if (!slides_along(p.piece_on(s0), d)) continue;
      bool past_middle = false;
      for (int s = step(s0, d); s >= 0; s = step(s, d)) {
        const Bitboard bit = square_bb(Square(s));
        if ((past_middle ? last : middle) & bit) {
          if (past_middle) {
            out |= bit;
            break;
          }
          past_middle = true;
        } else if (!p.empty(Square(s))) {
          break;
        }
      }
    }
  }
  return out;
}

struct Pin {
  Square pinner, pinned;
};

// Every pin on the board: a line piece, then an enemy piece, then that piece's own king.
std::vector<Pin> all_pins(const Position& p) {
  std::vector<Pin> pins;
  for (Bitboard b = p.pieces(); b; b &= b - 1) {
    const Square s = lsb(b);
    const Piece slider = p.piece_on(s);
    for (int d = 0; d < 8; ++d) {
      if (!slides_along(slider, d)) continue;
      int first = -1, second = -1;
      for (int t = step(s, d); t >= 0; t = step(t, d)) {
        if (p.empty(Square(t))) continue;
        if (first < 0) first = t;
        else {
          second = t;
          break;
        }
      }
      if (second < 0) continue;
      const Piece pinned = p.piece_on(Square(first)), target = p.piece_on(Square(second));
      if (color_of(pinned) == color_of(slider) || target != make_piece(color_of(pinned), KING)) continue;
      pins.push_back({s, Square(first)});
    }
  }
  return pins;
}

// Squares strictly between any square of a and any of b on a shared line.
Bitboard between_sets(Bitboard a, Bitboard b) {
  Bitboard out = 0;
  for (; a; a &= a - 1)
    for (Bitboard c = b; c; c &= c - 1)
      if (lsb(a) != lsb(c) && line_through(lsb(a), lsb(c))) out |= between_squares(lsb(a), lsb(c));
  return out;
}

// What a mate or stalemate position looks like from the mated side `def`.
struct Field {
  const Position& p;
  Color att, def;
  Square king;
  Bitboard field, own, enemy, empty, checkers, pinned = 0, pinners = 0;
  std::vector<Pin> pins;

  Field(const Position& pos, Color d) : p(pos), att(~d), def(d), king(pos.king_square(d)) {
    field = king_attacks(king);
    own = p.pieces(def);
    enemy = p.pieces(att);
    empty = ~p.pieces();
    checkers = 0;
    for (Bitboard b = enemy; b; b &= b - 1)
      if (attacks_from(p, lsb(b)) & square_bb(king)) checkers |= square_bb(lsb(b));
    pins = all_pins(p);
    for (const Pin& pin : pins) {
      pinned |= square_bb(pin.pinned);
      pinners |= square_bb(pin.pinner);
    }
  }
  // Mating pieces attacking s.
  int attackers(Square s) const {
    int n = 0;
    for (Bitboard b = enemy; b; b &= b - 1) n += (attacks_from(p, lsb(b)) & square_bb(s)) != 0;
    return n;
  }
};

// Field squares the mating piece on x guards: those it attacks, and the one behind the king on its check line.
Bitboard guarded_by(const Field& f, Square x) {
  return (f.field & attacks_from(f.p, x)) | attack_chain(f.p, square_bb(x), square_bb(f.king), f.field);
}

// The participating pieces if the position is a pure mate of `def` (0 if not); model/ideal narrow it.
Bitboard pure_mate(const Position& p, Color def, MatePurity kind) {
  if (p.side_to_move() != def || !is_checkmate(p)) return 0;
  const Field f(p, def);
  Bitboard guards[64] = {};
  for (Bitboard b = f.enemy; b; b &= b - 1) guards[lsb(b)] = guarded_by(f, lsb(b));
  auto guard_count = [&](Square s) {
    int n = 0;
    for (Bitboard b = f.enemy; b; b &= b - 1) n += (guards[lsb(b)] & square_bb(s)) != 0;
    return n;
  };
  const int n_checkers = popcount(f.checkers);
  for (Bitboard b = f.field & (f.empty | f.enemy); b; b &= b - 1)
    if (guard_count(lsb(b)) != 1) return 0;

  const MoveList moves = pseudo_legal_moves(p);
  const Bitboard check_line = f.checkers | between_sets(f.checkers, square_bb(f.king));
  for (Bitboard b = f.field & f.own; b; b &= b - 1) {
    const Square s = lsb(b);
    const int g = guard_count(s);
    if (g == 0) continue;
    if (n_checkers > 1 || g > 1 || !(f.pinned & square_bb(s))) return 0;
    bool can_refute = false;
    for (const Move& m : moves)
      if (m.from() == s && ((check_line & square_bb(m.to())) || m.kind() == EN_PASSANT)) can_refute = true;
    if (!can_refute) return 0;
  }
  if (n_checkers > 1) {
    const Bitboard free_defenders = f.own & ~f.pinned & ~square_bb(f.king);
    for (Bitboard c = f.checkers; c; c &= c - 1) {
      const Bitboard other = f.checkers & ~square_bb(lsb(c));
      const Bitboard refutations = other | between_sets(other, square_bb(f.king));
      bool needed = false;
      for (Bitboard d = free_defenders; d; d &= d - 1)
        if (attacks_from(p, lsb(d)) & refutations) needed = true;
      if (!needed) return 0;
    }
  }

  // participants
  const Bitboard enemy_king = p.pieces(f.att, KING);
  const Bitboard refuter_squares = enemy_king | check_line;
  Bitboard refuters = 0;
  for (const Move& m : moves)
    if (refuter_squares & square_bb(m.to())) refuters |= square_bb(m.from());
  Bitboard attacking = 0;
  for (Bitboard b = f.enemy; b; b &= b - 1) {
    const Square x = lsb(b);
    bool takes_part = (f.checkers & square_bb(x)) || (attacks_from(p, x) & f.field) || (f.pinned & square_bb(x));
    if (!takes_part && n_checkers == 1) {
      for (const Pin& pin : f.pins)
        if (pin.pinner == x && (refuters & square_bb(pin.pinned))) takes_part = true;
      if (attack_chain(p, refuters, square_bb(x), refuter_squares)) takes_part = true;
    }
    if (takes_part) attacking |= square_bb(x);
  }
  Bitboard defending = 0;
  for (Bitboard b = f.own; b; b &= b - 1) {
    const Square x = lsb(b);
    const bool takes_part = x == f.king || (f.field & square_bb(x)) ||
                            attack_chain(p, f.own, square_bb(x), enemy_king) ||
                            (n_checkers == 1 && attack_chain(p, f.own, square_bb(x), refuter_squares));
    if (takes_part) defending |= square_bb(x);
  }
  const Bitboard officers = p.pieces(f.att, QUEEN) | p.pieces(f.att, ROOK) | p.pieces(f.att, BISHOP) |
                            p.pieces(f.att, KNIGHT);
  if (kind == kMateModel && (officers & ~attacking)) return 0;
  if (kind == kMateIdeal && (attacking != f.enemy || defending != f.own)) return 0;
  return attacking | defending;
}

// The participating pieces (mating side's, plus every piece of the stalemated side) of a pure stalemate.
Bitboard pure_stalemate(const Position& p, Color def, MatePurity kind) {
  if (p.side_to_move() != def || !is_stalemate(p)) return 0;
  const Field f(p, def);
  for (Bitboard b = f.field & (f.empty | f.enemy); b; b &= b - 1)
    if (f.attackers(lsb(b)) != 1) return 0;
  for (Bitboard b = f.field & f.own; b; b &= b - 1)
    if (f.attackers(lsb(b)) != ((f.pinned & square_bb(lsb(b))) ? 1 : 0)) return 0;
  Bitboard attacking = (f.pinned | f.pinners) & f.enemy;
  for (Bitboard b = f.enemy; b; b &= b - 1)
    if (attacks_from(p, lsb(b)) & f.field) attacking |= square_bb(lsb(b));
  const Bitboard officers = p.pieces(f.att, QUEEN) | p.pieces(f.att, ROOK) | p.pieces(f.att, BISHOP) |
                            p.pieces(f.att, KNIGHT);
  if (kind == kMateModel && (officers & ~attacking)) return 0;
  if (kind == kMateIdeal && attacking != f.enemy) return 0;
  return attacking | f.own;
}

}  // namespace

// op.sub: MatePurity (op.h); op.flag: stalemate.
bool eval_mates(const Op& op, Ctx& ctx, Value& v) {
  const Position& p = ctx.position();
  const Color def = p.side_to_move();
  const auto kind = MatePurity(op.sub);
  v.set = op.flag ? pure_stalemate(p, def, kind) : pure_mate(p, def, kind);
  return v.set != 0;
}

}  // namespace cqlindex::cql::eval
