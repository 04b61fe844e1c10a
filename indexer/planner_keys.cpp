// Planner family key layouts.
#include "indexer/planner_keys.h"

namespace cqlindex::indexer {

Material material_of(const chess::Position& pos) {
  using namespace chess;
  Material m{};
  int i = 0;
  for (Color c : {WHITE, BLACK})
    for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT, PAWN}) m[i++] = static_cast<uint8_t>(popcount(pos.pieces(c, pt)));
  return m;
}

std::string material_key(const Material& m) { return std::string(m.begin(), m.end()); }

Material material_from_key(std::string_view key) {
  Material m{};
  for (size_t i = 0; i < m.size() && i < key.size(); ++i) m[i] = static_cast<uint8_t>(key[i]);
  return m;
}

std::string piece_square_key(chess::Piece piece, chess::Square square) {
  return {chess::piece_char(piece), static_cast<char>('a' + chess::file_of(square)),
          static_cast<char>('1' + chess::rank_of(square))};
}

std::string_view game_flag_key(GameFlag flag) {
  switch (flag) {
    case GameFlag::Check: return "check";
    case GameFlag::Mate: return "mate";
    case GameFlag::Stalemate: return "stalemate";
    case GameFlag::PromoteQueen: return "promote=Q";
    case GameFlag::PromoteRook: return "promote=R";
    case GameFlag::PromoteBishop: return "promote=B";
    case GameFlag::PromoteKnight: return "promote=N";
    case GameFlag::CastleShort: return "castle=O-O";
    case GameFlag::CastleLong: return "castle=O-O-O";
    case GameFlag::EnPassant: return "enpassant";
    case GameFlag::NullMove: return "nullmove";
    case GameFlag::PgnProblem: return "pgn-problem";
    case GameFlag::Count: break;
  }
  return "";
}

std::string tag_key(std::string_view name, TagKeyKind kind, std::string_view text) {
  std::string key(name);
  key += static_cast<char>(kind);
  key += text;
  return key;
}

std::string tag_key(std::string_view name, std::string_view value) {
  if (value.size() <= kMaxTagValueBytes) return tag_key(name, TagKeyKind::Whole, value);
  return tag_key(name, TagKeyKind::Truncated, value.substr(0, kMaxTagValueBytes));
}

}  // namespace cqlindex::indexer
