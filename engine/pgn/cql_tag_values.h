#pragma once
// How CQL 6.2 reads tag values (its output files show them so): dates, ECO codes, results, player names.
// The writer writes them this way and the planner bounds queries with the same readings.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cqlindex::pgn {

struct CqlDate {
  unsigned year = 0, month = 0, day = 0;  // 0: unknown (or out of range)
  bool set() const { return year || month || day; }
};

// Returns the decimal number at the start of a value, after spaces, as CQL reads numbers in tags (0: none).
unsigned cql_leading_number(std::string_view raw);

// Returns the whole decimal integer `text` is, as the evaluator reads numbers from tags (`year` from the Date's
// first four characters, `elo` from a whole Elo value); nullopt when it is not exactly one ("", "????", "2700 ",
// "20x0", a number out of range): the filter then has no value.
std::optional<int64_t> tag_integer(std::string_view text);
// Returns the year the evaluator reads from a Date value (its first four characters), nullopt when none.
std::optional<int64_t> tag_year(std::string_view date);

// Returns a Date value as CQL reads it: "yyyy.mm.dd" with unknown or out-of-range parts 0 (years past 2047 too).
CqlDate cql_date(std::string_view raw);
// Returns `d` as "yyyy.mm.dd" with "????" and "??" for unknown parts.
std::string cql_date_text(const CqlDate& d);
// Returns the ECO code CQL keeps ("B12", "B12a", "B12a1"), or "" when the value is not one.
std::string cql_eco(std::string_view raw);
// Returns the result CQL reads from a Result tag value, by its prefix: "1-0", "0-1", "1/2-1/2" or "*".
std::string_view cql_result(std::string_view raw);
// Returns a player name as CQL stores it: no spaces at the start, exactly one space after each comma (none
// when the comma ends the name), other spaces kept; spaces, tabs and dots cut from the end
// ("Anand,V." -> "Anand, V").
std::string cql_player_name(std::string_view raw);

}  // namespace cqlindex::pgn
