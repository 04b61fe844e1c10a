// A problem found while reading PGN: where (line:col), in which game, and what.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cqlindex::pgn {

enum class Severity : uint8_t {
  Error,    // the game was cut at this point (kept up to its last legal move)
  Warning,  // the game was read fully, but something was repaired (e.g. unescaped quotes in a tag)
  Skipped,  // the game was not read (a chess variant)
};

struct PgnError {
  uint64_t game = 0;  // 1-based game number
  uint32_t line = 0;  // 1-based
  uint32_t col = 0;   // 1-based byte column
  Severity severity = Severity::Error;
  std::string message;
};

// "FILE:LINE:COL: game N: message" ("warning: "/"skipped: " prefixed to the message for those severities).
std::string format_error(std::string_view file, const PgnError& e);

}  // namespace cqlindex::pgn
