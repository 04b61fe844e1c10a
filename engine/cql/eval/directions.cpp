// Direction names and their bits (directions.h).
#include "engine/cql/eval/directions.h"

namespace cqlindex::cql::eval {
namespace {

struct Named {
  const char* name;
  uint8_t mask;
};
constexpr Named kNames[] = {
    {"up", 1}, {"down", 2}, {"left", 4}, {"right", 8}, {"northeast", 16}, {"northwest", 32}, {"southeast", 64},
    {"southwest", 128}, {"horizontal", 4 | 8}, {"vertical", 1 | 2}, {"diagonal", 16 | 32 | 64 | 128},
    {"orthogonal", 15}, {"maindiagonal", 16 | 128}, {"offdiagonal", 32 | 64}, {"anydirection", 255}};

}  // namespace

uint8_t direction_mask(std::string_view name) {
  for (const Named& n : kNames)
    if (name == n.name) return n.mask;
  return 0;
}

std::string direction_name(uint8_t mask) {
  for (const Named& n : kNames)
    if (n.mask == mask) return n.name;
  return "";
}

}  // namespace cqlindex::cql::eval
