#pragma once
// The column families of an index (DESIGN.md, "Index"). Their names are part of the on-disk format.
#include <array>
#include <cstddef>
#include <string_view>

namespace cqlindex::store {

enum class Family : size_t {
  Meta,         // schema version and the facts that tie the index to its PGN
  Games,        // game id -> GameRecord (byte offset, length, plies, attributes)
  Similar,      // canonical position key -> games where it occurs (mainline)
  Material,     // material signature -> games where it occurs
  PieceSquare,  // piece x square -> games where that piece ever stood there
  Tags,         // normalised tag token -> games
  Flags,        // per-game flag (mate, stalemate, promotion, ...) -> games
  Yacpdb,       // YACPDB predicate instance -> problems
  Count
};

constexpr size_t kFamilyCount = static_cast<size_t>(Family::Count);

// Returns the RocksDB column family name of `f`.
constexpr std::string_view family_name(Family f) {
  constexpr std::array<std::string_view, kFamilyCount> names = {
      "meta", "games", "similar", "material", "piecesq", "tags", "flags", "yacpdb"};
  return names[static_cast<size_t>(f)];
}

// Returns true for the families whose values are posting lists (merged by union).
constexpr bool holds_postings(Family f) { return f != Family::Meta && f != Family::Games; }

}  // namespace cqlindex::store
