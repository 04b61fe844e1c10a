#include "engine/yacpdb/replay.h"

#include "engine/chess/movegen.h"
#include "engine/yacpdb/diagram.h"

namespace cqlindex::yacpdb {

namespace {

using namespace chess;

PieceType piece_type_of(std::string_view code) {
  if (code.empty() || code == "P") return PAWN;
  if (code == "S" || code == "N") return KNIGHT;
  if (code == "B") return BISHOP;
  if (code == "R") return ROOK;
  if (code == "Q") return QUEEN;
  if (code == "K") return KING;
  return NO_PIECE_TYPE;
}

// Where the king lands: castling moves are encoded king -> rook.
Square destination(Move m) { return m.kind() == CASTLING ? Position::castling_king_to(m) : m.to(); }

class Replayer {
 public:
  Replayer(const Entry& entry, SolutionTree& tree) : entry_(entry), tree_(tree) {}

  void run(const SolutionParse& parse) {
    Color side = first_mover(entry_.stipulation);
    std::string why;
    const int en_passant = en_passant_option(entry_);
    auto diagram = diagram_position(entry_.pieces, side, &why, en_passant);
    TreeNode root;
    root.kind = TreeNode::Kind::Root;
    if (diagram) root.position = *diagram;
    tree_.add(-1, std::move(root));
    if (!diagram) return fail("diagram: " + why);
    // fairy rules would make orthodox replay wrong even where every move happens to be legal
    if (std::string condition = fairy_condition(entry_); !condition.empty())
      return fail("fairy condition '" + condition + "'");
    std::vector<DiagramPiece> previous = entry_.pieces;
    std::vector<int16_t> diagram_origins(64, -1);
    for (const DiagramPiece& d : entry_.pieces) diagram_origins[d.square] = static_cast<int16_t>(d.square);
    std::vector<int16_t> previous_origins = diagram_origins;
    std::vector<int> previous_imitators;  // the diagram has none: an Imitator condition failed above
    int twin_number = 0;
    for (const auto& twin : parse.root->children) {
      std::vector<DiagramPiece> pieces = twin->twin_continued ? previous : entry_.pieces;
      std::vector<int16_t> origins = twin->twin_continued ? previous_origins : diagram_origins;
      std::vector<int> imitators = twin->twin_continued ? previous_imitators : std::vector<int>{};
      for (const TwinCommand& c : twin->twin_commands) {
        if (!apply_twin_command(pieces, c, &why)) return fail(at(*twin) + why);
        if (c.kind == TwinCommand::Kind::Imitator) imitators = c.squares;
        follow_origins(origins, c, twin_number);
      }
      ++twin_number;
      previous_origins = origins;
      previous_imitators = imitators;
      // imitators move with every move (Popeye's [Ic5] after each move): orthodox replay would be wrong
      if (!imitators.empty()) return fail(at(*twin) + "twin " + twin->twin_label + ": imitators (a fairy condition)");
      auto pos = diagram_position(pieces, side, &why, en_passant);
      if (!pos) return fail(at(*twin) + "twin " + twin->twin_label + ": " + why);
      previous = pieces;
      TreeNode node;
      node.kind = TreeNode::Kind::Twin;
      node.label = twin->twin_label;
      node.position = *pos;
      node.origins = origins;
      int32_t index = tree_.add(0, std::move(node));
      for (const auto& child : twin->children)
        if (!replay(*child, index)) return;
    }
    if (parse.error) return fail(*parse.error);
    tree_.complete = true;
  }

 private:
  const Entry& entry_;
  SolutionTree& tree_;

