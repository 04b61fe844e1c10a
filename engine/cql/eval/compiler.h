#pragma once
// The compiler of the bound tree into Ops (compile.cpp), shared by its families: each compile_<family>.cpp sits
// beside the eval_<family>.cpp that runs what it compiles.
#include <optional>
#include <string>
#include <unordered_set>

#include "engine/cql/eval/evaluator.h"
#include "engine/cql/eval/op.h"
#include "engine/cql/node.h"

namespace cqlindex::cql::eval {

// Throws the evaluator's refusal of a filter it cannot run.
[[noreturn]] void unsupported(const Node& n, const std::string& what);

struct Compiler {
  Program& prog;
  std::unordered_set<const Node*> position_uses;  // mark_position_uses (compile.cpp)

  // Returns the op of `n`: a family's op, or CQL's run-time stop for a literal matched as a position filter.
  OpPtr compile(const Node& n);

  // Returns an op of `code` carrying n's type, text, numbers, squares, pieces, variable and place.
  OpPtr op(OpCode code, const Node& n);
  // Returns the compiled child of `n` in `role`, or nullptr when it has none.
  OpPtr child(const Node& n, Role role);
  // Appends the compiled children of `n` (those in `role` only, when given) to o's kids.
  void all_kids(const Node& n, Op& o, std::optional<Role> role = std::nullopt);
  // Returns false when `n` has no range; else fills o's a..b (b = -1 unbounded) or its run-time bounds.
  bool range(const Node& n, Op& o);
  // Returns the sort slot of a sort described by `description` at `n` ("": a slot of its own); sorts sharing a
  // description are one, as CQL conjoins them.
  int sort_slot(const Node& n, const std::string& description, bool min, bool quiet, bool text);

  // The families. Each returns the op of a node of a kind it owns, nullptr for any other kind.
  OpPtr compile_logic(const Node& n);       // compile_logic.cpp: literals, and/or/not/if, arithmetic, relations
  OpPtr compile_variables(const Node& n);   // compile_logic.cpp: variables, assignment, positions, transforms
  OpPtr compile_sets(const Node& n);        // compile_sets.cpp
  OpPtr compile_piece_attributes(const Node& n);  // compile_sets.cpp: type, pieceid, pawn structure, ...
  OpPtr compile_moves(const Node& n);       // compile_moves.cpp
  OpPtr compile_line(const Node& n);        // compile_line.cpp: line and the sequence constituents
  OpPtr compile_path(const Node& n);        // compile_path.cpp
  OpPtr compile_find(const Node& n);        // compile_find.cpp: find, sort
  OpPtr compile_echo(const Node& n);        // compile_echo.cpp: echo and position navigation
  OpPtr compile_game_info(const Node& n);   // compile_game_info.cpp: tags, result, players, counters, ...
  OpPtr compile_predicates(const Node& n);  // compile_game_info.cpp: check, mate, wtm, the pure mates, ...
  OpPtr compile_control(const Node& n);     // compile_control.cpp: functions, loop, while, assert, bindings
  OpPtr compile_dictionary(const Node& n);  // compile_dictionary.cpp
  OpPtr compile_strings(const Node& n);     // compile_strings.cpp: strings, comments, messages, files
  OpPtr compile_hhdb(const Node& n);        // compile_hhdb.cpp
  OpPtr compile_similar(const Node& n);     // compile_similar.cpp: similarposition and its submissions
};

}  // namespace cqlindex::cql::eval
