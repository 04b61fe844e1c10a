// The flags family's key layout.
#include "store/keys/flag_key.h"

namespace cqlindex::store::keys {

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

}  // namespace cqlindex::store::keys
