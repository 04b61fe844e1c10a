#pragma once
// The material family's key: a position's material as ten piece counts, one byte each, in the order
// Q R B N P (white) then q r b n p (black); kings are always one each and not counted.
// The build writes these keys and the planner reads them with the same functions.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/chess/position.h"

namespace cqlindex::store::keys {

// A position's material: counts of Q R B N P (white) then q r b n p (black).
using Material = std::array<uint8_t, 10>;

// Returns the material of `pos`.
Material material_of(const chess::Position& pos);
// Returns the material family key: the ten counts as ten bytes, in the order of Material.
std::string material_key(const Material& m);
// Returns the material held by a key of the material family (the inverse of material_key).
Material material_from_key(std::string_view key);

}  // namespace cqlindex::store::keys
