#include "engine/cql/similar/near_neighbourhood.h"

#include "engine/cql/similar/submission_db.h"

namespace cqlindex::cql::similar {
namespace {

using chess::Piece;

constexpr chess::PieceType kEditable[] = {chess::PAWN, chess::KNIGHT, chess::BISHOP, chess::ROOK, chess::QUEEN};

bool pawn_may_stand(int sq) { return sq >= 8 && sq < 56; }

// The occupied squares and the pawns of `b`.
std::pair<chess::Bitboard, chess::Bitboard> occupancy(const Board& b) {
  chess::Bitboard occupied = 0, pawns = 0;
  for (int sq = 0; sq < 64; ++sq) {
    if (b[sq] == chess::NO_PIECE) continue;
    occupied |= chess::square_bb(chess::Square(sq));
    if (chess::type_of(b[sq]) == chess::PAWN) pawns |= chess::square_bb(chess::Square(sq));
  }
  return {occupied, pawns};
}

// Calls visit on each board one square edit away from `b` on `squares`: a non-king piece added or put in place
// of another non-king piece, or a non-king piece removed; with `pawns_only`, only the edits that put a pawn
// there. `b` is restored.
void edits(Board& b, chess::Bitboard squares, bool pawns_only, const std::function<void(const Neighbour&)>& visit) {
  const auto [occupied, pawns] = occupancy(b);
  for (; squares; squares &= squares - 1) {
    const int sq = __builtin_ctzll(squares);
    const chess::Bitboard bit = chess::Bitboard(1) << sq;
    const Piece old = b[sq];
    if (old != chess::NO_PIECE && chess::type_of(old) == chess::KING) continue;
    for (chess::Color c : {chess::WHITE, chess::BLACK})
      for (chess::PieceType pt : kEditable) {
        if (pawns_only && pt != chess::PAWN) break;
        if (pt == chess::PAWN && !pawn_may_stand(sq)) continue;
        const Piece p = chess::make_piece(c, pt);
        if (p == old) continue;
        b[sq] = p;
        visit(Neighbour{b, occupied | bit, pt == chess::PAWN ? pawns | bit : pawns & ~bit});
      }
    if (old != chess::NO_PIECE && !pawns_only) {
      b[sq] = chess::NO_PIECE;
      visit(Neighbour{b, occupied & ~bit, pawns & ~bit});
    }
    b[sq] = old;
  }
}

// The square mask of file `f`.
constexpr chess::Bitboard file_mask(int f) { return chess::Bitboard(0x0101010101010101ULL) << f; }

}  // namespace

void for_each_neighbour(const chess::Position& pos, bool notransform,
                        const std::function<void(const Neighbour&)>& visit) {
  Board board = board_of(pos);
  visit(Neighbour{board, pos.pieces(), pos.pieces(chess::PAWN)});
  edits(board, ~chess::Bitboard(0), false, visit);
  if (notransform) return;
  Board image;
  const chess::Bitboard pawns = pos.pieces(chess::PAWN);
  if (!pawns) {
    for (const BoardTransform* t : transforms_for(true, false)) {
      if (t->identity() || !apply_transform(*t, board, image)) continue;
      edits(image, ~chess::Bitboard(0), true, visit);
    }
    return;
  }
  // The files beyond the board: a shift by k brings in k new files on one side.
  for (const BoardTransform* t : transforms_for(false, false)) {
    if (t->name.find(' ') != std::string::npos || t->identity()) continue;  // shifts only (mirroring: same keys)
    if (!apply_transform(*t, board, image)) continue;
    const bool right = t->name.starts_with("right^");
    // Only the file farthest out is new to this shift: the nearer ones a smaller shift brought in.
    edits(image, file_mask(right ? 0 : 7), false, visit);
    if (chess::popcount(pawns) == 1) {
      const int pawn_image = t->to[__builtin_ctzll(pawns)];
      const chess::Bitboard bit = chess::Bitboard(1) << pawn_image;
      const chess::Bitboard occupied = occupancy(image).first;
      Board without = image;
      for (chess::Color c : {chess::WHITE, chess::BLACK})
        for (chess::PieceType pt : kEditable) {
          if (pt == chess::PAWN) continue;
          without[pawn_image] = chess::make_piece(c, pt);
          visit(Neighbour{without, occupied, 0});
        }
      without[pawn_image] = chess::NO_PIECE;
      visit(Neighbour{without, occupied & ~bit, 0});
    }
  }
}

}  // namespace cqlindex::cql::similar
