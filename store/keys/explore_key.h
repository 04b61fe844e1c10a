#pragma once
// The explore family's key: an exact position (board, side to move, castling rights, the e.p. file when an e.p.
// capture is legal) and a move played from it. The position is its 64-bit Zobrist key (chess::Position::key(),
// from tables fixed at compile time), 8 bytes big-endian, so that one position's moves are one key prefix; then
// the move, 2 bytes big-endian (chess::Move::raw(); Move::none(), two zero bytes, for the games whose mainline
// ends at the position). The value is a posting list (posting_list.h) of the games that played it, merged by
// union on --append. Only the mainline positions of a game's first kExploreDepth plies are filed, each at the
// game's first visit. The build writes these keys (indexer/explore_postings.h) and exec/explore.cpp reads them
// with these functions.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/chess/position.h"

namespace cqlindex::store::keys {

// The plies filed: the positions after 0 .. kExploreDepth - 1 plies of a game's mainline, with the move played
// from each (or none: the game ended there). A position first reached later is not filed. Measured on the
// 116,573-game train file (store/README.md): depth 30 made the index 39 % larger (61.0 -> 84.6 MB) and its build
// 30 % more CPU; depth 12, 4.4 % larger (+2.7 MB, 97,000 keys) for about 12 % more build CPU.
constexpr uint32_t kExploreDepth = 12;
// The build files these keys only when asked (`build --explore`: about 12 % more build CPU); an index that has
// them says so in its meta's build options with this mark, and --append goes on filing them.
constexpr std::string_view kExploreBuildMarker = "explore-plies=12";
// True if an index whose meta carries `build_options` files the explore family.
inline bool files_explore(std::string_view build_options) {
  return build_options.find(kExploreBuildMarker) != std::string_view::npos;
}
// Bytes of a key: the position's 8, the move's 2.
constexpr size_t kExploreKeyBytes = 10;
constexpr size_t kExplorePositionBytes = 8;

// Returns the key prefix of every move filed for the position whose Zobrist key is `position_key`: 8 bytes
// big-endian.
std::string explore_position_prefix(uint64_t position_key);
// Returns the key of `move` (Move::none(): the game ended) played from the position whose Zobrist key is
// `position_key`.
std::string explore_key(uint64_t position_key, chess::Move move);
// Writes that key into `out` (kExploreKeyBytes) and returns its view: the build's allocation-free form.
std::string_view explore_key(uint64_t position_key, chess::Move move, char (&out)[kExploreKeyBytes]);
// Returns the move of an explore key, or nullopt when it is not kExploreKeyBytes long.
std::optional<chess::Move> explore_key_move(std::string_view key);

}  // namespace cqlindex::store::keys
