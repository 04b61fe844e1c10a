// Game: clearing for reuse and small queries over tags and the move tree.
#include "engine/pgn/game.h"

namespace cqlindex::pgn {

void Game::clear() {
  number = offset = length = 0;
  first_line = 0;
  first_col = 1;
  tags.clear();
  nodes.clear();
  nodes.emplace_back();  // the root
  nags.clear();
  comments.clear();
  positions.clear();
  start = chess::Position::start();
  custom_start = chess960 = false;
  start_known = true;
  result = Result::Missing;
  result_token = {};
  status = GameStatus::Ok;
  variant = {};
  errors.clear();
  owned_.clear();
}

std::optional<std::string_view> Game::tag(std::string_view name) const {
  for (const Tag& t : tags)
    if (t.name == name) return t.value;
  return std::nullopt;
}

std::vector<chess::Move> Game::mainline() const {
  std::vector<chess::Move> moves;
  if (nodes.empty()) return moves;
  for (NodeIndex n = nodes[0].first_child; n != kNoNode; n = nodes[n].first_child) moves.push_back(nodes[n].move);
  return moves;
}

uint32_t Game::mainline_plies() const {
  uint32_t plies = 0;
  if (nodes.empty()) return 0;
  for (NodeIndex n = nodes[0].first_child; n != kNoNode; n = nodes[n].first_child) ++plies;
  return plies;
}

bool Game::has_errors() const {
  for (const PgnError& e : errors)
    if (e.severity == Severity::Error) return true;
  return false;
}

std::string_view Game::keep(std::string text) { return owned_.emplace_back(std::move(text)); }

}  // namespace cqlindex::pgn
