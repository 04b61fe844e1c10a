#pragma once
// Internal to the evaluator: the per-game state the op families share (positions of the searched tree,
// variables, the comments produced so far) and the value an op produces.
#include <array>
#include <functional>
#include <map>
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

// lang: a dictionary key (a number, a set, a string or a position: one field per key type) and a dictionary.
struct DictKey {
  int64_t num = 0;
  uint64_t set = 0;
  std::string str;
  auto operator<=>(const DictKey&) const = default;
};
using Dictionary = std::map<DictKey, Value>;

// lang: what a scanner carries from one game to the next (persistent variables, persistent dictionaries).
struct CrossGameState {
  std::vector<Value> vars;          // by variable index; meaningful for persistent variables
  std::vector<Dictionary> dicts;    // by variable index; local ones are emptied at each game
  std::vector<std::string> written_files;  // writefile: created afresh at the first write of the run
};

// The searched part of a game: positions by node index, pre-order, piece identities.
struct GameTree {
  const pgn::Game* game = nullptr;
  const chess::Position* pos = nullptr;  // by node index (valid where searched): the game's own positions
  std::vector<chess::Position> replayed;  // or these, replayed here when the game holds none
  std::vector<uint8_t> searched;        // by node index
  std::vector<int32_t> order;           // searched nodes, pre-order
  std::vector<int32_t> position_id;     // pre-order index over the whole tree
  std::vector<int32_t> subtree_end;     // the largest position_id in the node's subtree
  std::vector<uint8_t> depth;           // variation depth
  std::vector<std::array<uint8_t, 64>> ids;    // piece identity on each square (0 = none), built on demand
  std::vector<std::array<uint8_t, 64>> where;  // square of each piece identity (64 = gone), built with ids
  bool ids_built = false;
  std::vector<pgn::NodeIndex> stack_;  // scratch of build()
  std::optional<pgn::GameComments> comments;  // the input comments as CQL reads them, on demand
  bool root_btm = false;
  std::vector<int32_t> all_order;       // every node of the game in pre-order: all_order[positionid]

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
  // True when a is b or one of its ancestors (a subtree is a run of position ids).
  bool ancestor_or_self(int a, int b) const {
    return position_id[a] <= position_id[b] && position_id[b] <= subtree_end[a];
  }
  int move_number(int node) const { return 1 + (game->nodes[node].ply + (root_btm ? 1 : 0)) / 2; }
};

// A constituent that line or path still has to match (sequence_search.h); a repetition in progress counts its
// iterations.
struct PendingConstituent {
  const Op* con;
  bool repeating = false;
  int64_t seen = 0;            // the repetition's iterations so far
  int64_t count_at_push = -1;  // steps when its last iteration began (no step: no further iteration)
};

// The work limits of one game's evaluation, checked every kStepsBetweenChecks steps of the evaluator's loops
// (Ctx::step): the caller's stop request, and the comments held (each nested echo or loop can multiply them: a
// query must stop with an error long before it exhausts the memory of the process).
inline constexpr uint32_t kStepsBetweenChecks = 1024;
inline constexpr size_t kMaxHeldComments = size_t{1} << 22;

struct Ctx {
  const Program* prog = nullptr;
  GameTree* tree = nullptr;
  int cur = 0;  // current node
  uint64_t game_number = 0;
  std::vector<Value> vars;
  std::vector<uint8_t> bound;
  std::vector<pgn::AddedComment> comments;  // in the order made
  size_t header_comments = 0;               // 1: comments[0] is CQL's "Game number N" (GameScanner::scan)
  bool comments_one_a_node = false;         // after the header, `comments` are a game-constant body's markers,
                                            // at most one a node
  struct SortSlot {
    std::optional<SortValue> best;
    std::vector<pgn::AddedComment> comments;  // of the first evaluation that gave the best value
  };
  std::vector<SortSlot> sorts;
  // path (eval_path.cpp): the path being searched (pathstart, pathcount), after it the last that matched
  struct PathStatus {
    int start = -1, last = -1;
    int64_t count = 0;
  };
  PathStatus path;
  std::map<const Op*, std::vector<uint8_t>> path_nestban;  // by nestban path: positions its matches covered
  // line and path: the constituents still to match, one stack for all searches (a nested search works above the
  // enclosing one's part), kept from one search to the next to spare allocations
  std::vector<PendingConstituent> sequence_stack;
  // the from/to sets of the dash whose targets are being evaluated: `from`/`to` of a castling (eval_moves.cpp)
  std::array<uint64_t, 2> dash_masks{~uint64_t{0}, ~uint64_t{0}};

  // lang: the scanner's dictionaries (carried across games unless local) and files written in this run
  CrossGameState* state = nullptr;
  // lang: the groups of the last successful `~~` (\0 = the whole match) and where each starts (-1: unmatched)
  std::vector<std::string> captures;
  std::vector<int64_t> capture_at;
  // lang: `message` texts, in the order made; settag's (name, value) pairs
  std::vector<std::string> messages;
  std::vector<std::pair<std::string, std::string>> set_tags;
  // echo: where the comments of the current target's evaluation begin. consecutivemoves puts its texts
  // there, before the body's own comments, as CQL 6.2 does (movedblackpieceecho.pgn).
  size_t echo_mark = SIZE_MAX;
  // removecomment: positions whose input comment is left out (not undone when a filter around fails)
  std::vector<int32_t> removed_comments;
  // pathdebug: the text describing the innermost path search under way, at a position (unset: no path)
  std::function<std::string(int)> path_debug;

