// FEN as a person types it: its fields, why a text is not a FEN (the field and the byte where it goes wrong),
// and what text is meant as a FEN at all. The parser itself is Position::from_fen (position.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cqlindex::chess {

// The fields of a FEN, in order; the two clocks (halfmove, fullmove) are one field for the reader.
enum class FenField : uint8_t { Board, SideToMove, Castling, EnPassant, Clocks };

// "board", "side to move", "castling", "en passant", "clocks".
const char* fen_field_name(FenField field);

// Why a text is not a FEN: the field at fault, the byte of the text where it goes wrong (0-based; the text's
// length when a field is missing), and the reason.
struct FenError {
  FenField field = FenField::Board;
  size_t offset = 0;
  std::string message;
};

// Whether the side to move may be left out (then white moves): PGN's FEN tags may stop after the board, as
// CQL reads them; a study a person types must say who moves.
enum class FenSide : uint8_t { Optional, Required };

// Returns whether `line` is meant as a FEN, right or wrong: its first word holds two '/' or more (a board
// of ranks) and is not the draw "1/2-1/2". No other PGN word does: tags start with '[', comments with '{' or
// ';', moves and move numbers hold no '/'. A FEN whose ranks are wrong in number or content still looks like one.
bool looks_like_fen(std::string_view line);

}  // namespace cqlindex::chess