  // Moves the piece identities the way a twin command moves the pieces.
  static void follow_origins(std::vector<int16_t>& origins, const TwinCommand& c, int twin_number) {
    switch (c.kind) {
      case TwinCommand::Kind::Move:
        origins[c.to] = origins[c.from];
        origins[c.from] = -1;
        break;
      case TwinCommand::Kind::Exchange: std::swap(origins[c.from], origins[c.to]); break;
      case TwinCommand::Kind::Add: origins[c.from] = static_cast<int16_t>(64 + 64 * twin_number + c.from); break;
      case TwinCommand::Kind::Remove: origins[c.from] = -1; break;
      case TwinCommand::Kind::Transform: {  // every piece keeps its identity on its new square
        std::vector<int16_t> moved(64, -1);
        for (int sq = 0; sq < 64; ++sq) moved[transformed_square(c.transform, sq)] = origins[sq];
        origins = std::move(moved);
        break;
      }
      case TwinCommand::Kind::Shift: {  // apply_twin_command checked that no piece leaves the board
        const int delta = c.to - c.from;
        std::vector<int16_t> moved(64, -1);
        for (int sq = 0; sq < 64; ++sq)
          if (origins[sq] >= 0 && sq + delta >= 0 && sq + delta < 64) moved[sq + delta] = origins[sq];
        origins = std::move(moved);
        break;
      }
      case TwinCommand::Kind::PolishType:  // every unit keeps its identity (and square) in its new colour
      case TwinCommand::Kind::Imitator:
      case TwinCommand::Kind::Other: break;
    }
  }

  static std::string at(const SolutionNode& n) {
    return n.line ? std::to_string(n.line) + ":" + std::to_string(n.column) + ": " : std::string();
  }

  void fail(const std::string& message) {
    tree_.complete = false;
    if (tree_.error.empty()) tree_.error = message;
  }

  bool replay(const SolutionNode& n, int32_t parent) {
    // copy: tree_.nodes may reallocate while children are added
    Position pos = tree_.nodes[parent].position;
    TreeNode node;
    if (n.kind == SolutionNode::Kind::Null) {
      node.kind = TreeNode::Kind::Null;
      node.move = Move::null();
    } else {
      std::string why;
      auto m = resolve_move(pos, n.move, &why);
      if (!m) {
        fail(at(n) + "cannot play '" + n.move.text + "': " + why);
        return false;
      }
      node.move = *m;
    }
    pos.do_move(node.move);
    node.position = pos;
    int32_t index = tree_.add(parent, std::move(node));
    for (const auto& child : n.children)
      if (!replay(*child, index)) return false;
    return true;
  }
};

}  // namespace

std::optional<Move> resolve_move(const Position& pos, const TextMove& tm, std::string* why) {
  auto failure = [&](const std::string& w) -> std::optional<Move> {
    if (why) *why = w;
    return std::nullopt;
  };
  if (!tm.extras.empty()) return failure("fairy effect " + tm.extras);
  PieceType pt = piece_type_of(tm.piece);
  if (pt == NO_PIECE_TYPE) return failure("fairy piece " + tm.piece);
  PieceType promo = NO_PIECE_TYPE;
  if (!tm.promotion.empty()) {
    promo = piece_type_of(tm.promotion);
    if (promo == NO_PIECE_TYPE || promo == PAWN || promo == KING)
      return failure("promotion to a fairy piece " + tm.promotion);
  }
  Move found = Move::none();
  int matches = 0;
  for (Move m : legal_moves(pos)) {
    if (tm.castle) {
      if (m.kind() != CASTLING) continue;
      bool king_side = m.to() > m.from();
      if (king_side != (tm.castle == 1)) continue;
    } else {
      if (type_of(pos.piece_on(m.from())) != pt) continue;
      if (destination(m) != tm.to) continue;
      if (tm.from >= 0 && m.from() != tm.from) continue;
      if (tm.from_file >= 0 && file_of(m.from()) != tm.from_file) continue;
      if (tm.from_rank >= 0 && rank_of(m.from()) != tm.from_rank) continue;
      if (promo != NO_PIECE_TYPE && (m.kind() != PROMOTION || m.promotion() != promo)) continue;
      if (promo == NO_PIECE_TYPE && m.kind() == PROMOTION) continue;
    }
    found = m;
    ++matches;
  }
  if (matches == 0) return failure("illegal in " + pos.fen());
  if (matches > 1) return failure("ambiguous in " + pos.fen());
  return found;
}

SolutionTree replay_solution(const Entry& entry, const SolutionParse& parse) {
  SolutionTree tree;
  Replayer(entry, tree).run(parse);
  return tree;
}

SolutionTree replay_solution(const Entry& entry) { return replay_solution(entry, parse_solution_text(entry.solution)); }

}  // namespace cqlindex::yacpdb
