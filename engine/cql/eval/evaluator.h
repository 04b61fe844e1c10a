#pragma once
// The CQL evaluator: a query compiled once (transforms expanded, sub-kinds resolved), then run on games.
//
//   eval::EvalOptions opt;  opt.variations = ...;
//   eval::Program program = eval::compile(query, opt);           // throws CqlError
//   eval::GameScanner scanner(program);                          // one per worker thread
//   eval::GameOutcome r = scanner.scan(game);                    // matched? and the comments CQL adds
//   pgn::write_game(game, r.comments, {}, out);
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/eval/op.h"
#include "engine/cql/query.h"
#include "engine/pgn/game.h"
#include "engine/pgn/writer.h"

namespace cqlindex::cql::similar {
class SubmissionFiles;  // similar/submission_files.h
}

namespace cqlindex::cql::eval {

struct EvalOptions {
  bool variations = false;                 // search variations too
  std::optional<Range> matchcount;         // default: at least one matching position
  bool sort_matchcount = false;            // header `sort matchcount`: the first sort key is the match count
  std::string matchstring = "CQL";         // the match marker ("" = none)
  bool silent = false, quiet = false, noheader = false;
  bool alwayscomment = false, nouniquecomments = false;
  std::string result;                      // game filter "1-0" ...
  std::string player;                      // game filter: White or Black matches this regex
  std::optional<Range> year;               // game filter on the Date year
  // similarposition: the submissions files of the run (compile reads those the query names; shared with the
  // planner so that each is read once). Null: compile makes its own.
  std::shared_ptr<similar::SubmissionFiles> submissions;
  bool noremovecomment = false;            // removecomment does nothing
  bool nosettag = false;                   // settag does nothing (its value is still evaluated)
  std::string input_path;                  // lastgamenumber: the PGN file its estimate is read from
  std::vector<std::string> more_input_paths;  // a repository's later files: read after input_path, as concatenated
  std::optional<Range> gamenumber;         // lastgamenumber: at most the top of the header's gamenumber range
};

// A sort of the query (sorts sharing a description are one, as CQL conjoins them).
struct SortKey {
  std::string description;
  bool min = false;    // ascending; default max (descending)
  bool quiet = false;  // no "description: value" comment
  bool text = false;   // a sort of a string (spec/cql-sort.txt): values compare bytewise
};


struct Program {
  OpPtr body;
  std::vector<const Op*> game_constant;  // top-level conjuncts that read only tags: tried once per game first
  bool body_game_constant = false;       // the whole body reads only tags: one value at every position of a game
  std::vector<SortKey> sorts;
  EvalOptions options;
  size_t variable_count = 0;
  std::vector<VariableKind> variable_kinds;
  std::vector<std::string> variable_names;  // echo writes its variables' names
  bool uses_piece_ids = false;
  std::shared_ptr<const text::Regex> player_regex;  // -player
  std::vector<Variable> variables;     // lang: the query's variables (names, persistent, quiet, local)
  std::vector<uint8_t> always_bound;   // lang: by variable: bound at every position (persistent variables)
  std::vector<int> atomic_vars;        // atomic: the atomic variables, undone on a path's backtracking
  bool may_fail = false;  // an op stops the run with an error where it is evaluated (OpCode::RuntimeError)
};

// Compiles a bound query for evaluation. Throws CqlError for what the evaluator does not support.
Program compile(const Query& query, EvalOptions options);

struct GameOutcome {
  bool matched = false;
  uint64_t matching_positions = 0;
  std::vector<pgn::AddedComment> comments;  // "Game number N" first, then CQL's texts by position
  std::vector<std::optional<SortValue>> sort_values;  // best value per Program::sorts (nullopt: none)
  std::vector<std::string> messages;  // lang: `message` lines of this game, in the order made (for stdout)
  std::vector<std::pair<std::string, std::string>> set_tags;  // lang: settag(name value), in the order made
};

// True when whether a game matches is decided by its tags and its start position alone: the body reads only the
// tags, and no matchcount range or sort counts or reads its positions. The scan of such a game then matches
// exactly when the scan of the game read with its tags, start and result marker only (pgn::ParseOptions::tags_only)
// matches, provided its movetext is clean (no PGN problem): the match is all it tells, nothing is written.
bool decided_by_tags(const Program& program);

// lang: sets the tags `settag` asked for in the game to write (a tag of that name is replaced, else added).
void apply_set_tags(const GameOutcome& outcome, pgn::Game& game);

// True when game a comes before game b in the output of a query with sorts.
bool sorted_before(const Program& program, const GameOutcome& a, uint64_t game_a, const GameOutcome& b, uint64_t game_b);

struct GameTree;
struct CrossGameState;  // lang
// Evaluates games one after the other; holds reusable per-game storage (use one per thread).
// Thrown by GameScanner::scan when the caller's stop request (set_stop) said yes: the game's evaluation was
// abandoned part way, and has no outcome.
struct EvaluationStopped : std::runtime_error {
  EvaluationStopped() : std::runtime_error("the evaluation was stopped") {}
};

class GameScanner {
 public:
  explicit GameScanner(const Program& program);
  ~GameScanner();
  // Evaluates the query on `game`. Throws CqlError for a run-time error of the query (an overflow, a regular
  // expression too costly, more memory than a game's evaluation may hold), EvaluationStopped when stopped.
  GameOutcome scan(const pgn::Game& game);
  // Asks `stop` every so many steps of the evaluator's loops (while, loop, line and path, echo, find, the
  // positions of a game): when it returns true, scan throws EvaluationStopped. A served run's time limit.
  void set_stop(std::function<bool()> stop) { stop_ = std::move(stop); }
  // lang: "name: value" of each persistent variable that is not quiet, in declaration order (printed after
  // the run, as CQL does). Meaningful after a single-threaded, in-order scan of the games.
  std::vector<std::string> persistent_report() const;

 private:
  const Program& program_;
  std::unique_ptr<GameTree> tree_;
  std::unique_ptr<CrossGameState> state_;  // lang: persistent variables and dictionaries
  std::function<bool()> stop_;
  GameOutcome scan_here(const pgn::Game& game);  // scan, on the caller's stack
};

}  // namespace cqlindex::cql::eval
