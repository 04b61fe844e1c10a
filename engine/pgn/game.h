// One PGN game in memory: where it sits in the file, its tags and its movetext tree.
//
// A Game is meant to be reused: the reader clears and refills it for every game, so its vectors keep their
// capacity and the hot path allocates nothing. Text (tag names and values, comments) is held as string_views
// into the parsed buffer (the memory-mapped file) and is therefore valid only while that buffer lives; the rare
// texts that must be rewritten (tag values with `\"` or `\\` escapes) live in the Game's own storage.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/position.h"
#include "engine/chess/types.h"
#include "engine/pgn/pgn_error.h"

namespace cqlindex::pgn {

using NodeIndex = uint32_t;
constexpr NodeIndex kNoNode = UINT32_MAX;

// A tag pair `[Name "Value"]`.
struct Tag {
  std::string_view name;
  // The bytes between the quotes exactly as in the file (escapes `\"` and `\\` left as they are).
  std::string_view raw_value;
  // The value with `\"` -> `"` and `\\` -> `\` undone; equals raw_value when there are no escapes.
  std::string_view value;
};

enum class CommentKind : uint8_t { Brace, Semicolon };
// Where a comment stands relative to the move of its node.
enum class CommentPlace : uint8_t {
  Before,  // before the move: at the start of a variation or of the game (`( {c} 12...Kd8 )`)
  After,   // after the move (and after `variations_before` of the move's alternative variations)
};

struct Comment {
  std::string_view text;  // the bytes between `{` and `}` (or after `;` up to the line end), untouched
  NodeIndex node = 0;
  CommentKind kind = CommentKind::Brace;
  CommentPlace place = CommentPlace::After;
  // For After comments: how many `( ... )` variations written after this node's move (alternatives to it,
  // i.e. its next siblings) were closed before the comment. `12. e4 {a} (12. d4) {b}`: a has 0, b has 1.
  uint16_t variations_before = 0;
};

struct Nag {
  NodeIndex node = 0;
  uint8_t value = 0;  // $n; `!`=1 `?`=2 `!!`=3 `??`=4 `!?`=5 `?!`=6; text glyphs `+-`=18, `=`=10, ...
  // Written before the node's move, at the start of a variation (`( $42 4.Bc4 )`); normally false.
  bool before_move = false;
};

// A node of the movetext tree. Node 0 is the root: the start position, no move. A node's first child is the
// main continuation; the first child's next siblings are the alternative variations, in file order.
struct Node {
  chess::Move move = chess::Move::none();  // the move leading to this node (Move::null() for `--`/`Z0`)
  NodeIndex parent = kNoNode;
  NodeIndex first_child = kNoNode;
  NodeIndex next_sibling = kNoNode;
  uint32_t first_nag = 0;      // index into Game::nags
  uint32_t first_comment = 0;  // index into Game::comments
  uint32_t nag_count = 0;
  uint32_t comment_count = 0;
  uint32_t ply = 0;  // plies from the start position (root = 0)
  uint32_t line = 0;  // 1-based line of the move token in the file
  uint32_t col = 0;   // 1-based byte column of the move token
};

// The game-termination marker.
enum class Result : uint8_t { WhiteWins, BlackWins, Draw, Unknown /* `*` */, Missing /* no marker */ };

enum class GameStatus : uint8_t {
  Ok,              // every move legal, syntax clean (warnings allowed)
  Error,           // an error stopped the parse; the tree holds everything up to the last legal move
  SkippedVariant,  // a chess variant other than standard/Chess960 (tags read, movetext not)
};

class Game {
 public:
  Game() { clear(); }
  // Not implicitly copyable: texts rewritten by keep() are views into this game's own storage, which a copy
  // would not own. copy_viewing() makes such a copy on purpose.
  Game& operator=(const Game&) = delete;
  Game(Game&&) = default;             // std::deque keeps its elements' addresses when moved
  Game& operator=(Game&&) = default;
  // Returns a copy to amend (e.g. tags a query sets); its texts are views valid only while this game and its
  // buffer live.
  Game copy_viewing() const { return Game(*this); }

  // -- where the game is
  uint64_t number = 0;      // 1-based, file order, as CQL counts (skipped and broken games included)
  uint64_t offset = 0;      // byte offset of the game's first byte in the file
  uint64_t length = 0;      // bytes up to the start of the next game (or the end of the file)
  uint32_t first_line = 0;  // 1-based line of the game's first byte
  uint32_t first_col = 1;   // 1-based column of that byte

  // -- content
  std::vector<Tag> tags;
  std::vector<Node> nodes;  // nodes[0] is the root
  std::vector<Nag> nags;
  std::vector<Comment> comments;
  chess::Position start = chess::Position::start();  // from FEN/SetUp, else the standard start
  bool custom_start = false;                           // a FEN tag set the start position
  // False when the start position is unknown: the tag section was broken (a FEN tag may have been lost), the
  // FEN tag could not be read, or the game was skipped as a variant. Such a game has no positions at all.
  bool start_known = true;
  bool chess960 = false;                               // Variant tag names Chess960
  Result result = Result::Missing;
  std::string_view result_token;  // "1-0", "0-1", "1/2-1/2", "*" or empty
  GameStatus status = GameStatus::Ok;
  std::string_view variant;  // the Variant tag's value when the game was skipped for it

  // By node: the position after the node's move (positions[0] = start), as the parser replayed it; filled for
  // every node the parser adds (empty for games built another way: replay the moves then).
  std::vector<chess::Position> positions;

  // -- problems found in this game (errors and warnings), in file order
  std::vector<PgnError> errors;

  // Empties the game but keeps the vectors' capacity.
  void clear();

  // The value of the first tag with this name (case-sensitive), if any.
  std::optional<std::string_view> tag(std::string_view name) const;

  const Node& root() const { return nodes[0]; }
  // The NAGs and comments attached to a node.
  std::span<const Nag> nags_of(const Node& n) const { return {nags.data() + n.first_nag, n.nag_count}; }
  std::span<const Comment> comments_of(const Node& n) const {
    return {comments.data() + n.first_comment, n.comment_count};
  }

  // The mainline moves in order (first children from the root).
  std::vector<chess::Move> mainline() const;
  // Number of moves on the mainline.
  uint32_t mainline_plies() const;
  // True when the game has at least one error (not just warnings).
  bool has_errors() const;

  // Storage for texts that had to be rewritten (unescaped tag values); stable addresses.
  std::string_view keep(std::string text);

 private:
  Game(const Game&) = default;
  std::deque<std::string> owned_;
};

}  // namespace cqlindex::pgn
