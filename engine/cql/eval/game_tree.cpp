// The searched tree of a game: positions (the parser's, else replayed once per game), pre-order, piece identities.
#include <algorithm>

#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

void GameTree::build(const pgn::Game& g, bool variations, bool root_only) {
  game = &g;
  const size_t n = g.nodes.size();
  // The parser kept every node's position: no second replay.
  const bool replay = g.positions.size() != n;
  if (replay) {
    replayed.resize(n);
    pos = replayed.data();
  } else {
    pos = g.positions.data();
  }
  searched.assign(n, 0);
  order.clear();
  all_order.clear();
  position_id.assign(n, -1);
  subtree_end.assign(n, -1);
  depth.assign(n, 0);
  ids_built = false;
  comments.reset();
  root_btm = g.start.side_to_move() == chess::BLACK;
  if (!g.start_known || n == 0) return;
  if (replay) replayed[0] = g.start;
  searched[0] = 1;
  if (root_only) {
    order.push_back(0);
    all_order.push_back(0);
    position_id[0] = subtree_end[0] = 0;
    return;
  }
  // pre-order over the whole tree (positionid): a node, its main continuation's subtree, then its variations.
  // In first-child/next-sibling form that is: visit x, then first_child(x), then next_sibling(x).
  stack_.clear();
  stack_.push_back(0);
  int32_t next_id = 0;
  while (!stack_.empty()) {
    const pgn::NodeIndex x = stack_.back();
    stack_.pop_back();
    const pgn::Node& node = g.nodes[x];
    position_id[x] = next_id++;
    if (x != 0) {
      const pgn::NodeIndex parent = node.parent;
      const bool main_child = g.nodes[parent].first_child == x;
      depth[x] = uint8_t(depth[parent] + (main_child ? 0 : 1));
      if (searched[parent] && (variations || main_child)) {
        searched[x] = 1;
        if (replay) {
          replayed[x] = replayed[parent];
          replayed[x].do_move(node.move);
        }
      }
    }
    all_order.push_back(int32_t(x));
    if (searched[x]) order.push_back(int32_t(x));
    if (node.next_sibling != pgn::kNoNode) stack_.push_back(node.next_sibling);
    if (node.first_child != pgn::kNoNode) stack_.push_back(node.first_child);
  }
  // children follow their parent in pre-order: backwards, each subtree's end is final before its parent's
  for (size_t i = all_order.size(); i-- > 0;) {
    const int32_t x = all_order[i];
    subtree_end[x] = std::max(subtree_end[x], position_id[x]);
    if (x != 0) subtree_end[g.nodes[x].parent] = std::max(subtree_end[g.nodes[x].parent], subtree_end[x]);
  }
}

void GameTree::build_ids() {
  if (ids_built) return;
  ids_built = true;
  ids.resize(game->nodes.size());
  where.resize(game->nodes.size());
  std::array<uint8_t, 64> root{};
  uint8_t next = 1;
  for (int s = 0; s < 64; ++s)
    if (!pos[0].empty(chess::Square(s))) root[s] = next++;
  ids[0] = root;
  for (int32_t x : order) {
    if (x == 0) continue;
    const pgn::Node& node = game->nodes[x];
    std::array<uint8_t, 64> a = ids[node.parent];
    const chess::Move m = node.move;
    if (m.is_ok()) {
      const chess::Position& before = pos[node.parent];
      chess::Square from = m.from(), to = m.to();
      if (m.kind() == chess::CASTLING) {
        uint8_t king = a[from], rook = a[to];
        a[from] = a[to] = 0;
        a[chess::Position::castling_king_to(m)] = king;
        a[chess::Position::castling_rook_to(m)] = rook;
      } else {
        if (m.kind() == chess::EN_PASSANT) a[to - chess::pawn_push(before.side_to_move())] = 0;
        a[to] = a[from];
        a[from] = 0;
      }
    }
    ids[x] = a;
  }
  for (int32_t x : order) {
    where[x].fill(64);
    for (int s = 0; s < 64; ++s)
      if (ids[x][s]) where[x][ids[x][s]] = uint8_t(s);
  }
}

}  // namespace cqlindex::cql::eval
