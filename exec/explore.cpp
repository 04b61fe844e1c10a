// An opening explorer's view of one position: the explore family's postings, or candidates from the similar
// family replayed for the exact position.
#include "exec/explore.h"

#include <algorithm>
#include <map>

#include "engine/chess/movegen.h"
#include "engine/chess/position.h"
#include "engine/chess/san.h"
#include "engine/pgn/game.h"
#include "store/index_store.h"
#include "store/keys/canonical_key.h"
#include "store/keys/explore_key.h"
#include "store/keys/tag_key.h"

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

// Orders the moves as an explorer lists them: most played first, then in SAN order.
void order_moves(std::map<std::string, ExploreMove>& by_move, Exploration& out) {
  for (auto& [san, move] : by_move) out.moves.push_back(std::move(move));
  std::stable_sort(out.moves.begin(), out.moves.end(),
                   [](const ExploreMove& a, const ExploreMove& b) { return a.results.games > b.results.games; });
}

// The games of each decisive result and of draws, from the tags family (Result "1-0", "1/2-1/2", "0-1"), as
// the replay reads a game's Result tag.
struct ResultGames {
  Roaring white, draws, black;
};

// Returns the games by result, or nullopt (with `error`) when the index cannot be read.
std::optional<ResultGames> result_games(const store::IndexStore& index, std::string* error) {
  ResultGames r;
  for (auto [value, bits] : {std::pair{"1-0", &r.white}, {"1/2-1/2", &r.draws}, {"0-1", &r.black}}) {
    auto list = index.postings(store::Family::Tags, store::keys::tag_key("Result", value), error);
    if (!list) return std::nullopt;
    *bits = std::move(list->bits());
  }
  return r;
}

// Returns the counts of `games` by result.
Results results_of(const Roaring& games, const ResultGames& by_result) {
  return Results{games.cardinality(), games.and_cardinality(by_result.white), games.and_cardinality(by_result.draws),
                 games.and_cardinality(by_result.black)};
}

// Fills `out` from the explore family's entries of `position`; false (nothing filled) when the family files none,
// or files a move that is not legal there (another position with the same 64-bit key: the replay answers); nullopt
// (with `error`) when the index cannot be read.
std::optional<bool> from_family(const store::IndexStore& index, const chess::Position& position, Exploration& out,
                                std::string* error) {
  std::vector<std::pair<chess::Move, store::PostingList>> entries;
  std::string damaged;
  const bool read = index.for_each(store::Family::Explore, store::keys::explore_position_prefix(position.key()),
                                   [&](std::string_view key, std::string_view value) {
    auto move = store::keys::explore_key_move(key);
    auto games = store::PostingList::decode(value, &damaged);
    if (!move || !games) {
      if (damaged.empty()) damaged = "a key of " + std::to_string(key.size()) + " bytes";
      return false;
    }
    entries.emplace_back(*move, std::move(*games));
    return true;
  }, error);
  if (!read) return std::nullopt;
  if (!damaged.empty()) {
    if (error) *error = "the index's explore family holds an entry it cannot read (" + damaged + "): rebuild it";
    return std::nullopt;
  }
  if (entries.empty()) return false;
  const chess::MoveList legal = chess::legal_moves(position);
  for (const auto& [move, games] : entries)
    if (move.is_ok() && !legal.contains(move)) return false;
  const auto by_result = result_games(index, error);
  if (!by_result) return std::nullopt;
  Roaring all;
  std::map<std::string, ExploreMove> by_move;
  for (const auto& [move, games] : entries) {
    all |= games.bits();
    if (move.is_none()) continue;  // the games that ended here
    const chess::Position next = position.after(move);
    const std::string san = move.is_null() ? std::string("--") : chess::to_san(position, move, next);
    by_move[san] = ExploreMove{san, next.fen(), results_of(games.bits(), *by_result)};
  }
  out.results = results_of(all, *by_result);
  order_moves(by_move, out);
  out.from_index = true;
  return true;
}

// Fills `out` by replaying the candidates the similar family lists for `position` (at most `cap`); false (with
// `error`) when the index or the file cannot be read.
bool by_replay(const ServedRepository& repository, const chess::Position& position, uint64_t cap, Exploration& out,
               std::string* error) {
  const std::string wanted = without_clocks(out.fen);
  auto candidates = repository.index().position_games(store::keys::canonical_key(position), error);
  if (!candidates) return false;
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
    if (!repository.parse(uint64_t(id) + 1, bytes, game, error)) return false;
    if (!game.start_known) continue;
    // the mainline's positions, each compared by its board first (cheap), then by the whole FEN's four fields
    for (pgn::NodeIndex n = 0; n != pgn::kNoNode && n < game.positions.size(); n = game.nodes[n].first_child) {
      const chess::Position& here = game.positions[n];
      if (here.pieces() != position.pieces() || here.side_to_move() != position.side_to_move() ||
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
  order_moves(by_move, out);
  return true;
}

}  // namespace

std::optional<Exploration> explore(const ServedRepository& repository, const std::string& fen, uint64_t cap,
                                   std::string* error) {
  const auto position = chess::Position::from_fen(fen, error);
  if (!position) return std::nullopt;
  Exploration out;
  out.fen = position->fen();
  // an index built without --explore has no family to ask: every position is replayed (depth 0)
  const uint32_t depth =
      store::keys::files_explore(repository.index().meta().build_options) ? store::keys::kExploreDepth : 0;
  out.depth = depth;
  // The plies before the position, as its FEN's move number tells them: within the family's depth, it is asked
  // first (a position it does not file, one reached only later in every game, is replayed).
  const uint64_t ply = 2 * uint64_t(std::max(1, position->fullmove_number()) - 1) +
                       (position->side_to_move() == chess::BLACK ? 1 : 0);
  if (ply < depth) {
    auto filed = from_family(repository.index(), *position, out, error);  // fills `out` only when it answers
    if (!filed) return std::nullopt;
    if (*filed) return out;
  }
  if (!by_replay(repository, *position, cap, out, error)) return std::nullopt;
  return out;
}

}  // namespace cqlindex::exec
