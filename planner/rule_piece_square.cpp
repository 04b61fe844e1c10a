// Rule: a piece designator used as a filter holds at a position where one of its pieces stands on one of its
// squares, so the game must have had such a piece there at some mainline position: the union of the piecesq
// postings of every (piece, square) it names, after the frame's transforms.
#include "planner/planner.h"
#include "store/keys/piece_square_key.h"

namespace cqlindex::planner {

namespace {
constexpr char kPieceLetters[] = "KQRBNPkqrbnp";  // the order of cql piece_bits; the FEN letters of piecesq
constexpr uint16_t kEmptyBit = 0x1000;
}  // namespace

PlanNode plan_piece_set(Planner& p, const cql::Node& node, const Frame& frame) {
  if (node.pieces == 0) return all_games(node, "a square designator is never empty");
  if (node.pieces & kEmptyBit) return all_games(node, "empty squares are not indexed");
  const uint16_t pieces = seen_pieces(node.pieces, frame);
  const uint64_t squares = seen_squares(node.squares, frame);
  Roaring acc;
  for (int kind = 0; kind < 12; ++kind) {
    if (!(pieces >> kind & 1)) continue;
    // one scan of the (at most 64) keys of this piece: cheaper than a look-up per square
    const std::string letter(1, kPieceLetters[kind]);
    auto games = p.memoised("piecesq " + letter + std::to_string(squares), [&] {
      return p.union_where(store::Family::PieceSquare, letter, [&](std::string_view key) {
        const auto square = store::keys::piece_square_key_square(key);
        return square && (squares >> *square & 1) != 0;
      });
    });
    if (!games) return bounded(node, "piece on square", "piecesq", std::nullopt);
    acc |= *games;
  }
  return bounded(node, "piece on square", "piecesq", std::move(acc));
}

}  // namespace cqlindex::planner
