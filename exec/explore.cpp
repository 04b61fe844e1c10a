// An opening explorer's view of one position: candidates from the similar family, replayed for the exact
// position.
#include "exec/explore.h"

#include <algorithm>
#include <map>

#include "engine/chess/position.h"
#include "engine/chess/san.h"
#include "engine/pgn/game.h"
#include "store/keys/canonical_key.h"
#include "store/index_store.h"

namespace cqlindex::exec {
namespace {

// The first four fields of a FEN (board, side to move, castling, en passant): the position without its clocks.
std::string without_clocks(const std::string& fen) {
  size_t at = 0;
  for (int field = 0; field < 4 && at != std::string::npos; ++field) at = fen.find(' ', at + (field ? 1 : 0));
  return at == std::string::npos ? fen : fen.substr(0, at);
}

// Adds one game with PGN result `result` to `r`.
void count(Results& r, const std::string& result) {
  ++r.games;
  if (result == "1-0") ++r.white;
  else if (result == "1/2-1/2") ++r.draws;
  else if (result == "0-1") ++r.black;
}

}  // namespace

std::optional<Exploration> explore(const ServedRepository& repository, const std::string& fen, uint64_t cap,
                                   std::string* error) {
  const auto position = chess::Position::from_fen(fen, error);
  if (!position) return std::nullopt;
  Exploration out;
  out.fen = position->fen();
  const std::string wanted = without_clocks(out.fen);
  auto candidates = repository.index().position_games(store::keys::canonical_key(*position), error);
  if (!candidates) return std::nullopt;
  out.candidates = candidates->size();
  std::map<std::string, ExploreMove> by_move;
  std::string bytes;
  pgn::Game game;
  for (const uint32_t id : candidates->bits()) {
    if (out.replayed == cap) {
      out.complete = false;
      break;
    }
    ++out.replayed;
    if (!repository.parse(uint64_t(id) + 1, bytes, game, error)) return std::nullopt;
    if (!game.start_known) continue;
    // the mainline's positions, each compared by its board first (cheap), then by the whole FEN's four fields
    for (pgn::NodeIndex n = 0; n != pgn::kNoNode && n < game.positions.size(); n = game.nodes[n].first_child) {
      const chess::Position& here = game.positions[n];
      if (here.pieces() != position->pieces() || here.side_to_move() != position->side_to_move() ||
          without_clocks(here.fen()) != wanted)
        continue;
      const std::string result(game.tag("Result").value_or(""));
      count(out.results, result);
      if (const pgn::NodeIndex next = game.nodes[n].first_child; next != pgn::kNoNode && next < game.positions.size()) {
        const std::string san = game.nodes[next].move.is_null()
                                    ? std::string("--")
                                    : chess::to_san(here, game.nodes[next].move, game.positions[next]);
        ExploreMove& move = by_move[san];
        if (move.san.empty()) move = ExploreMove{san, game.positions[next].fen(), {}};
        count(move.results, result);
      }
      break;  // a game counts once, at its first visit of the position
    }
  }
  for (auto& [san, move] : by_move) out.moves.push_back(std::move(move));
  std::stable_sort(out.moves.begin(), out.moves.end(),
                   [](const ExploreMove& a, const ExploreMove& b) { return a.results.games > b.results.games; });
  return out;
}

}  // namespace cqlindex::exec
