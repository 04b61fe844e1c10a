// Set filters: piece designators, set algebra, attacks, between, ray, pin, light/dark, directions, pawn
// structure and power. Every set is a 64-bit bitboard (a1 = bit 0).
#include <algorithm>
#include <bit>

#include "engine/chess/attacks.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/token.h"

namespace cqlindex::cql::eval {

using namespace chess;

// The squares holding the piece kinds of `bits` (token.h piece_bits: KQRBNPkqrbnp_).
Bitboard pieces_of(const Position& p, uint16_t bits) {
  static constexpr PieceType kTypes[6] = {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN};
  Bitboard s = 0;
  if ((bits & piece_bits::kWhite) == piece_bits::kWhite) s |= p.pieces(WHITE);
  else
    for (unsigned b = bits & 0x3f; b; b &= b - 1) s |= p.pieces(WHITE, kTypes[std::countr_zero(b)]);
  if ((bits & piece_bits::kBlack) == piece_bits::kBlack) s |= p.pieces(BLACK);
  else
    for (unsigned b = (bits >> 6) & 0x3f; b; b &= b - 1) s |= p.pieces(BLACK, kTypes[std::countr_zero(b)]);
  if (bits & piece_bits::kEmpty) s |= ~p.pieces();
  return s;
}

namespace {

constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAULL;
constexpr int kVec[8][2] = {{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

// Squares the piece on s attacks (with the current occupancy).
Bitboard attacks_from(const Position& p, Square s) {
  Piece pc = p.piece_on(s);
  if (pc == NO_PIECE) return 0;
  if (type_of(pc) == PAWN) return pawn_attacks(color_of(pc), s);
  return attacks_of(type_of(pc), s, p.pieces());
}

bool slider_moves_along(Piece pc, int dir) {
  PieceType t = type_of(pc);
  bool diagonal = dir >= 4;
  return t == QUEEN || (diagonal ? t == BISHOP : t == ROOK);
}

int step(int s, int dir) {
  int f = (s & 7) + kVec[dir][0], r = (s >> 3) + kVec[dir][1];
  if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
  return r * 8 + f;
}

Bitboard ray_value(const Op& op, Ctx& ctx) {
  const Position& p = ctx.position();
  const size_t n = op.kids.size();
  Bitboard sets[16] = {};
  if (n > 16) return 0;
  for (size_t i = 0; i < n; ++i) {
    sets[i] = set_of(*op.kids[i], ctx);
  }
  Bitboard result = 0;
  for (Bitboard b = sets[0]; b; b &= b - 1) {
    int s0 = std::countr_zero(b);
    for (int d = 0; d < 8; ++d) {
      if (!(op.sub & (1 << d))) continue;
      if (op.flag && (p.empty(Square(s0)) || !slider_moves_along(p.piece_on(Square(s0)), d))) continue;
      int s = s0;
      size_t i = 1;
      while (i < n) {
        s = step(s, d);
        if (s < 0) break;
        if (sets[i] & (Bitboard(1) << s)) {
          if (++i == n) result |= Bitboard(1) << s;
        } else if (!p.empty(Square(s))) {
          break;
        }
      }
    }
  }
  return result;
}

Bitboard pin_value(const Op& op, Ctx& ctx) {
  const Position& p = ctx.position();
  Bitboard from = p.pieces(), through = p.pieces(), to = p.pieces(KING);
  if (op.kids[0]) from = set_of(*op.kids[0], ctx);
  if (op.kids[1]) through = set_of(*op.kids[1], ctx);
  if (op.kids[2]) to = set_of(*op.kids[2], ctx);
  const Bitboard occupied = p.pieces();
  Bitboard r_from = 0, r_through = 0, r_to = 0;
  // a slider pins the first piece on one of its lines when that piece is the other side's; the pin goes to the
  // squares behind it up to the next piece, when that one is of the pinned piece's side, and to the empty
  // squares before it (CQL 6.2 takes an empty square as a target: `pin to _`)
  const Bitboard sliders = p.pieces(BISHOP) | p.pieces(ROOK) | p.pieces(QUEEN);
  for (Bitboard b = from & sliders; b; b &= b - 1) {
    const Square s = Square(std::countr_zero(b));
    const Piece slider = p.piece_on(s);
    const PieceType type = type_of(slider);
    const Bitboard seen = attacks_of(type, s, occupied);
    for (Bitboard first = seen & p.pieces(~color_of(slider)) & through; first; first &= first - 1) {
      const Square pinned = Square(std::countr_zero(first));
      // lifting the pinned piece opens its line only: the next piece there is the one behind it
      const Bitboard behind = attacks_of(type, s, occupied ^ square_bb(pinned)) & ~seen &
                              (p.pieces(~color_of(slider)) | ~occupied) & to;
      if (!behind) continue;
      r_from |= square_bb(s);
      r_through |= square_bb(pinned);
      r_to |= behind;
    }
  }
  return op.sub == kPinFrom ? r_from : op.sub == kPinTo ? r_to : r_through;
}

// reverse: step the opposite way (a negative distance computed at run time, chameleon.cql `right DeltaFile`)
Bitboard direction_value(const Op& op, Bitboard from, int64_t lo, int64_t hi, bool reverse = false) {
  static constexpr int kOpposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};
  const uint8_t mask = op.sub;  // the directions (directions.h), resolved from the name by compile
  Bitboard out = 0;
  for (Bitboard b = from; b; b &= b - 1) {
    int s0 = std::countr_zero(b);
    if (lo <= 0) out |= Bitboard(1) << s0;  // distance 0: the square itself
    for (int d = 0; d < 8; ++d) {
      if (!(mask & (1 << d))) continue;
      int s = s0;
      for (int k = 1; k <= 7; ++k) {
        s = step(s, reverse ? kOpposite[d] : d);
        if (s < 0) break;
        if (k >= lo && (hi < 0 || k <= hi)) out |= Bitboard(1) << s;
      }
    }
  }
  return out;
}

Bitboard pawn_structure(const Position& p, uint8_t kind) {
  Bitboard out = 0;
  for (Color c : {WHITE, BLACK}) {
    Bitboard own = p.pieces(c, PAWN), enemy = p.pieces(~c, PAWN);
    for (Bitboard b = own; b; b &= b - 1) {
      Square s = Square(std::countr_zero(b));
      int f = file_of(s);
      Bitboard adjacent = (f > 0 ? file_bb(File(f - 1)) : 0) | (f < 7 ? file_bb(File(f + 1)) : 0);
      bool in = false;
      switch (kind) {
        case kConnected: in = own & adjacent; break;
        case kIsolated: in = !(own & adjacent); break;
        case kDoubled: in = own & file_bb(s) & ~square_bb(s); break;
        default: {
          Bitboard ahead = 0;
          int r = rank_of(s);
          for (int rr = 0; rr < 8; ++rr)
            if (c == WHITE ? rr > r : rr < r) ahead |= rank_bb(Rank(rr));
          in = !(enemy & ahead & (adjacent | file_bb(s)));
        }
      }
      if (in) out |= square_bb(s);
    }
  }
  return out;
}

}  // namespace

bool eval_set(const Op& op, Ctx& ctx, Value& v) {
  Value l, r;
  const Position& p = ctx.position();
  switch (op.code) {
    case OpCode::Squares: v.set = op.squares; return v.set != 0;
    case OpCode::PieceSet: v.set = pieces_of(p, op.pieces) & op.squares; return v.set != 0;
    case OpCode::Union:
      v.set = set_of(*op.kids[0], ctx) | set_of(*op.kids[1], ctx);
      return v.set != 0;
    case OpCode::Intersect:
      l.set = set_of(*op.kids[0], ctx);
      v.set = l.set ? l.set & set_of(*op.kids[1], ctx) : 0;
      return v.set != 0;
    case OpCode::Complement:
      v.set = ~set_of(*op.kids[0], ctx);
      return v.set != 0;
    case OpCode::Subset:
      return (set_of(*op.kids[0], ctx) & ~set_of(*op.kids[1], ctx)) == 0;
    case OpCode::Attacks: {
      l.set = set_of(*op.kids[0], ctx);
      r.set = set_of(*op.kids[1], ctx);
      Bitboard out = 0;
      for (Bitboard b = l.set & p.pieces(); b; b &= b - 1) {
        Square s = Square(std::countr_zero(b));
        if (attacks_from(p, s) & r.set) out |= square_bb(s);
      }
      v.set = out;
      return out != 0;
    }
    case OpCode::AttackedBy: {
      l.set = set_of(*op.kids[0], ctx);
      r.set = set_of(*op.kids[1], ctx);
      Bitboard attacked = 0;
      for (Bitboard b = r.set & p.pieces(); b; b &= b - 1) attacked |= attacks_from(p, Square(std::countr_zero(b)));
      v.set = l.set & attacked;
      return v.set != 0;
    }
    case OpCode::Between: {
      l.set = set_of(*op.kids[0], ctx);
      r.set = set_of(*op.kids[1], ctx);
      Bitboard out = 0;
      for (Bitboard a = l.set; a; a &= a - 1)
        for (Bitboard b = r.set; b; b &= b - 1) {
          Square x = Square(std::countr_zero(a)), y = Square(std::countr_zero(b));
          if (x != y && line_through(x, y)) out |= between_squares(x, y);
        }
      v.set = out;
      return out != 0;
    }
    case OpCode::Ray: v.set = ray_value(op, ctx); return v.set != 0;
    case OpCode::Pin: v.set = pin_value(op, ctx); return v.set != 0;
    case OpCode::LightDark:
      l.set = set_of(*op.kids[0], ctx);
      v.set = l.set & (op.flag ? kLightSquares : ~kLightSquares);
      return v.set != 0;
    case OpCode::Direction: {
      int64_t lo = op.a, hi = op.b;
      if (op.kids.size() == 3) {  // distances computed at run time
        Value a, b;
        if (!evaluate(*op.kids[1], ctx, a) || !evaluate(*op.kids[2], ctx, b)) return false;
        lo = a.num;
        hi = b.num;
        if (hi < lo) return false;
        l.set = set_of(*op.kids[0], ctx);
        v.set = 0;
        // a negative distance goes the other way: `right -1` is `left 1`
        if (hi >= 0) v.set |= direction_value(op, l.set, std::max<int64_t>(lo, 0), hi);
        if (lo < 0) v.set |= direction_value(op, l.set, std::max<int64_t>(-hi, 1), -lo, /*reverse=*/true);
        return v.set != 0;
      }
      l.set = set_of(*op.kids[0], ctx);
      v.set = direction_value(op, l.set, lo, hi);
      return v.set != 0;
    }
    case OpCode::PawnStructure: v.set = pawn_structure(p, op.sub); return v.set != 0;
    case OpCode::Power: {
      l.set = set_of(*op.kids[0], ctx);
      static constexpr int kValue[7] = {0, 1, 3, 3, 5, 9, 0};
      int64_t sum = 0;
      for (Bitboard b = l.set & p.pieces(); b; b &= b - 1) sum += kValue[type_of(p.piece_on(Square(std::countr_zero(b))))];
      v.num = sum;
      return true;
    }
    default: return false;
  }
}

}  // namespace cqlindex::cql::eval
