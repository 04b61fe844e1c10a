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

// What one file's explore family says of a position.
enum class FamilyAnswer {
  Answered,  // its games that reach the position within the family's depth, and their moves
  NotFiled,  // none of its games reaches it there
  Unusable,  // it files a move that is not legal there (another position with the same 64-bit key)
};

// Fills `out` from the explore family's entries of `position` (only when Answered); nullopt (with `error`) when
// the index cannot be read.
std::optional<FamilyAnswer> from_family(const store::IndexStore& index, const chess::Position& position, Exploration& out,
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
  if (entries.empty()) return FamilyAnswer::NotFiled;
  const chess::MoveList legal = chess::legal_moves(position);
  for (const auto& [move, games] : entries)
    if (move.is_ok() && !legal.contains(move)) return FamilyAnswer::Unusable;
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
  return FamilyAnswer::Answered;
}

// Adds to `out` and `by_move` the replay of the candidates the similar family of file `k` lists for `position`
// (while fewer than `cap` games are replayed in all); false (with `error`) when the index or the file cannot be
// read.
bool by_replay(const ServedRepository& repository, size_t k, const chess::Position& position, uint64_t cap,
               Exploration& out, std::map<std::string, ExploreMove>& by_move, std::string* error) {
  const std::string wanted = without_clocks(out.fen);
  auto candidates = repository.index(k).position_games(store::keys::canonical_key(position), error);
  if (!candidates) return false;
  out.candidates += candidates->size();
  std::string bytes;
  pgn::Game game;
  for (const uint32_t id : candidates->bits()) {
    if (out.replayed == cap) {
      out.complete = false;
      break;
    }
    ++out.replayed;
    if (!repository.parse(repository.games_before(k) + id + 1, bytes, game, error)) return false;
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
  return true;
}

// Adds the counts of `from` to `to`.
void add_results(Results& to, const Results& from) {
  to.games += from.games, to.white += from.white, to.draws += from.draws, to.black += from.black;
}

// Adds `part` (one file's answer) to `sum` and `by_move`.
void add(const Exploration& part, Exploration& sum, std::map<std::string, ExploreMove>& by_move) {
  add_results(sum.results, part.results);
  for (const ExploreMove& m : part.moves) {
    ExploreMove& move = by_move[m.san];
    if (move.san.empty()) move = ExploreMove{m.san, m.fen, {}};
    add_results(move.results, m.results);
  }
}

}  // namespace

std::optional<Exploration> explore(const ServedRepository& repository, const std::string& fen, uint64_t cap,
                                   std::string* error) {
  const auto position = chess::Position::from_fen(fen, error);
  if (!position) return std::nullopt;
  Exploration out;
  out.fen = position->fen();
  // an index built without --explore has no family to ask: every position is replayed (depth 0)
  out.depth = UINT32_MAX;
  for (size_t k = 0; k < repository.files().size(); ++k)
    out.depth = std::min(out.depth, store::keys::files_explore(repository.index(k).meta().build_options)
                                        ? store::keys::kExploreDepth
                                        : 0u);
  // The plies before the position, as its FEN's move number tells them: within the families' depth, they are
  // asked first. They answer when one files the position and none files a move illegal there (a file whose
  // family does not file it has no game reaching it there); else (a position reached only later in every game,
  // or a key shared with another position) the candidates are replayed.
  const uint64_t ply = 2 * uint64_t(std::max(1, position->fullmove_number()) - 1) +
                       (position->side_to_move() == chess::BLACK ? 1 : 0);
  std::map<std::string, ExploreMove> by_move;
  if (ply < out.depth) {
    std::vector<Exploration> parts(repository.files().size());
    bool usable = true, answered = false;
    for (size_t k = 0; k < parts.size() && usable; ++k) {
      const auto said = from_family(repository.index(k), *position, parts[k], error);
      if (!said) return std::nullopt;
      usable = *said != FamilyAnswer::Unusable;
      answered = answered || *said == FamilyAnswer::Answered;
    }
    if (usable && answered) {
      for (const Exploration& part : parts) add(part, out, by_move);
      order_moves(by_move, out);
      out.from_index = true;
      return out;
    }
  }
  // each file's candidates in turn, within what is left of the cap: the games in the repository's order
  for (size_t k = 0; k < repository.files().size(); ++k)
    if (!by_replay(repository, k, *position, cap, out, by_move, error)) return std::nullopt;
  order_moves(by_move, out);
  return out;
}

}  // namespace cqlindex::exec
