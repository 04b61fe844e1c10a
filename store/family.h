#pragma once
// The column families of an index. Their names are part of the on-disk format; their key and value layouts are
// in store/README.md, each key layout in one file (named below).
#include <array>
#include <cstddef>
#include <string_view>

namespace cqlindex::store {

enum class Family : size_t {
  Meta,         // field name -> schema version and the facts that tie the index to its PGN (index_meta.h)
  Games,        // game id -> GameRecord: byte offset, length, plies, attributes (game_record.h)
  Similar,      // bucket of position hashes -> the (tag, games) entries of the positions in it, mainline
                // (position_buckets.h): a canonical position key (keys/canonical_key.h) is not stored itself
  Material,     // material signature -> games where it occurs (keys/material_key.h)
  PieceSquare,  // piece on square -> games where that piece ever stood there (keys/piece_square_key.h)
  Tags,         // tag name, kind byte, raw value (not normalised) -> games (keys/tag_key.h)
  Flags,        // per-game flag (mate, stalemate, promotion, ...) -> games (keys/flag_key.h)
  Yacpdb,       // YACPDB predicate instance -> problems and counts; entries' metadata and texts (keys/yacpdb_key.h)
  Explore,      // exact position (Zobrist key) + move played from it -> games, for the mainline positions of the
                // games' first plies (keys/explore_key.h): `serve`'s opening explorer answers from one prefix read
                // instead of replaying the similar family's candidates; a posting family, so it rides the build's
                // sorted runs and --append's union merge like the others
  TagKeys,      // first tags-family key of a chunk -> the chunk's keys, front-coded (key_directory.h): a tag test
                // reads its tag's names from a few values instead of stepping through the tags family key by key;
                // written whole after the tags family by every build and --append (absent before: scanned instead)
  Count
};

constexpr size_t kFamilyCount = static_cast<size_t>(Family::Count);

// Returns the RocksDB column family name of `f`.
constexpr std::string_view family_name(Family f) {
  constexpr std::array<std::string_view, kFamilyCount> names = {
      "meta", "games", "similar", "material", "piecesq", "tags", "flags", "yacpdb", "explore", "tagkeys"};
  return names[static_cast<size_t>(f)];
}

// Returns true for the families whose values name the games of a look-up key (all but meta, games and tagkeys): a build
// may write them with Merge, posting lists merged by union and the similar family's bucket entries by their own
// operator (the yacpdb family, whose values carry counts, is only ever Put).
constexpr bool holds_postings(Family f) { return f != Family::Meta && f != Family::Games && f != Family::TagKeys; }

}  // namespace cqlindex::store
