// Zilahi (research/yacpdb.md 4.3): the finaliser leaves of a solution (mate or stalemate), the units each
// captures, and the cycles "the finaliser of one line is captured in the next".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/yacpdb/analysis.h"

namespace cqlindex::yacpdb {

// A captured unit on a line: who, its type when captured, and whether it had not moved on that line.
struct Capture {
  int id;
  std::string type;
  bool unmoved;
};

struct FinaliserLeaf {
  int finaliser;                  // the unit that made the last move
  std::vector<Capture> captured;  // units captured on the line
};

// Adds Zilahi(n) / ZilahiPiece(v, u) instances for the finaliser leaves (in help play also the finalisers
// captured elsewhere outside any cycle); false when the leaves or the search exceed the work cap.
bool find_zilahi(const std::vector<FinaliserLeaf>& leaves, bool help_play, std::map<Instance, int64_t>& counts);

}  // namespace cqlindex::yacpdb
