#pragma once
// What the twin tests share: a small diagram (wKg6 wRa2 bKh8) with a given stipulation and solution text, square
// names, and the board of a replayed twin.
#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include "engine/yacpdb/diagram.h"
#include "engine/yacpdb/replay.h"
#include "engine/yacpdb/yaml_entries.h"

namespace cqlindex::yacpdb::test {

// Returns the square index of a name like "e4".
inline int sq(const char* name) { return (name[1] - '1') * 8 + (name[0] - 'a'); }

// Returns the entry wKg6 wRa2 bKh8 with `stipulation` and the Popeye solution text `solution`.
inline Entry entry_with(const std::string& stipulation, const std::string& solution) {
  Entry e;
  e.stipulation = stipulation;
  for (auto [text, color] : {std::pair{"Kg6", 'w'}, {"Ra2", 'w'}, {"Kh8", 'b'}}) {
    DiagramPiece p;
    REQUIRE(parse_algebraic_piece(text, color, p));
    e.pieces.push_back(p);
  }
  e.solution = solution;
  return e;
}

// Returns the board part of the FEN of twin `twin` (0-based) of a replayed tree.
inline std::string board_of(const SolutionTree& t, size_t twin) {
  std::string fen = t.nodes[t.root().children.at(twin)].position.fen();
  return fen.substr(0, fen.find(' '));
}

}  // namespace cqlindex::yacpdb::test
