// Replays a textual solution tree (solution_text.h) from an entry's diagram into a tree of legal moves.
#pragma once

#include <optional>
#include <string>

#include "engine/chess/position.h"
#include "engine/yacpdb/entry.h"
#include "engine/yacpdb/solution_text.h"
#include "engine/yacpdb/solution_tree.h"

namespace cqlindex::yacpdb {

// The legal move of `pos` a written move stands for: long algebraic (Popeye "Sf2-g4", "e7*d8=Q"), short
// algebraic ("Nxe5", "cxd3", "R1a3"), castling. S and N both name the knight here (orthodox replay).
// nullopt and *why ("illegal", "ambiguous", "fairy piece ...") otherwise.
std::optional<chess::Move> resolve_move(const chess::Position& pos, const TextMove& move, std::string* why);

// The tree of legal moves of an entry. complete is false (with error) when the diagram is not orthodox, the
// text did not parse, a twin command cannot be applied or a move is not legal; the tree then holds what was
// replayed before the failure.
SolutionTree replay_solution(const Entry& entry, const SolutionParse& parse);

// The same, parsing entry.solution first.
SolutionTree replay_solution(const Entry& entry);

}  // namespace cqlindex::yacpdb
