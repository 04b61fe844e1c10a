// Move filters: `move` with its parameters, the dash (S--T, S[x]T) with targets, legal/pseudolegal dashes,
// countmoves, and the past-move filters (castle, enpassant, from, to ...) about the move that led here.
#include <cctype>
#include <bit>

#include "engine/chess/movegen.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/token.h"

namespace cqlindex::cql::eval {
namespace {

using namespace chess;

struct MoveFacts {
  Move move;
  Square from = SQ_NONE, to = SQ_NONE;
  Bitboard capture = 0;  // the captured piece's square
  Piece promoted = NO_PIECE;
  bool castle = false, king_side = false, en_passant = false, null = false;
  Square rook_from = SQ_NONE, rook_to = SQ_NONE;  // castling
};

// What CQL 6.2 counts as the origin (or destination) of a move inside a dash with sets `left` and `right`:
// a castling moves the king and the rook, each taken when the dash admits its own from-to pair.
Bitboard castle_from(const MoveFacts& f, Bitboard left, Bitboard right) {
  Bitboard r = 0;
  if (right & square_bb(f.to)) r |= left & square_bb(f.from);
  if (right & square_bb(f.rook_to)) r |= left & square_bb(f.rook_from);
  return r;
}
Bitboard castle_to(const MoveFacts& f, Bitboard left, Bitboard right) {
  Bitboard r = 0;
  if (left & square_bb(f.from)) r |= right & square_bb(f.to);
  if (left & square_bb(f.rook_from)) r |= right & square_bb(f.rook_to);
  return r;
}

// The legal (or pseudolegal) moves of `pos` as CQL 6.2 generates them: its pseudolegal generator keeps a castling
// only when it is legal (not in check, no attacked square on the king's way: A9, set-A q00349 and q00381).
MoveList generated_moves(const Position& pos, bool legal) {
  if (legal) return legal_moves(pos);
  MoveList list = pseudo_legal_moves(pos);
  int kept = 0;
  for (Move m : list)
    if (m.kind() != CASTLING || pos.is_legal(m)) list.moves[kept++] = m;
  list.size = kept;
  return list;
}

MoveFacts facts(const Position& before, Move m) {
  MoveFacts f;
  f.move = m;
  if (m.is_null()) {
    f.null = true;
    return f;
  }
  f.from = m.from();
  f.to = m.to();
  if (m.kind() == CASTLING) {
    f.castle = true;
    f.king_side = m.to() > m.from();
    f.to = Position::castling_king_to(m);
    f.rook_from = m.to();
    f.rook_to = Position::castling_rook_to(m);
  } else if (m.kind() == EN_PASSANT) {
    f.en_passant = true;
    f.capture = square_bb(m.to() - pawn_push(before.side_to_move()));
  } else if (!before.empty(m.to())) {
    f.capture = square_bb(m.to());
  }
  if (m.kind() == PROMOTION) f.promoted = make_piece(before.side_to_move(), m.promotion());
  return f;
}

// piece_bits of a piece type in either colour (promote R also matches a black promotion to a rook)
uint16_t piece_bit(Piece p) {
  static constexpr int kIndex[7] = {-1, 5, 4, 3, 2, 1, 0};
  int i = kIndex[type_of(p)];
  return uint16_t((1u << i) | (1u << (i + 6)));
}

// The piece_bits of the types a promotion string names, as CQL 6.2 reads it (pastmovenode.cpp): "" and "." any
// type, else each letter of PNBRQK in either case ("Q", "rb"; other characters name nothing); 0 when none.
uint16_t promotion_bits(const Op& name, Ctx& ctx) {
  Value x;
  if (!evaluate(name, ctx, x)) return 0;
  if (x.str.empty() || x.str == ".") return piece_bits::kWhite | piece_bits::kBlack;
  static const std::string kLetters = "PNBRQK";
  uint16_t bits = 0;
  for (char c : x.str) {
    size_t i = kLetters.find(char(std::toupper((unsigned char)c)));
    if (i != std::string::npos) bits |= piece_bit(make_piece(WHITE, PieceType(i + 1)));
  }
  return bits;
}

struct MoveFilter {
  const Op* op;
  Bitboard from = ~Bitboard(0), to = ~Bitboard(0), capture = ~Bitboard(0), en_passant = ~Bitboard(0);
  bool need_capture = false, need_en_passant = false;  // en_passant: where the pawn taken en passant stood

