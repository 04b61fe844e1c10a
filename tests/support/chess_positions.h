#pragma once
// Test support: positions from FENs that must be valid.
#include <string>

#include <catch2/catch.hpp>

#include "engine/chess/position.h"

namespace cqlindex::test {

// Returns the position of `fen`, failing the test (with the FEN and the reason) when it does not parse.
inline chess::Position must_parse(const std::string& fen) {
  std::string err;
  auto pos = chess::Position::from_fen(fen, &err);
  INFO(fen << ": " << err);
  REQUIRE(pos.has_value());
  return *pos;
}

}  // namespace cqlindex::test
