// A repository kept open by a server: the fresh index opened once, the file re-checked per request, one game
// with its positions.
#include "exec/served_repository.h"

#include <iostream>

#include "engine/chess/san.h"
#include "engine/pgn/game.h"
#include "engine/pgn/game_parser.h"
#include "engine/pgn/pgn_error.h"
#include "engine/pgn/range_reader.h"
#include "exec/open_index.h"
#include "indexer/index_location.h"
#include "store/index_store.h"

namespace cqlindex::exec {
namespace {

// Returns the stat of `path` as one comparable text, or "" when it cannot be read.
std::string identity_of(const std::string& path) {
  std::string error;
  auto id = indexer::pgn_identity(path, &error);
  if (!id) return "";
  return std::to_string(id->size) + "/" + std::to_string(id->mtime_ns) + "/" + std::to_string(id->device) + "/" +
         std::to_string(id->inode);
}

}  // namespace

ServedRepository::~ServedRepository() = default;

std::unique_ptr<ServedRepository> ServedRepository::open(const std::string& input, const std::string& index_dir) {
  std::unique_ptr<ServedRepository> repo(new ServedRepository());
  repo->input_ = input;
  if (open_fresh_index({"serve", input, index_dir, "", true}, repo->index_, &repo->index_dir_) != Status::Ok)
    return nullptr;
  if (!repo->index_) {
    std::cerr << "cqlindex serve: " << input << " is not indexed (no " << repo->index_dir_
              << "): run 'cqlindex build " << input << "' first\n";
    return nullptr;
  }
  std::string error;
  repo->reader_ = pgn::RangeReader::open(input, &error);
  if (!repo->reader_) {
    std::cerr << "cqlindex serve: " << error << "\n";
    return nullptr;
  }
  repo->identity_ = identity_of(input);
  return repo;
}

uint64_t ServedRepository::game_count() const { return index_->meta().game_count; }
uint64_t ServedRepository::position_count() const { return index_->meta().position_count; }

std::string ServedRepository::staleness() const {
  const std::string now = identity_of(input_);
  std::lock_guard lock(identity_mutex_);
  if (!now.empty() && now == identity_) return "";
  std::string error;
  auto freshness = indexer::check_freshness(index_->meta(), input_, &error);
  if (!freshness) return error;
  if (*freshness != indexer::Freshness::Fresh)
    return indexer::refusal_message(*freshness, input_, index_dir_) + " (then restart the server)";
  identity_ = now;  // touched but the same bytes: checked in full once, not at every request
  return "";
}

bool ServedRepository::parse(uint64_t number, std::string& bytes, pgn::Game& game, std::string* error) const {
  if (number < 1 || number > game_count()) {
    if (error) *error = "no game " + std::to_string(number) + " (the repository has " + std::to_string(game_count()) + ")";
    return false;
  }
  auto record = index_->game(uint32_t(number - 1), error);
  if (!record || !reader_->read(record->offset, record->length, bytes, error)) return false;
  pgn::parse_game(bytes, pgn::GameLocation{number, record->offset, record->first_line, record->first_col}, game);
  return true;
}

std::optional<GameView> ServedRepository::game(uint64_t number, std::string* error) const {
  GameView view;
  view.number = number;
  pgn::Game game;
  if (!parse(number, view.pgn, game, error)) return std::nullopt;
  for (const pgn::Tag& t : game.tags) view.tags.emplace_back(std::string(t.name), std::string(t.value));
  for (const pgn::PgnError& e : game.errors) view.problems.push_back(pgn::format_error(input_, e));
  if (!game.start_known || game.positions.empty()) return view;
  view.fens.push_back(game.positions[0].fen());
  for (pgn::NodeIndex n = game.root().first_child; n != pgn::kNoNode; n = game.nodes[n].first_child) {
    const pgn::NodeIndex parent = game.nodes[n].parent;
    if (n >= game.positions.size()) break;
    view.moves.push_back(game.nodes[n].move == chess::Move::null()
                             ? std::string("--")
                             : chess::to_san(game.positions[parent], game.nodes[n].move, game.positions[n]));
    view.fens.push_back(game.positions[n].fen());
  }
  return view;
}

}  // namespace cqlindex::exec
