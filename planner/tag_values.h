#pragma once
// How tag values may read to the evaluator: CQL 6.2 normalises some values as it reads them (player names,
// dates, ECO codes), and our own evaluator may compare raw or normalised values. These tests answer "could
// this raw value match" for every reading, so they may say yes too often, never too rarely.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cqlindex::planner {

// Returns true when `text` may occur in tag `tag`'s value read from the raw value `raw`.
bool may_contain(std::string_view tag, std::string_view raw, std::string_view text);

// The years a Date value may give `year`, under the evaluator's reading (pgn::tag_year: its first four
// characters as a whole number) and CQL 6.2's (the leading number, when 1..2047), and whether some reading
// gives it no year at all ("????.??.??", "", "20x0"): `year` then has no value, and `year != N` holds.
struct PossibleYears {
  std::vector<int64_t> years;
  bool maybe_none = false;
};
PossibleYears possible_years(std::string_view raw);

// Returns the result ("1-0", "0-1", "1/2-1/2" or "*") CQL reads from a Result tag value.
std::string_view result_of_tag(std::string_view raw);

}  // namespace cqlindex::planner
