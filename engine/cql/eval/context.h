#pragma once
// Internal to the evaluator: the per-game state the op families share (positions of the searched tree,
// variables, the comments produced so far) and the value an op produces.
#include <array>
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/chess/position.h"
#include "engine/cql/eval/op.h"
#include "engine/pgn/game.h"
#include "engine/pgn/writer.h"

namespace cqlindex::cql::eval {

struct Program;

// The value of an op; which field is meaningful follows the op's type.
struct Value {
  uint64_t set = 0;
  int64_t num = 0;
  int32_t pos = -1;   // node index of a position
  std::string str;
};

// The searched part of a game: positions by node index, pre-order, piece identities.
struct GameTree {
  const pgn::Game* game = nullptr;
  const chess::Position* pos = nullptr;  // by node index (valid where searched): the game's own positions
  std::vector<chess::Position> replayed;  // or these, replayed here when the game holds none
  std::vector<uint8_t> searched;        // by node index
  std::vector<int32_t> order;           // searched nodes, pre-order
  std::vector<int32_t> position_id;     // pre-order index over the whole tree
  std::vector<uint8_t> depth;           // variation depth
  std::vector<std::array<uint8_t, 64>> ids;    // piece identity on each square (0 = none), built on demand
  std::vector<std::array<uint8_t, 64>> where;  // square of each piece identity (64 = gone), built with ids
  bool ids_built = false;
  std::vector<pgn::NodeIndex> stack_;  // scratch of build()
  std::optional<pgn::GameComments> comments;  // the input comments as CQL reads them, on demand
  bool root_btm = false;

  // root_only: just the start position (for filters that read only the tags).
  void build(const pgn::Game& g, bool variations, bool root_only = false);
  void build_ids();
  // The node's successors in the searched tree (main continuation first).
  template <class F> void for_children(int node, F f) const {
    for (pgn::NodeIndex c = game->nodes[node].first_child; c != pgn::kNoNode; c = game->nodes[c].next_sibling)
      if (searched[c]) f(int(c));
  }
  int parent(int node) const {
    pgn::NodeIndex p = game->nodes[node].parent;
    return p == pgn::kNoNode || !searched[p] ? -1 : int(p);
  }
  int move_number(int node) const { return 1 + (game->nodes[node].ply + (root_btm ? 1 : 0)) / 2; }
};

struct Ctx {
  const Program* prog = nullptr;
  GameTree* tree = nullptr;
  int cur = 0;  // current node
  uint64_t game_number = 0;
  std::vector<Value> vars;
  std::vector<uint8_t> bound;
  std::vector<pgn::AddedComment> comments;  // in the order made
  struct SortSlot {
    std::optional<int64_t> best;
    std::vector<pgn::AddedComment> comments;  // of the first evaluation that gave the best value
  };
  std::vector<SortSlot> sorts;

  const chess::Position& position() const { return tree->pos[cur]; }
  const pgn::Game& game() const { return *tree->game; }
  void comment(std::string text) { comments.push_back({pgn::NodeIndex(cur), std::move(text)}); }
};

// Evaluates op at ctx.cur; true when it matches, its value in v.
bool evaluate(const Op& op, Ctx& ctx, Value& v);
// As evaluate, at another node; the comments it made are dropped when it does not match.
bool evaluate_at(const Op& op, Ctx& ctx, int node, Value& v);
// As evaluate; comments rolled back when it does not match.
bool evaluate_smart(const Op& op, Ctx& ctx, Value& v);

// The set a set-valued op produces (empty when it does not match: a set filter fails exactly when empty).
inline uint64_t set_of(const Op& op, Ctx& ctx) {
  Value v;
  return evaluate(op, ctx, v) ? v.set : 0;
}

// Families (one file each).
bool eval_set(const Op& op, Ctx& ctx, Value& v);       // eval_sets.cpp
bool eval_move(const Op& op, Ctx& ctx, Value& v);      // eval_moves.cpp
bool eval_line(const Op& op, Ctx& ctx, Value& v);      // eval_line.cpp
bool eval_game_info(const Op& op, Ctx& ctx, Value& v); // eval_game_info.cpp
bool eval_find(const Op& op, Ctx& ctx, Value& v);      // eval_find.cpp

// speed (eval_count_compare.cpp): Relations comparing a piece designator's count with a number, anywhere in the
// tree, turned into CountCompare ops; and their evaluation.
void fuse_count_compares(Op& root);
bool eval_count_compare(const Op& op, Ctx& ctx, Value& v);
// The squares holding the piece kinds of `bits` (token.h piece_bits) in p (eval_sets.cpp).
uint64_t pieces_of(const chess::Position& p, uint16_t bits);

// "move 7(wtm)" (+ "[id]" off the main line): how CQL names a position in comments.
std::string position_name(const Ctx& ctx, int node);
// "[g7,h7,g8]" / "e4" / "[]": how CQL writes a set in comments.
std::string set_text(uint64_t set);

}  // namespace cqlindex::cql::eval
