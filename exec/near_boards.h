// A near pair's two boards as a judge compares them (issue 17): the repository position reached by the moves
// before it, turned back to the submission's orientation, and the squares where it differs from the submission.
// Drawn by the judges' report (near_report.h) and stated by a served answer (near_facts.h).
#pragma once

#include <cstdint>
#include <string>

#include "engine/chess/position.h"
#include "engine/cql/similar/board_transform.h"
#include "engine/pgn/game.h"

namespace cqlindex::exec {

// The mainline moves of `g` up to `ply` in SAN with move numbers ("1. e4 e5 2. Nf3"; "(the game's first
// position)" when there are none), and the position there in `pos`.
std::string moves_to(const pgn::Game& g, uint32_t ply, chess::Position& pos);

struct OrientedPair {
  cql::similar::Board submission, repository;  // the repository board with the transform undone
  uint64_t differ = 0;                         // the squares where they differ (bit = square)
  unsigned dropped = 0;  // the repository's pieces the undone transform takes off the board
};

// Returns the pair of `submission` and `there`, the repository position that `transform` (taking the
// submission board to its image there) relates to it.
OrientedPair orient(const chess::Position& submission, const chess::Position& there,
                    const cql::similar::BoardTransform& transform);

}  // namespace cqlindex::exec
