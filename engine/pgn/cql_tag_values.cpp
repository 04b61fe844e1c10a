// CQL 6.2's readings of tag values.
#include "engine/pgn/cql_tag_values.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace cqlindex::pgn {

namespace {

// Leading decimal digits of `s` from `i` (after spaces) as a number; i is left after them.
unsigned leading_unsigned(std::string_view s, size_t& i) {
  while (i < s.size() && s[i] == ' ') ++i;
  unsigned v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    if (v < 100000) v = v * 10 + unsigned(s[i] - '0');
    ++i;
  }
  return v;
}

}  // namespace

std::optional<int64_t> tag_integer(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [at, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || at != end) return std::nullopt;
  return value;
}

std::optional<int64_t> tag_year(std::string_view date) { return tag_integer(date.substr(0, 4)); }

unsigned cql_leading_number(std::string_view raw) {
  size_t i = 0;
  return leading_unsigned(raw, i);
}

CqlDate cql_date(std::string_view s) {
  CqlDate d;
  size_t i = 0;
  d.year = leading_unsigned(s, i);
  if (d.year > 2047) d.year = 0;
  while (i < s.size() && s[i] != '.') ++i;
  if (i < s.size()) ++i;
  d.month = leading_unsigned(s, i);
  if (d.month > 12) d.month = 0;
  while (i < s.size() && s[i] != '.') ++i;
  if (i < s.size()) ++i;
  d.day = leading_unsigned(s, i);
  if (d.day > 31) d.day = 0;
  return d;
}

std::string cql_date_text(const CqlDate& d) {
  char buf[32];
  std::string y = d.year ? (std::snprintf(buf, sizeof buf, "%04u", d.year), std::string(buf)) : "????";
  std::string m = d.month ? (std::snprintf(buf, sizeof buf, "%02u", d.month), std::string(buf)) : "??";
  std::string dd = d.day ? (std::snprintf(buf, sizeof buf, "%02u", d.day), std::string(buf)) : "??";
  return y + "." + m + "." + dd;
}

std::string cql_eco(std::string_view v) {
  // a lower-case letter is read as its capital (CQL 6.2 writes "b12" as B12)
  const char letter = char(std::toupper(static_cast<unsigned char>(v.empty() ? ' ' : v[0])));
  if (v.size() < 3 || letter < 'A' || letter > 'E' || !std::isdigit(static_cast<unsigned char>(v[1])) ||
      !std::isdigit(static_cast<unsigned char>(v[2])))
    return {};
  std::string e(v.substr(0, 3));
  e[0] = letter;
  if (v.size() > 3 && v[3] >= 'a' && v[3] <= 'z') {
    e += v[3];
    if (v.size() > 4 && v[4] >= '1' && v[4] <= '4') e += v[4];
  }
  return e;
}

std::string_view cql_result(std::string_view v) {
  if (v.starts_with("0-1")) return "0-1";
  if (v.starts_with("1-0")) return "1-0";
  if (v.starts_with("1/2")) return "1/2-1/2";
  return "*";
}

std::string cql_player_name(std::string_view v) {
  std::string s;
  s.reserve(v.size() + 2);
  bool after_comma = false, at_start = true;
  for (char c : v) {
    if (c == ',') {
      s += ',';
      after_comma = true;
      at_start = false;
    } else if (c == ' ') {
      if (!after_comma && !at_start) s += ' ';
    } else {
      at_start = false;
      if (after_comma) s += ' ';
      s += c;
      after_comma = false;
    }
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '.')) s.pop_back();
  return s;
}

}  // namespace cqlindex::pgn
