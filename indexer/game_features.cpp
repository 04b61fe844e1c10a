// Per-game extraction: every mainline position's canonical key, and the tag-derived attributes.
#include "indexer/game_features.h"

#include <charconv>

#include "indexer/canonical_key.h"

namespace cqlindex::indexer {
namespace {

// Returns the leading decimal number of `text` if it is in [lo, hi], else 0 ("?", "????.??.??", "").
uint16_t leading_number(std::string_view text, int digits, int lo, int hi) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + std::min<size_t>(text.size(), digits), value);
  if (ec != std::errc() || end == text.data() || value < lo || value > hi) return 0;
  return static_cast<uint16_t>(value);
}

store::GameResult result_of(std::optional<std::string_view> tag) {
  if (!tag) return store::GameResult::Unknown;
  if (*tag == "1-0") return store::GameResult::WhiteWins;
  if (*tag == "0-1") return store::GameResult::BlackWins;
  if (*tag == "1/2-1/2") return store::GameResult::Draw;
  return store::GameResult::Unknown;
}

}  // namespace

IndexedGame index_game(const pgn::Game& game, uint32_t id, uint64_t base_offset, RunWriter& runs) {
  IndexedGame out;
  store::GameRecord& r = out.record;
  r.offset = base_offset + game.offset;
  r.length = static_cast<uint32_t>(game.length);
  r.result = result_of(game.tag("Result"));
  if (auto date = game.tag("Date")) r.year = leading_number(*date, 4, 1, 9999);
  if (auto elo = game.tag("WhiteElo")) r.white_elo = leading_number(*elo, 4, 1, 4000);
  if (auto elo = game.tag("BlackElo")) r.black_elo = leading_number(*elo, 4, 1, 4000);
  if (game.status == pgn::GameStatus::SkippedVariant) return out;

  chess::Position pos = game.start;
  char key[kMaxKeyBytes];
  runs.add(store::Family::Similar, std::string_view(key, canonical_key(pos, key)), id);
  out.positions = 1;
  for (pgn::NodeIndex n = game.root().first_child; n != pgn::kNoNode; n = game.nodes[n].first_child) {
    pos.do_move(game.nodes[n].move);
    runs.add(store::Family::Similar, std::string_view(key, canonical_key(pos, key)), id);
    ++out.positions;
  }
  r.plies = out.positions - 1;
  return out;
}

}  // namespace cqlindex::indexer
