// Copy k of a real game: copy 0 is the game itself; copy k >= 1 leaves the game at a pseudo-random ply among
// its last kVariationWindow plies and plays 1 to kMaxRandomPlies pseudo-random legal moves from there (the
// first one never the move the game played), with " vK" added to its Event tag. Everything is a function of
// (seed, source index, copy, salt): the same arguments always give the same bytes.
#pragma once

#include <cstdint>
#include <string>

#include "tools/scale-pgn/source_games.h"

namespace cqlindex::tools {

constexpr uint32_t kMaxRandomPlies = 8;

struct GameText {
  uint32_t plies = 0;     // mainline plies written
  uint64_t moves_hash = 0;  // hash of the movetext alone (to count distinct move sequences)
};

// Appends copy `copy` of `game` (source number `index`) as PGN text (tags, blank line, movetext wrapped before
// column 80, result, blank line) to `out`. A non-zero `salt` draws another variation of the same copy.
GameText write_game(const SourceGame& game, uint64_t index, uint64_t copy, uint64_t seed, uint32_t salt,
                    std::string& out);

}  // namespace cqlindex::tools
