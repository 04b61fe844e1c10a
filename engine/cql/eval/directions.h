#pragma once
// The eight directions of CQL's direction filters and `ray` as bits: up down left right northeast northwest
// southeast southwest are bits 0 to 7. Unions have names of their own (horizontal, diagonal, anydirection, ...).
#include <cstdint>
#include <string>
#include <string_view>

namespace cqlindex::cql::eval {

// All eight directions (anydirection): a `ray` that names none, an attack ray.
constexpr uint8_t kAllDirections = 255;

// The directions `name` stands for ("up": 1, "diagonal": 240, ...); 0 when it names none.
uint8_t direction_mask(std::string_view name);
// The name of a set of directions that has one, else "".
std::string direction_name(uint8_t mask);

}  // namespace cqlindex::cql::eval
