// Rule: `move` filters that need a kind of move the build records per game: promotion (to the designated
// piece kinds), castling, en passant (`enpassant`, `enpassantsquare S`), null moves. Moves are those played on the mainline (the move to a
// child or, with `previous`, the move that led here); `legal`/`pseudolegal` moves need not be played, so
// they are not bounded. from/to/capture parameters only narrow a move, so they are ignored (superset).
#include "planner/planner.h"

namespace cqlindex::planner {

namespace {

std::optional<Roaring> flag_games(Planner& p, store::keys::GameFlag f) {
  return p.postings(store::Family::Flags, store::keys::game_flag_key(f));
}

}  // namespace

PlanNode plan_move(Planner& p, const cql::Node& node, const Frame& frame) {
  using store::keys::GameFlag;
  if (node.has(cql::Option::Legal) || node.has(cql::Option::PseudoLegal) || node.has(cql::Option::Count))
    return all_games(node, "legal/pseudolegal moves need not be played");
  std::vector<std::pair<std::string, std::optional<Roaring>>> parts;  // conjunction of move kinds
  std::vector<GameFlag> any_of;
  if (const cql::Node* promote = node.child(cql::Role::Promote)) {
    const uint16_t pieces = seen_pieces(promote->pieces, frame);
    // piece_bits: K Q R B N P (white) k q r b n p (black); the flag does not record the colour
    const uint16_t kinds = (pieces & 0x3f) | ((pieces >> 6) & 0x3f);
    std::vector<GameFlag> flags;
    if (kinds & 0x2) flags.push_back(GameFlag::PromoteQueen);
    if (kinds & 0x4) flags.push_back(GameFlag::PromoteRook);
    if (kinds & 0x8) flags.push_back(GameFlag::PromoteBishop);
    if (kinds & 0x10) flags.push_back(GameFlag::PromoteKnight);
    if (flags.empty() || (kinds & ~0x1eu)) {
      flags = {GameFlag::PromoteQueen, GameFlag::PromoteRook, GameFlag::PromoteBishop, GameFlag::PromoteKnight};
    }
    Roaring u;
    for (GameFlag f : flags) {
      auto g = flag_games(p, f);
      if (!g) return bounded(node, "move kind", "flags", std::nullopt);
      u |= *g;
    }
    parts.emplace_back("promotion", std::move(u));
  }
  const bool mirrored = frame.any_symmetry || frame.any_square;  // a board image may swap the castling sides
  if (node.has(cql::Option::Castle) || ((node.has(cql::Option::OO) || node.has(cql::Option::OOO)) && mirrored)) {
    auto a = flag_games(p, GameFlag::CastleShort), b = flag_games(p, GameFlag::CastleLong);
    if (!a || !b) return bounded(node, "move kind", "flags", std::nullopt);
    parts.emplace_back("castling", *a | *b);
  } else if (node.has(cql::Option::OO)) {
    parts.emplace_back("castle=O-O", flag_games(p, GameFlag::CastleShort));
  } else if (node.has(cql::Option::OOO)) {
    parts.emplace_back("castle=O-O-O", flag_games(p, GameFlag::CastleLong));
  }
  if (node.has(cql::Option::EnPassant) || node.child(cql::Role::EnPassantSquare)) parts.emplace_back("enpassant", flag_games(p, GameFlag::EnPassant));
  if (node.has(cql::Option::Null)) parts.emplace_back("nullmove", flag_games(p, GameFlag::NullMove));
  if (parts.empty()) return all_games(node, "this move filter needs no recorded kind of move");
  std::optional<Roaring> acc;
  std::string rule = "move kind:";
  for (auto& [name, games] : parts) {
    if (!games) return bounded(node, "move kind", "flags", std::nullopt);
    rule += " " + name;
    acc = acc ? (*acc & *games) : *games;
  }
  return bounded(node, rule, "flags", std::move(acc));
}

}  // namespace cqlindex::planner
