#include "exec/near_boards.h"

#include "engine/chess/san.h"
#include "engine/cql/similar/near_distance.h"
#include "engine/cql/similar/submission_db.h"

namespace cqlindex::exec {

std::string moves_to(const pgn::Game& g, uint32_t ply, chess::Position& pos) {
  pos = g.start;
  std::string s;
  pgn::NodeIndex node = 0;
  for (uint32_t i = 0; i < ply; ++i) {
    node = g.nodes[node].first_child;
    if (node == pgn::kNoNode) break;
    const chess::Move m = g.nodes[node].move;
    if (pos.side_to_move() == chess::WHITE || i == 0)
      s += std::to_string(pos.fullmove_number()) + (pos.side_to_move() == chess::WHITE ? ". " : "... ");
    s += chess::to_san(pos, m) + " ";
    pos.do_move(m);
  }
  if (!s.empty()) s.pop_back();
  return s.empty() ? "(the game's first position)" : s;
}

OrientedPair orient(const chess::Position& submission, const chess::Position& there,
                    const cql::similar::BoardTransform& transform) {
  OrientedPair pair;
  pair.submission = cql::similar::board_of(submission);
  pair.dropped = cql::similar::undo_transform(transform, cql::similar::board_of(there), pair.repository);
  for (int sq = 0; sq < 64; ++sq)
    if (pair.submission[sq] != pair.repository[sq]) pair.differ |= uint64_t(1) << sq;
  return pair;
}

}  // namespace cqlindex::exec
