// Model and ideal mates and stalemates (research/yacpdb.md 2.5, the legacy detector): purity of the king's
// field, participation of the units, necessary pins of guarded blockers.
#pragma once

#include <optional>

#include "engine/chess/position.h"

namespace cqlindex::yacpdb {

struct Finale {
  int pins = 0;        // guarded blockers whose pin is needed
  bool ideal = false;  // model, no pin, every unit but the mated king takes part
};

// The finale of a mate or stalemate position when it is a model (pure, every unit of the mating side except
// king and pawns takes part); nullopt otherwise (impure, idle officer, or not a mate/stalemate).
std::optional<Finale> model_finale(const chess::Position& pos);

}  // namespace cqlindex::yacpdb
