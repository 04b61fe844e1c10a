#include "engine/chess/fen.h"

#include <algorithm>
#include <cctype>

namespace cqlindex::chess {

const char* fen_field_name(FenField field) {
  switch (field) {
    case FenField::Board: return "board";
    case FenField::SideToMove: return "side to move";
    case FenField::Castling: return "castling";
    case FenField::EnPassant: return "en passant";
    case FenField::Clocks: return "clocks";
  }
  return "board";
}

bool looks_like_fen(std::string_view line) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  const size_t begin = size_t(std::find_if_not(line.begin(), line.end(), space) - line.begin());
  const size_t end = size_t(std::find_if(line.begin() + begin, line.end(), space) - line.begin());
  const std::string_view word = line.substr(begin, end - begin);
  return std::count(word.begin(), word.end(), '/') >= 2 && word.substr(0, 7) != "1/2-1/2";
}

}  // namespace cqlindex::chess
