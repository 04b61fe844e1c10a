// Parses the text of one game (tags + movetext) into a Game, replaying and validating every move.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/pgn/game.h"

namespace cqlindex::pgn {

struct ParseOptions {
  // Skip variations and comments (NAGs too): only tags, the mainline and the result are filled in. Faster for
  // scans that look at the mainline only; errors inside skipped variations are then not seen.
  bool mainline_only = false;
  // Read the tag section only: the tags and the start position (FEN, Variant), and the game-termination marker
  // when no Result tag stands for it (the movetext lexed, no move replayed); the nodes hold the root alone, no
  // comment or NAG is kept. For a reader that decides the game from its tags and knows its movetext clean (an
  // index records the games with PGN problems): the movetext's problems are not seen, and the marker is the first
  // the lexer meets, as in a clean game.
  bool tags_only = false;
};

// Where the game text sits in its file; copied into the Game and used for error positions.
struct GameLocation {
  uint64_t number = 1;      // 1-based game number
  uint64_t offset = 0;      // byte offset of text[0] in the file
  uint32_t first_line = 1;  // line of text[0]
  uint32_t first_col = 1;   // column of text[0] (1 unless the text starts mid-line, e.g. after "1-0 ")
};

// Clears `game` and fills it from `text`, the bytes of exactly one game. Never throws on bad input: problems
// go to game.errors (an error stops the parse; the game keeps everything up to its last legal move).
void parse_game(std::string_view text, const GameLocation& where, Game& game, const ParseOptions& options = {});

}  // namespace cqlindex::pgn
