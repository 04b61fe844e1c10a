// Finds where each game of a PGN text begins and ends, without parsing moves (fast, sequential).
//
// A game starts at its first tag or movetext byte. It ends where the next one starts:
//  - after a game-termination marker (1-0 0-1 1/2-1/2 *), at the next tag line or movetext (comments right
//    after the marker stay with the game);
//  - without a marker, at a line starting with `[Event ` (so a stray tag after movetext does not split a game,
//    as kokopu reads it, while games that lack their result still separate); also a second `[Event ` line in
//    one tag section starts a new game (the game before it has tags only).
// Comments before a game's first tag belong to that game. `{}` comments may span lines; an unterminated comment ends at a line starting with `[Event `. A tag value
// left open at the line end continues on the next line if that line closes it (so the parser, not the
// splitter, reports the broken tag). '%' lines at column 0 are escapes.
#pragma once

#include <cstdint>
#include <string_view>

namespace cqlindex::pgn {

struct GameSpan {
  uint64_t number = 0;      // 1-based
  uint64_t offset = 0;      // in the text given to the splitter (BOM included in the count)
  uint64_t length = 0;
  uint32_t first_line = 1;  // line of the first byte
  uint32_t first_col = 1;   // column of the first byte (1 unless the game starts after a marker mid-line)
};

class GameSplitter {
 public:
  // A leading UTF-8 byte-order mark is skipped. Games are numbered from `first_number` (a file of a
  // repository continues the numbers of the files before it).
  explicit GameSplitter(std::string_view text, uint64_t first_number = 1);

  // The next game; false when there is none left.
  bool next(GameSpan& span);

  // Bytes consumed so far (for progress display).
  uint64_t position() const { return p_; }

 private:
  // Prelude: only comments so far (they belong to the game whose tags follow).
  enum class State : uint8_t { Start, Prelude, Tags, Movetext, AfterResult };
  // Begins a new game at byte q; returns true (and fills span) if a previous game was thereby completed.
  bool begin_game(size_t q, State state, GameSpan& span);
  void new_line(size_t next_line_start);
  // The first non-blank byte of the current line, found once per line (a scan back from each '[' made a
  // file without line ends quadratic).
  size_t line_nonblank();

  std::string_view text_;
  size_t p_ = 0;
  size_t line_start_ = 0;
  size_t nonblank_line_ = ~size_t{0}, nonblank_at_ = 0;  // line_nonblank()'s answer for the line starting there
  uint32_t line_ = 1;
  State state_ = State::Start;
  bool in_comment_ = false;  // inside a '{' comment spanning lines
  bool open_quote_ = false;  // a tag line ended inside its quoted value
  bool started_ = false;     // a game is open
  bool seen_event_ = false;  // the open game has an `[Event ` tag line
  size_t start_ = 0;
  uint32_t start_line_ = 1, start_col_ = 1;
  uint64_t number_ = 0;
};

}  // namespace cqlindex::pgn
