// Conservative readings of tag values (see tag_values.h). The date, ECO and result readings are CQL 6.2's
// (engine/pgn/cql_tag_values.h), the ones the writer uses.
#include "planner/tag_values.h"

#include "engine/pgn/cql_tag_values.h"

#include <cctype>
#include <cstdio>

namespace cqlindex::planner {

namespace {

// True for the characters a squeezed value leaves out: player-name normalisation only adds/removes spaces, tabs
// and dots (and cuts a trailing " (2450)"), so a substring of the normalised name is, squeezed, a substring of the
// squeezed raw value.
bool squeezed_out(char c) { return c == ' ' || c == '\t' || c == '.'; }

// Returns true when `text` without spaces, tabs and dots occurs in `raw` without them. Compared in place, with no
// copy: a server's tag test calls it for every distinct player name of the index (tens of thousands a query).
bool contains_squeezed(std::string_view raw, std::string_view text) {
  size_t first = 0;
  while (first < text.size() && squeezed_out(text[first])) ++first;
  if (first == text.size()) return true;  // nothing left: found in every value
  for (size_t start = 0; start < raw.size(); ++start) {
    if (raw[start] != text[first]) continue;  // (text[first] is kept, so raw[start] is too)
    size_t r = start, t = first;
    for (;;) {
      while (t < text.size() && squeezed_out(text[t])) ++t;
      if (t == text.size()) return true;
      while (r < raw.size() && squeezed_out(raw[r])) ++r;
      if (r == raw.size() || raw[r] != text[t]) break;
      ++r;
      ++t;
    }
  }
  return false;
}

bool has_high_byte(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  return false;
}

}  // namespace

bool may_contain(std::string_view tag, std::string_view raw, std::string_view text) {
  if (has_high_byte(raw) || has_high_byte(text)) return true;  // encodings may be rewritten on reading
  if (raw.find(text) != std::string_view::npos) return true;
  if (contains_squeezed(raw, text)) return true;
  if (tag == "Date" || tag == "EventDate") {
    pgn::CqlDate date = pgn::cql_date(raw);
    if (pgn::cql_date_text(date).find(text) != std::string::npos) return true;
    date.day = date.month ? date.day : 0;  // CQL writes Date "2012.??.03" as "2012.??.??"
    return pgn::cql_date_text(date).find(text) != std::string::npos;
  }
  if (tag == "ECO") return pgn::cql_eco(raw).find(text) != std::string::npos;
  return false;
}

PossibleYears possible_years(std::string_view raw) {
  PossibleYears out;
  if (const auto y = pgn::tag_year(raw)) out.years.push_back(*y);
  else out.maybe_none = true;
  const unsigned y = pgn::cql_leading_number(raw);
  if (y > 0 && y <= 2047) out.years.push_back(y);
  else out.maybe_none = true;
  return out;
}

std::string_view result_of_tag(std::string_view v) { return pgn::cql_result(v); }

}  // namespace cqlindex::planner
