// The searched tree of a game: positions replayed once per game, pre-order, piece identities.
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

void GameTree::build(const pgn::Game& g, bool variations) {
  game = &g;
  const size_t n = g.nodes.size();
  pos.resize(n);
  searched.assign(n, 0);
  order.clear();
  position_id.assign(n, -1);
  depth.assign(n, 0);
  ids_built = false;
  comments.reset();
  root_btm = g.start.side_to_move() == chess::BLACK;
  if (!g.start_known || n == 0) return;
  pos[0] = g.start;
  // pre-order over the whole tree (positionid), searching the main line or everything
  std::vector<pgn::NodeIndex> stack{0};
  int32_t next_id = 0;
  while (!stack.empty()) {
    pgn::NodeIndex x = stack.back();
    stack.pop_back();
    position_id[x] = next_id++;
    const pgn::Node& node = g.nodes[x];
    bool main_child_only = !variations;
    if (searched[x] || x == 0) {
      if (x == 0) searched[0] = 1;
      order.push_back(int32_t(x));
    }
    // children pushed in reverse so that the main continuation comes first
    std::vector<pgn::NodeIndex> kids;
    for (pgn::NodeIndex c = node.first_child; c != pgn::kNoNode; c = g.nodes[c].next_sibling) kids.push_back(c);
    for (size_t i = kids.size(); i-- > 0;) {
      pgn::NodeIndex c = kids[i];
      depth[c] = uint8_t(depth[x] + (i > 0 ? 1 : 0));
      if (searched[x] && (!main_child_only || i == 0)) {
        const chess::Move m = g.nodes[c].move;
        pos[c] = pos[x];
        if (m.is_null()) {
          // a null move: the other side to move
          pos[c] = pos[x].after(m);
        } else {
          pos[c].do_move(m);
        }
        searched[c] = 1;
      }
      stack.push_back(c);
    }
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
