// The piece notations inside query parameters: PIECE ("wR", "bS", "nNH"), With's list ("wR wR bK") and
// Matrix's list of placed pieces ("wKa1 nNHh8").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/yacpdb/query_ast.h"

namespace cqlindex::yacpdb {

// A PIECE written in a query: colour w/b/n then a one- or two-character Popeye code (letter first, then a
// letter or digit); either case is accepted. The code is returned in upper case, with the query alias N read
// as the knight S (there are no nightriders in orthodox data; research 4.1). nullopt when malformed.
std::optional<PieceSpec> parse_piece(std::string_view text);

// "wR wR bK": a multiset of pieces separated by blanks.
struct PieceListError {
  size_t offset;  // byte offset of the bad item in the list text
  std::string message;
};
struct PieceList {
  std::vector<PieceSpec> pieces;
  std::optional<PieceListError> error;
};
PieceList parse_piece_list(std::string_view text);

// "wKa1 nNHh8": pieces with their squares (file 0..7, rank 0..7).
struct PlacedPiece {
  PieceSpec piece;
  int file = 0, rank = 0;
};
struct PlacementList {
  std::vector<PlacedPiece> pieces;
  std::optional<PieceListError> error;
};
PlacementList parse_placement_list(std::string_view text);

// "wS" for a PieceSpec.
std::string to_string(const PieceSpec& p);

}  // namespace cqlindex::yacpdb
