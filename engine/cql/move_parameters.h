#pragma once
// The words the move filter reads as its parameters right after `move` (CQL 6.2's move-parse.cpp). The parser
// stops reading parameters at any other word; the printer braces a move that a filter opening with one of
// them follows, which would otherwise read back as that parameter.
#include <array>
#include <string_view>

namespace cqlindex::cql {

inline constexpr std::array<std::string_view, 18> kMoveParameterWords = {
    "capture",  "captures", "castle",      "comment",   "count",     "enpassant", "enpassantsquare", "from", "legal",
    "null",     "o-o",      "o-o-o",       "previous",  "primary",   "promote",   "pseudolegal",     "secondary",
    "to"};

// True when `word` is one of the move filter's parameter words.
constexpr bool is_move_parameter_word(std::string_view word) {
  for (std::string_view w : kMoveParameterWords)
    if (word == w) return true;
  return false;
}

}  // namespace cqlindex::cql
