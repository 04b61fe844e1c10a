#pragma once
// Test support for the language features (functions, loops, variables, dictionaries, strings): hand-made games
// and a counter of matching games.
#include <string>

#include "eval/eval_support.h"

namespace cqlindex::test {

// A game starting at `fen` with `moves` (SAN movetext) and `event` as its Event tag.
inline std::string lang_game(const std::string& fen, const std::string& moves = "*", const std::string& event = "?") {
  return "[Event \"" + event + "\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n" + moves + "\n\n";
}

// The number of games of `pgn` that the query body (without header) matches.
inline uint64_t lang_matches(const std::string& body, const std::string& pgn) {
  return run_query("cql()\n" + body + "\n", pgn).matches;
}

inline const std::string kLoneKings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
inline const std::string kRooks = "r3k3/8/8/8/8/8/4P3/R3K2R w - - 0 1";

}  // namespace cqlindex::test