  bool load(Ctx& ctx) {
    if (op->kids[0]) { from = set_of(*op->kids[0], ctx); if (!from) return false; }
    if (op->kids[1]) { to = set_of(*op->kids[1], ctx); if (!to) return false; }
    if (op->kids[2]) { capture = set_of(*op->kids[2], ctx); need_capture = true; if (!capture) return false; }
    if (op->kids[5]) { en_passant = set_of(*op->kids[5], ctx); need_en_passant = true; if (!en_passant) return false; }
    return true;
  }
  bool accepts(const MoveFacts& f, bool primary) const {
    const int64_t flags = op->b;
    if (f.null && !(flags & kMoveNull)) {
      // a played null move is a move for CQL 6.2 (`move`, `move primary`, `move from .` match it, repro-2 R34)
      // when nothing asked of the move needs squares or pieces
      const int64_t kinds = kMoveCastle | kMoveOO | kMoveOOO | kMoveEnPassant;
      if (from != ~Bitboard(0) || to != ~Bitboard(0) || need_capture || need_en_passant || op->kids[3] ||
          (flags & kinds))
        return false;
      return !((flags & kMovePrimary) && !primary) && !((flags & kMoveSecondary) && primary);
    }
    if (f.null != bool(flags & kMoveNull)) return false;
    if (f.null) return true;
    if (!(from & square_bb(f.from)) || !(to & square_bb(f.to))) return false;
    if (need_capture && !(f.capture & capture)) return false;
    if (op->kids[3] && (f.promoted == NO_PIECE || !(op->kids[3]->pieces & piece_bit(f.promoted)))) return false;
    if ((flags & kMoveCastle) && !f.castle) return false;
    if ((flags & kMoveOO) && !(f.castle && f.king_side)) return false;
    if ((flags & kMoveOOO) && !(f.castle && !f.king_side)) return false;
    if ((flags & kMoveEnPassant) && !f.en_passant) return false;
    if (need_en_passant && !(f.en_passant && (f.capture & en_passant))) return false;
    if ((flags & kMovePrimary) && !primary) return false;
    if ((flags & kMoveSecondary) && primary) return false;
    return true;
  }
  Bitboard value_of(const MoveFacts& f) const {
    if (op->text == "from") return f.null ? 0 : square_bb(f.from);
    if (op->text == "to") return f.null ? 0 : square_bb(f.to);
    if (op->text == "capture") return f.capture;
    return 0;
  }
};

bool eval_move_filter(const Op& op, Ctx& ctx, Value& v) {
  MoveFilter mf{&op};
  const GameTree& t = *ctx.tree;
  if (op.sub == kPrevious) {
    // with 'previous' the parameters are evaluated in the position before the move
    int p = t.parent(ctx.cur);
    if (p < 0) return false;
    int saved = ctx.cur;
    ctx.cur = p;
    bool ok = mf.load(ctx);
    ctx.cur = saved;
    if (!ok) return false;
  } else if (!mf.load(ctx)) {
    // `legal count` with an empty from/to/capture set counts no move: its value is 0 (CQL 6.2)
    if (!(op.b & kMoveCount)) return false;
    v.num = 0;
    return true;
  }
  bool any = false;
  Bitboard value = 0;
  int64_t count = 0;
  auto take = [&](const MoveFacts& f, bool primary) {
    if (!mf.accepts(f, primary)) return;
    any = true;
    ++count;
    value |= mf.value_of(f);
  };
  if (op.sub == kPlayed) {
    const pgn::NodeIndex first = ctx.game().nodes[ctx.cur].first_child;
    const Op* comment = op.kid(4);
    t.for_children(ctx.cur, [&](int c) {
      const int64_t before = count;
      take(facts(ctx.position(), ctx.game().nodes[c].move), pgn::NodeIndex(c) == first);
      // `move ... comment (...)`: the text is made and written at the position the move leads to
      if (comment && count > before) {
        Value ignored;
        evaluate_at(*comment, ctx, c, ignored);
      }
    });
  } else if (op.sub == kPrevious) {
    int p = t.parent(ctx.cur);
    if (p < 0) return false;
    take(facts(t.pos[p], ctx.game().nodes[ctx.cur].move), ctx.game().nodes[p].first_child == pgn::NodeIndex(ctx.cur));
    // `move previous ... comment (...)`: at the position the move led to, this one (CQL 6.2, movebase.cpp)
    if (any && op.kid(4)) {
      Value ignored;
      evaluate(*op.kid(4), ctx, ignored);
    }
  } else {
    MoveList list = generated_moves(ctx.position(), op.sub == kLegal);
    // CQL counts a promotion once per from-to pair (as if only one promotion piece were generated)
    for (Move m : list)
      if (m.promotion() == NO_PIECE_TYPE || m.promotion() == QUEEN) take(facts(ctx.position(), m), true);
  }
  if (op.b & kMoveCount) {
    v.num = count;
    return true;
  }
  if (op.type == ValueType::Set) {
    v.set = value;
    return any && value != 0;
  }
  return any;
}

// Dash: kids = left, right, promote, targets...
struct DashFilter {
  const Op* op;
  Bitboard from = ~Bitboard(0), to = ~Bitboard(0);
  uint16_t promote = 0;  // piece_bits the promotion may give (a piece set or a string naming the type)
  bool load(Ctx& ctx) {
    if (op->kids[0]) { from = set_of(*op->kids[0], ctx); if (!from) return false; }
    if (op->kids[1]) { to = set_of(*op->kids[1], ctx); if (!to) return false; }
    if (op->kids[2]) {
      promote = op->kids[2]->pieces;
      if (op->kids[2]->type == ValueType::String && !(promote = promotion_bits(*op->kids[2], ctx))) return false;
    }
    return true;
  }
  // legal: a move not played (legal/pseudolegal dashes, countmoves), where castling is the king's move only
  // (CQL 6.2: `countmoves legal r--.` does not count O-O)
  bool accepts(const MoveFacts& f, bool legal = false) const {
    // a null move passes only a bare dash (lacny.cql: `start:⊢ ―― nullmove`), having no squares to test
    if (f.null) return !op->kids[0] && !op->kids[1] && !op->kids[2] && !op->flag;
    bool squares;
    // a capture dash names the captured piece's square (en passant: not the destination)
    if (op->flag) squares = f.capture && (from & square_bb(f.from)) && (to & f.capture);
    else if (f.castle && !legal) squares = castle_from(f, from, to) != 0;
    else squares = (from & square_bb(f.from)) && (to & square_bb(f.to));
    if (!squares) return false;
    if (op->kids[2] && (f.promoted == NO_PIECE || !(promote & piece_bit(f.promoted)))) return false;
    return true;
  }
};

// Whether the dash's targets all hold at `child`, read with the dash's sets as the from/to masks (true when it
// has none); the comments they write stay only when they do.
bool dash_targets_hold(const Op& dash, const DashFilter& df, Ctx& ctx, int child, Value& v) {
  const size_t nkids = dash.kids.size();
  if (nkids == 3) return true;
  const int saved = ctx.cur;
  const size_t mark = ctx.comments.size();
  const auto outer = ctx.dash_masks;
  ctx.cur = child;
  ctx.dash_masks = {df.from, df.to};
  bool ok = true;
  for (size_t i = 3; i < nkids && ok; ++i) ok = evaluate(*dash.kids[i], ctx, v);
  ctx.dash_masks = outer;
  ctx.cur = saved;
  if (!ok) ctx.comments.resize(mark);
  return ok;
}

bool eval_dash(const Op& op, Ctx& ctx, Value& v) {
  DashFilter df{&op};
  if (!df.load(ctx)) return false;
  bool any = false;
  ctx.tree->for_children(ctx.cur, [&](int c) {
    if (any || !df.accepts(facts(ctx.position(), ctx.game().nodes[c].move))) return;
    any = dash_targets_hold(op, df, ctx, c, v);
  });
  return any;
}

// Returns whether move f is of the kind a past-move filter names (castle, o-o, o-o-o, enpassant, nullmove);
// false for the others. Serves the past-move filters and the target of a legal dash, where only castle, o-o,
// o-o-o and enpassant can be asked of a move that was not played (Parser::check_legal_dash refuses the others).
bool legal_target_holds(const Op& target, const MoveFacts& f) {
  switch (target.sub) {
    case kCastle: return f.castle;
    case kOO: return f.castle && f.king_side;
    case kOOO: return f.castle && !f.king_side;
    case kEnPassant: return f.en_passant;
    case kNullMove: return f.null;
    default: return false;
  }
}

bool eval_legal_dash(const Op& op, Ctx& ctx, Value& v, int64_t* count) {
  const Op& dash = *op.kids[0];
  DashFilter df{&dash};
  if (!df.load(ctx)) {
    if (!count) return false;
    *count = 0;  // no piece to move (an empty from-set): CQL 6.2 counts 0 (`countmoves R--` without a rook)
    return true;
  }
  auto targets_hold = [&](const MoveFacts& f) {
    for (size_t i = 3; i < dash.kids.size(); ++i)
      if (!legal_target_holds(*dash.kids[i], f)) return false;
    return true;
  };
  int64_t n = 0;
  Bitboard dest = 0;
  if (op.sub == kPlayed) {
    // countmoves of a played dash counts the moves whose targets hold after them (CQL 6.2, dashnode.cpp)
    Value scratch;
    ctx.tree->for_children(ctx.cur, [&](int c) {
      MoveFacts f = facts(ctx.position(), ctx.game().nodes[c].move);
      if (df.accepts(f) && dash_targets_hold(dash, df, ctx, c, scratch)) { ++n; dest |= square_bb(f.to); }
    });
  } else {
    MoveList list = generated_moves(ctx.position(), op.sub == kLegal);
    for (Move m : list) {
      // as for `move legal`: a promotion counts once per from-to pair (CQL 6.2, forced-moves-*.pgn); a legal dash
      // has no promotion of its own (Parser::check_legal_dash)
      if (m.promotion() != NO_PIECE_TYPE && m.promotion() != QUEEN) continue;
      MoveFacts f = facts(ctx.position(), m);
      if (df.accepts(f, true) && targets_hold(f)) { ++n; dest |= square_bb(f.to); }
    }
  }
  if (count) {
    *count = n;
    return true;
  }
  v.set = dest;
  return dest != 0;
}

bool eval_past_move(const Op& op, Ctx& ctx, Value& v) {
  const GameTree& t = *ctx.tree;
  int p = t.parent(ctx.cur);
  if (p < 0) {
    v.set = 0;
    return false;
  }
  MoveFacts f = facts(t.pos[p], ctx.game().nodes[ctx.cur].move);
  if (op.code == OpCode::EnPassantSquare) {
    v.set = f.en_passant ? f.capture : 0;
    return v.set != 0;
  }
  if (op.code == OpCode::FromSquare || op.code == OpCode::ToSquare) {
    const bool from = op.code == OpCode::FromSquare;
    if (f.null) v.set = 0;
    else if (f.castle) v.set = (from ? castle_from : castle_to)(f, ctx.dash_masks[0], ctx.dash_masks[1]);
    else v.set = square_bb(from ? f.from : f.to);
    return v.set != 0;
  }
  if (op.sub == kPrimary) return ctx.game().nodes[p].first_child == pgn::NodeIndex(ctx.cur);
  if (op.sub == kSecondary) return ctx.game().nodes[p].first_child != pgn::NodeIndex(ctx.cur);
  return legal_target_holds(op, f);
}

}  // namespace

bool dash_admits(const Op& dash, Ctx& ctx, int child, int castle_pieces, uint64_t masks[2]) {
  DashFilter df{&dash};
  if (!df.load(ctx)) return false;
  const MoveFacts f = facts(ctx.position(), ctx.game().nodes[child].move);
  if (f.castle) {
    // only the castling pieces in focus make the move: the others' squares leave the dash's sets
    if (!(castle_pieces & 1)) { df.from &= ~square_bb(f.from); df.to &= ~square_bb(f.to); }
    if (!(castle_pieces & 2)) { df.from &= ~square_bb(f.rook_from); df.to &= ~square_bb(f.rook_to); }
  }
  masks[0] = df.from;
  masks[1] = df.to;
  return df.accepts(f);
}

bool eval_move(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::Move: return eval_move_filter(op, ctx, v);
    case OpCode::Dash: return eval_dash(op, ctx, v);
    case OpCode::LegalDash: return eval_legal_dash(op, ctx, v, nullptr);
    case OpCode::CountMoves: {
      int64_t n = 0;
      if (!eval_legal_dash(op, ctx, v, &n)) return false;
      v.num = n;
      return true;
    }
    default: return eval_past_move(op, ctx, v);
  }
}

}  // namespace cqlindex::cql::eval
