// GET /api/info, GET /api/game/N and GET /api/explore: what the served repositories hold, one game of one with
// its positions, the moves played from one position.
#include <charconv>

#include "exec/explore.h"
#include "exec/served_query.h"

#include "serve/api_support.h"

namespace cqlindex::serve {

namespace {

// Returns what `named` holds: its name, what it was named as, its files (each with its index and games), its
// games and positions, whether it is fresh, and its problem file.
json repository_json(const ApiContext& context, const NamedRepository& named) {
  const exec::ServedRepository& repo = *named.repository;
  json files = json::array();
  for (size_t k = 0; k < repo.files().size(); ++k)
    files.push_back(json{{"file", repo.files()[k]}, {"index", repo.index_dir(k)}, {"games", repo.file_games(k)}});
  return json{{"name", named.name},
              {"repository", repo.input()},
              {"files", std::move(files)},
              {"index", repo.index_dir(0)},
              {"games", repo.game_count()},
              {"positions", repo.position_count()},
              {"fresh", repo.staleness().empty()},
              {"problems", problem_file(context, repo)}};
}

}  // namespace

Answer api_info(const ApiContext& context, const RepoParameter& repo_name) {
  const NamedRepository* chosen = context.repositories.find(repo_name);
  if (!chosen) return unknown_repository(context, *repo_name);
  const ServeSettings& s = context.settings;
  json answer = repository_json(context, *chosen);  // the chosen one's facts, at the top as with one repository
  json all = json::array();
  for (const NamedRepository& named : context.repositories.all())
    all.push_back(&named == chosen ? answer : repository_json(context, named));
  answer["repositories"] = std::move(all);
  answer["limits"] = {{"timeout_seconds", s.timeout_seconds},
                      {"max_results", s.max_results},
                      {"max_body_bytes", s.max_body},
                      {"workers", s.workers}};
  return json_answer(200, answer);
}

Answer api_game(const ApiContext& context, const std::string& number_text, const RepoParameter& repo_name) {
  Answer refusal;
  const exec::ServedRepository* repository = chosen_repository(context, repo_name, refusal);
  if (!repository) return refusal;
  uint64_t number = 0;
  const char* end = number_text.data() + number_text.size();
  if (auto [at, ec] = std::from_chars(number_text.data(), end, number); ec != std::errc() || at != end)
    return error_answer(400, "'" + number_text + "' is not a game number");
  if (std::string stale = repository->staleness(); !stale.empty()) return error_answer(503, stale);
  std::string error;
  auto game = repository->game(number, &error);
  if (!game) return error_answer(number >= 1 && number <= repository->game_count() ? 500 : 404, error);
  json tags = json::array();
  for (const auto& [name, value] : game->tags) tags.push_back(json::array({name, value}));
  return json_answer(200, json{{"number", game->number},
                               {"tags", std::move(tags)},
                               {"moves", game->moves},
                               {"fens", game->fens},
                               {"problems", game->problems},
                               {"pgn", game->pgn}});
}

namespace {

// Returns the results as JSON.
json results_json(const exec::Results& r) {
  return json{{"games", r.games}, {"white", r.white}, {"draws", r.draws}, {"black", r.black}};
}

}  // namespace

Answer api_explore(const ApiContext& context, const std::string& fen, const std::string& cap_text,
                   const RepoParameter& repo_name) {
  Answer refusal;
  const exec::ServedRepository* repository = chosen_repository(context, repo_name, refusal);
  if (!repository) return refusal;
  constexpr uint64_t kDefaultCap = 2000, kMaxCap = 100000;
  uint64_t cap = kDefaultCap;
  if (!cap_text.empty()) {
    const char* end = cap_text.data() + cap_text.size();
    if (auto [at, ec] = std::from_chars(cap_text.data(), end, cap); ec != std::errc() || at != end || cap < 1 ||
                                                                    cap > kMaxCap)
      return error_answer(400, "cap must be 1 to " + std::to_string(kMaxCap) + ", not '" + cap_text + "'");
  }
  if (fen.empty()) return error_answer(400, "give the position: /api/explore?fen=FEN");
  std::string error;
  if (!exec::submission_of_fen(fen, &error)) return error_answer(400, "bad FEN: " + error);
  if (std::string stale = repository->staleness(); !stale.empty()) return error_answer(503, stale);
  auto found = exec::explore(*repository, fen, cap, &error);
  if (!found) return error_answer(500, error);  // the index or the file could not be read
  json moves = json::array();
  for (const exec::ExploreMove& m : found->moves) {
    json move = results_json(m.results);
    move["san"] = m.san;
    move["fen"] = m.fen;
    moves.push_back(std::move(move));
  }
  return json_answer(200, json{{"fen", found->fen},
                               {"results", results_json(found->results)},
                               {"moves", std::move(moves)},
                               {"source", found->from_index ? "index" : "replay"},
                               {"depth", found->depth},
                               {"candidates", found->candidates},
                               {"replayed", found->replayed},
                               {"complete", found->complete}});
}

}  // namespace cqlindex::serve
