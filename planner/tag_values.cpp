// Conservative readings of tag values (see tag_values.h). The date and ECO rules are CQL 6.2's, as written
// down at the top of engine/pgn/writer.cpp.
#include "planner/tag_values.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace cqlindex::planner {

namespace {

// The value without spaces, tabs and dots: player-name normalisation only adds/removes those (and cuts a
// trailing " (2450)"), so a substring of the normalised name is, squeezed, a substring of the squeezed raw.
std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '.') out += c;
  return out;
}

unsigned leading_unsigned(std::string_view s, size_t& i) {
  while (i < s.size() && s[i] == ' ') ++i;
  unsigned v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    if (v < 100000) v = v * 10 + unsigned(s[i] - '0');
    ++i;
  }
  return v;
}

// CQL's date: "yyyy.mm.dd" with "????"/"??" for unknown parts.
std::string cql_date(std::string_view s) {
  size_t i = 0;
  unsigned y = leading_unsigned(s, i);
  if (y > 2047) y = 0;
  while (i < s.size() && s[i] != '.') ++i;
  if (i < s.size()) ++i;
  unsigned m = leading_unsigned(s, i);
  if (m > 12) m = 0;
  while (i < s.size() && s[i] != '.') ++i;
  if (i < s.size()) ++i;
  unsigned d = leading_unsigned(s, i);
  if (d > 31) d = 0;
  char buf[64];
  std::string out = y ? (std::snprintf(buf, sizeof buf, "%04u", y), std::string(buf)) : "????";
  out += m ? (std::snprintf(buf, sizeof buf, ".%02u", m), std::string(buf)) : ".??";
  out += d ? (std::snprintf(buf, sizeof buf, ".%02u", d), std::string(buf)) : ".??";
  return out;
}

std::string cql_eco(std::string_view v) {
  if (v.size() < 3 || v[0] < 'A' || v[0] > 'E' || !std::isdigit(static_cast<unsigned char>(v[1])) ||
      !std::isdigit(static_cast<unsigned char>(v[2])))
    return {};
  return std::string(v.substr(0, std::min<size_t>(v.size(), 5)));
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
  if (squeeze(raw).find(squeeze(text)) != std::string::npos) return true;
  if (tag == "Date" || tag == "EventDate") return cql_date(raw).find(text) != std::string::npos;
  if (tag == "ECO") return cql_eco(raw).find(text) != std::string::npos;
  return false;
}

std::vector<int64_t> possible_years(std::string_view raw) {
  std::vector<int64_t> years;
  size_t i = 0;
  unsigned y = leading_unsigned(raw, i);
  if (y > 0 && y <= 2047) years.push_back(y);
  int64_t v = 0;
  std::string_view head = raw.substr(0, std::min<size_t>(raw.size(), 4));
  auto [end, ec] = std::from_chars(head.data(), head.data() + head.size(), v);
  if (ec == std::errc() && end != head.data()) years.push_back(v);
  return years;
}

std::string_view result_of_tag(std::string_view v) {
  if (v.starts_with("0-1")) return "0-1";
  if (v.starts_with("1-0")) return "1-0";
  if (v.starts_with("1/2")) return "1/2-1/2";
  return "*";
}

}  // namespace cqlindex::planner