  // The caller's stop request (GameScanner::set_stop), or null; the steps left before the limits are checked.
  const std::function<bool()>* stop = nullptr;
  uint32_t steps_to_check = kStepsBetweenChecks;
  // The recursive searches (line, path) stop with an error below this address of the stack (deep_stack.h).
  const char* stack_floor = nullptr;
  // One step of a loop of the evaluator: a decrement, and every kStepsBetweenChecks steps the limits checked
  // (throws EvaluationStopped, or CqlError when the comments held pass kMaxHeldComments).
  void step() {
    if (--steps_to_check == 0) [[unlikely]] check_limits();
  }
  void check_limits();

  const chess::Position& position() const { return tree->pos[cur]; }
  const pgn::Game& game() const { return *tree->game; }
  void comment(std::string text) { comments.push_back({pgn::NodeIndex(cur), std::move(text)}); }
};

// Evaluates op at ctx.cur; true when it matches, its value in v.
bool evaluate(const Op& op, Ctx& ctx, Value& v);
// True when `n` lies in op's range (a..b, b = -1 unbounded; bounds that are variables read now); false also when a
// variable bound is unbound.
bool range_holds(const Op& op, Ctx& ctx, int64_t n);
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
bool eval_path(const Op& op, Ctx& ctx, Value& v);      // eval_path.cpp

// Whether the move into `child`, played from ctx.cur, passes the dash's from, to, capture and promotion
// tests (its targets are not evaluated); castle_pieces: which of a castling's king (1) and rook (2) are
// in focus. masks: the dash's sets, which `from` and `to` in its targets read for a castling. eval_moves.cpp
bool dash_admits(const Op& dash, Ctx& ctx, int child, int castle_pieces, uint64_t masks[2]);

// lang: the families of user functions, loops, dictionaries and strings (one file each).
bool eval_control(const Op& op, Ctx& ctx, Value& v);     // eval_control.cpp
bool eval_assign(const Op& op, Ctx& ctx, Value& v);      // eval_assign.cpp
bool eval_dictionary(const Op& op, Ctx& ctx, Value& v);  // eval_dictionary.cpp
bool eval_string(const Op& op, Ctx& ctx, Value& v);      // eval_strings.cpp
// uppercase/lowercase used as filters (not as strings) are told so (Op::b = 1): they match only when the
// conversion leaves the string unchanged (CQL 6.2: `uppercase "AbC"` matches no position). eval_strings.cpp
void mark_case_filters(Op& root);
// The text a comment/message/str writes for op's value (matched: whether a logical op matched).
std::string value_text(const Op& op, Ctx& ctx, const Value& v, bool matched);
// evaluate() for an argument of comment/message/str: an unbound variable is no error there, it has no value.
bool evaluate_argument(const Op& op, Ctx& ctx, Value& v);
// Records the groups of a regex match as the captures \0, \1, ...
void set_captures(Ctx& ctx, std::string_view subject, const std::vector<text::RegexGroup>& groups);
// Whether op.regex (a RegexMatch) matches somewhere in subject, its groups to `groups`; a match that needs more work
// than a match may take stops the query with an error at op.
bool regex_search_at(const Op& op, std::string_view subject, std::vector<text::RegexGroup>& groups);
bool eval_echo(const Op& op, Ctx& ctx, Value& v);      // eval_echo.cpp: echo and position navigation
bool eval_mates(const Op& op, Ctx& ctx, Value& v);     // eval_mates.cpp: puremate and kin
bool eval_remove_comment(const Op& op, Ctx& ctx, Value& v);  // eval_remove_comment.cpp
bool eval_hhdb(const Op& op, Ctx& ctx, Value& v);            // eval_hhdb.cpp
// hhdb: awards used as filters (not as numbers) are told so (Op::b = 1): a special award then matches.
void mark_hhdb_filters(Op& root);

// speed (eval_count_compare.cpp): Relations comparing a piece designator's count with a number, anywhere in the
// tree, turned into CountCompare ops; and their evaluation.
void fuse_count_compares(Op& root);
bool eval_count_compare(const Op& op, Ctx& ctx, Value& v);
// The squares holding the piece kinds of `bits` (token.h piece_bits) in p (eval_sets.cpp).
uint64_t pieces_of(const chess::Position& p, uint16_t bits);

// "move 7(wtm)" (+ "[id]" off the main line): how CQL names a position in comments.
std::string position_name(const Ctx& ctx, int node);
// position_name(ctx, node); a position off the main line also gets "id:N" written at it (so the
// "[N]" of the reference can be found), as CQL does for echo's cross references.
std::string position_reference(Ctx& ctx, int node);
// "[g7,h7,g8]" / "e4" / "[]": how CQL writes a set in comments.
std::string set_text(uint64_t set);

}  // namespace cqlindex::cql::eval
