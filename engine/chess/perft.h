// Perft: number of leaf nodes of the legal move tree, for verifying move generation.
#pragma once

#include <cstdint>

#include "engine/chess/position.h"

namespace cqlindex::chess {

// Leaf nodes at the given depth (depth 0 -> 1).
uint64_t perft(const Position& pos, int depth);

}  // namespace cqlindex::chess
