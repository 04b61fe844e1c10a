// A problem ready for the predicates: the entry (diagram + metadata) and its solution tree of legal moves.
// Problem files are PGN collections (one game = one entry, research/yacpdb.md 4.1) or YACPDB YAML entries.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/pgn/game.h"
#include "engine/yacpdb/entry.h"
#include "engine/yacpdb/solution_tree.h"

namespace cqlindex::yacpdb {

struct Problem {
  Entry entry;
  SolutionTree tree;
};

struct ProblemFile {
  std::vector<Problem> problems;    // in file order
  std::vector<std::string> errors;  // "file:line:col: message" for what could not be read (the rest is kept)
};

// One PGN game as a problem. Tags: Composer (else White; ';'-separated), Source (else Event), Date
// (YYYY.MM.DD, '?' allowed), Stipulation, Options / Keywords / Judge / ReprintType (';'-separated), Tourney,
// Award, SourceId, IssueId, YacpdbId. Diagram = the start position. The tree: root -> one twin -> the movetext
// tree (variations are alternatives, "--" is a null move). `text` is the game's bytes for Text().
Problem problem_from_game(const pgn::Game& game, std::string_view text, const std::string& file);

// Reads every game of a PGN text.
ProblemFile read_pgn_problems(std::string_view text, const std::string& file);

// True when `path` names a YAML problem file (.olv, .yaml, .yml, any case).
bool is_yaml_file(const std::string& path);

// Reads a problem file: YAML (.olv, .yaml, .yml) or PGN (anything else). A file that cannot be opened is one
// error.
ProblemFile read_problem_file(const std::string& path);

}  // namespace cqlindex::yacpdb
