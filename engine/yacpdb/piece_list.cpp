#include "engine/yacpdb/piece_list.h"

#include <cctype>

namespace cqlindex::yacpdb {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Calls f(offset, item) for every blank-separated item of text.
template <typename F>
void for_each_item(std::string_view text, F&& f) {
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_blank(text[i])) ++i;
    size_t start = i;
    while (i < text.size() && !is_blank(text[i])) ++i;
    if (i > start && !f(start, text.substr(start, i - start))) return;
  }
}

}  // namespace

std::optional<PieceSpec> parse_piece(std::string_view text) {
  if (text.size() < 2 || text.size() > 3) return std::nullopt;
  char color = lower(text[0]);
  if (color != 'w' && color != 'b' && color != 'n') return std::nullopt;
  std::string_view code = text.substr(1);
  if (!is_alpha(code[0])) return std::nullopt;
  if (code.size() == 2 && !is_alnum(code[1])) return std::nullopt;
  PieceSpec p{color, {}};
  for (char c : code) p.code += upper(c);
  if (p.code == "N") p.code = "S";
  return p;
}

PieceList parse_piece_list(std::string_view text) {
  PieceList out;
  for_each_item(text, [&](size_t offset, std::string_view item) {
    auto p = parse_piece(item);
    if (!p) {
      out.error = PieceListError{offset, "expected a PIECE such as wR or bS but found '" + std::string(item) + "'"};
      return false;
    }
    out.pieces.push_back(*p);
    return true;
  });
  if (!out.error && out.pieces.empty()) out.error = PieceListError{0, "expected at least one PIECE such as wR"};
  return out;
}

PlacementList parse_placement_list(std::string_view text) {
  PlacementList out;
  for_each_item(text, [&](size_t offset, std::string_view item) {
    std::optional<PieceSpec> p;
    if (item.size() >= 4) {
      char f = lower(item[item.size() - 2]), r = item[item.size() - 1];
      if (f >= 'a' && f <= 'h' && r >= '1' && r <= '8') {
        p = parse_piece(item.substr(0, item.size() - 2));
        if (p) out.pieces.push_back({*p, f - 'a', r - '1'});
      }
    }
    if (!p) {
      out.error = PieceListError{
          offset, "expected a piece on a square such as wKa1 or nNHh8 but found '" + std::string(item) + "'"};
      return false;
    }
    return true;
  });
  if (!out.error && out.pieces.empty())
    out.error = PieceListError{0, "expected at least one piece on a square such as wKa1"};
  return out;
}

std::string to_string(const PieceSpec& p) { return std::string(1, p.color) + p.code; }

}  // namespace cqlindex::yacpdb
