// Writes games as CQL 6.2 writes its output file: tag section in CQL's order, `{game comment}`, movetext
// wrapped below column 80, result, two blank lines. The layout rules are listed at the top of writer.cpp.
//
// The CQL evaluator adds its own comments (`Game number N`, `CQL` at matched positions, sort/path/echo text)
// through `AddedComment`s: CQL appends them to the comment after a node's move, as CQL 6.2 does.
#pragma once

#include <forward_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/pgn/game.h"

namespace cqlindex::pgn {

// A comment CQL adds to a game. Node 0 (the start position) is the game comment written before the first move
// (`{Game number 248}`, merged into an existing first comment); any other node gets it after its move and NAGs.
// Several added at one node are kept in the order given ("Game number N" first at node 0, as CQL adds it).
// One with `remove_original` drops the comment read from the input there (the game comment at node 0) and
// adds no text; the texts added at that node stay.
struct AddedComment {
  NodeIndex node = 0;
  std::string text;
  bool remove_original = false;  // removecomment: drops the input's comment at `node` (text unused)
};

// How the comments read from the input are taken.
enum class CommentText : uint8_t {
  AsCqlReads,  // as CQL's PGN reader stores them: whitespace runs (space, tab, CR, LF) made one space, trimmed
  Verbatim,    // bytes kept; a '\n' stays a line break (for writing CQL's own output files back unchanged)
};

struct WriteOptions {
  CommentText comment_text = CommentText::AsCqlReads;
  bool variations = true;  // false: mainline only
  // CQL 6.2 writes a game through a 105,000-byte buffer: a longer game keeps its first 104,999 bytes and ends
  // " game truncated by CQL } * " (util::game_to_string). 0: never truncate.
  size_t truncate_at = kCqlGameBufferSize;
  static constexpr size_t kCqlGameBufferSize = 105000;
  // when set, counts the comments left as they were because the additions would pass 4500 bytes (CQL 6.2 says
  // "Ignoring long comment in game: N" for each)
  size_t* ignored_comments = nullptr;
};

// A game's comments by where CQL keeps them: one text per place (AsCqlReads: the last comment read there, as
// CQL keeps it; Verbatim: all of them joined by a space). nullopt: no comment there. The texts are views into
// the game's text, the additions given, or the texts kept here: valid while those live.
struct GameComments {
  using Text = std::optional<std::string_view>;
  Text game;                         // before the first move
  std::vector<Text> after;           // by node: after the node's move (and NAGs)
  std::vector<Text> variation_start;  // by node: opening the variation that node starts

  // Returns a view of `text`, kept here (a list: its texts never move, also when this is moved).
  std::string_view keep(std::string text) { return owned_.emplace_front(std::move(text)); }

 private:
  std::forward_list<std::string> owned_;
};

// The comments of `game` placed as CQL 6.2 places them, their text taken as `mode` says.
GameComments cql_comments(const Game& game, CommentText mode);

// Appends `game`, laid out as CQL 6.2 writes it, to `out`. `added` need not be sorted.
void write_game(const Game& game, std::span<const AddedComment> added, const WriteOptions& options,
                std::string& out);
inline void write_game(const Game& game, std::string& out) { write_game(game, {}, {}, out); }

// The comment CQL leaves at a position after appending `additions` to its `original` comment (nullopt: none):
// additions joined by single spaces (a space after a non-empty original), "[cql truncate]..." once the text
// would pass 4500 bytes; the whole text then has `{`/`}` turned into `_` and bytes >= 127 into `?`. When the
// original plus additions pass 4500 bytes CQL keeps the original unchanged (`*ignored` is set then).
std::optional<std::string> merge_cql_comment(std::optional<std::string_view> original,
                                             std::span<const std::string_view> additions, bool* ignored = nullptr);

// A comment's text as CQL's reader keeps it: runs of spaces, tabs, CRs and LFs made one space, ends trimmed.
std::string cql_comment_text(std::string_view raw);

}  // namespace cqlindex::pgn
