#pragma once
// What the index keeps per game: where it is in the PGN and the attributes the planner filters on.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cqlindex::store {

enum class GameResult : uint8_t { Unknown, WhiteWins, BlackWins, Draw };

struct GameRecord {
  uint64_t offset = 0;  // byte offset of the game's first byte in the PGN
  uint32_t length = 0;  // bytes up to the next game
  uint32_t plies = 0;   // mainline plies replayed
  GameResult result = GameResult::Unknown;
  uint16_t year = 0;        // 0 when the Date tag has no year
  uint16_t white_elo = 0;   // 0 when absent
  uint16_t black_elo = 0;   // 0 when absent
  uint32_t flags = 0;       // bit set of per-game facts, defined by the indexer
  uint32_t first_line = 1;  // line and column of the game's first byte (error messages of a replay
  uint32_t first_col = 1;   // that reads the game alone)

  friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

// Returns the value bytes of `r` (varints in field order).
std::string encode_game_record(const GameRecord& r);

// Returns the record encoded in `bytes`, or nullopt when they are not one.
std::optional<GameRecord> decode_game_record(std::string_view bytes);

// Returns the key of game `id` in the games family (4 bytes big-endian, so keys sort by id).
std::string game_key(uint32_t id);

}  // namespace cqlindex::store
