#pragma once
// Key layouts of the families the planner reads (material, piecesq, flags). The planner builds look-up keys
// with these same functions, so the two sides cannot drift apart.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/chess/position.h"

namespace cqlindex::indexer {

// A position's material: counts of Q R B N P (white) then q r b n p (black); kings are always one each.
using Material = std::array<uint8_t, 10>;

// Returns the material of `pos`.
Material material_of(const chess::Position& pos);
// Returns the material family key: the ten counts as ten bytes, in the order of Material.
std::string material_key(const Material& m);
// Returns the material held by a key of the material family (the inverse of material_key).
Material material_from_key(std::string_view key);

// Returns the piecesq family key of `piece` on `square`: its FEN letter and the square's name ("Ra1", "pe5").
std::string piece_square_key(chess::Piece piece, chess::Square square);

// Per-game facts of the mainline, each a key of the flags family.
enum class GameFlag : uint8_t {
  Check,        // some position has the side to move in check
  Mate,         // some position is checkmate
  Stalemate,    // some position is stalemate
  PromoteQueen, PromoteRook, PromoteBishop, PromoteKnight,  // a move promotes to that piece
  CastleShort, CastleLong,  // a castling move (either colour)
  EnPassant,    // an en passant capture
  NullMove,     // a null move
  PgnProblem,   // the PGN text of the game has errors or warnings (variations included): a query reads the
                // game to report them even when the index rules it out, as a scan would
  Count
};
constexpr size_t kGameFlagCount = static_cast<size_t>(GameFlag::Count);

// Returns the flags family key of `flag` ("check", "mate", "promote=Q", "castle=O-O", ...).
std::string_view game_flag_key(GameFlag flag);

// The tags family: one key per (tag name, raw value) that occurs in a game, every occurrence of a repeated tag,
// the value exactly as read (unescaped, not normalised: the planner's tests are written to be conservative
// over CQL's normalisation). Keys are the name, a separator byte, then the value:
enum class TagKeyKind : char {
  Whole = '\0',      // name \0 value: the whole value (at most kMaxTagValueBytes)
  Truncated = '\1',  // name \1 first kMaxTagValueBytes of a longer value: a test on it can only say "maybe"
  Missing = '\2',    // name \2: the game has no such tag (CQL may read it as "?", "????.??.??", ...)
  Marker = '\3',     // "Result" \3 token: the movetext's termination marker ("1-0", "0-1", "1/2-1/2", "*")
};
constexpr size_t kMaxTagValueBytes = 200;
// The tag names the build records (and for which Missing keys exist).
constexpr std::string_view kIndexedTags[] = {"White", "Black", "Event", "Site", "Date", "EventDate",
                                             "Round", "ECO", "Result", "WhiteElo", "BlackElo"};

// Returns the tags family key of `value` of tag `name` (Whole, or Truncated when the value is too long).
std::string tag_key(std::string_view name, std::string_view value);
// Returns the key of kind `kind` for tag `name` with `text` after the separator.
std::string tag_key(std::string_view name, TagKeyKind kind, std::string_view text = {});

}  // namespace cqlindex::indexer
