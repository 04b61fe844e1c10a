#pragma once
// Test support: compares `cqlindex check --fen` with the chess.js oracle (tests/oracle/fen_oracle.js).
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "support/process.h"

namespace cqlindex::test {

// Checks that cqlindex and chess.js print the same FEN after every mainline ply of every game of `pgn`.
inline void require_same_fens_as_chessjs(const std::string& pgn) {
  const std::string oracle = std::string(CQLINDEX_SOURCE_DIR) + "/tests/oracle/fen_oracle.js";
  ProcessResult expected = run_process("node " + shell_quote(oracle) + " " + shell_quote(pgn));
  INFO("chess.js oracle on " << pgn << " (run scripts/oracle-setup if chess.js is missing)");
  REQUIRE(expected.exit_code == 0);
  ProcessResult actual =
      run_process(shell_quote(CQLINDEX_BINARY) + " check --fen " + shell_quote(pgn) + " 2>/dev/null");
  REQUIRE(actual.exit_code == 0);
  REQUIRE(expected.out.find("\tERROR\t") == std::string::npos);  // every game of these files is legal

  std::istringstream want(expected.out), got(actual.out);
  std::string w, g;
  size_t line = 0;
  while (true) {
    bool has_w = static_cast<bool>(std::getline(want, w));
    bool has_g = static_cast<bool>(std::getline(got, g));
    ++line;
    if (!has_w && !has_g) break;
    INFO(pgn << ", line " << line << " of the --fen output (GAME, PLY, FEN)");
    REQUIRE(has_g == has_w);
    REQUIRE(g == w);
  }
  CHECK(line > 1);
}

}  // namespace cqlindex::test
