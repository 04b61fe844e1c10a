// GET /api/info and GET /api/game/N: what the served repository holds, and one game with its positions.
#include <charconv>

#include "serve/api_support.h"

namespace cqlindex::serve {

Answer api_info(const ApiContext& context) {
  const exec::ServedRepository& repo = context.repository;
  const ServeSettings& s = context.settings;
  return json_answer(200, json{{"repository", repo.input()},
                               {"index", repo.index_dir()},
                               {"games", repo.game_count()},
                               {"positions", repo.position_count()},
                               {"fresh", repo.staleness().empty()},
                               {"limits",
                                {{"timeout_seconds", s.timeout_seconds},
                                 {"max_results", s.max_results},
                                 {"max_body_bytes", s.max_body},
                                 {"workers", s.workers}}}});
}

Answer api_game(const ApiContext& context, const std::string& number_text) {
  uint64_t number = 0;
  const char* end = number_text.data() + number_text.size();
  if (auto [at, ec] = std::from_chars(number_text.data(), end, number); ec != std::errc() || at != end)
    return error_answer(400, "'" + number_text + "' is not a game number");
  if (std::string stale = context.repository.staleness(); !stale.empty()) return error_answer(503, stale);
  std::string error;
  auto game = context.repository.game(number, &error);
  if (!game) return error_answer(number >= 1 && number <= context.repository.game_count() ? 500 : 404, error);
  json tags = json::array();
  for (const auto& [name, value] : game->tags) tags.push_back(json::array({name, value}));
  return json_answer(200, json{{"number", game->number},
                               {"tags", std::move(tags)},
                               {"moves", game->moves},
                               {"fens", game->fens},
                               {"problems", game->problems},
                               {"pgn", game->pgn}});
}

}  // namespace cqlindex::serve
