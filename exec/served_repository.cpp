// A repository kept open by a server: each file's fresh index opened once (its tags family's keys read into
// memory), each file re-checked per request, one game with its positions found in its file by its number across
// the files.
#include "exec/served_repository.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "engine/chess/san.h"
#include "engine/pgn/game.h"
#include "engine/pgn/game_parser.h"
#include "engine/pgn/pgn_error.h"
#include "engine/pgn/range_reader.h"
#include "exec/open_index.h"
#include "exec/repository.h"
#include "indexer/index_location.h"
#include "store/family_keys.h"
#include "store/index_store.h"

namespace cqlindex::exec {
namespace {

// Returns the stat of `path` as one comparable text, or "" when it cannot be read. The inode's change time is
// part of it: every write sets it, and so does putting a modification time back (utimensat), which no one can
// set back in turn, so a file edited in place with its size and time stamp restored still reads as changed.
std::string identity_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  auto ns = [](const timespec& t) { return std::to_string(int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec); };
  return std::to_string(st.st_size) + "/" + ns(st.st_mtim) + "/" + ns(st.st_ctim) + "/" +
         std::to_string(st.st_dev) + "/" + std::to_string(st.st_ino);
}

}  // namespace

// One file of the repository: its index, a reader of its games' byte ranges, and its stat when last found fresh.
struct ServedRepository::File {
  std::string path, index_dir;
  std::unique_ptr<store::IndexStore> index;
  std::optional<store::FamilyKeys> tag_keys;  // the index's tags family keys, read once at the open
  std::unique_ptr<pgn::RangeReader> reader;
  uint64_t games_before = 0;
  std::string identity;  // guarded by identity_mutex_
};

ServedRepository::ServedRepository() = default;
ServedRepository::~ServedRepository() = default;

std::unique_ptr<ServedRepository> ServedRepository::open(const std::string& input, const std::string& index_dir) {
  std::unique_ptr<ServedRepository> repo(new ServedRepository());
  repo->input_ = input;
  std::string error;
  const std::optional<Repository> resolved = Repository::resolve({input}, &error);
  if (!resolved) {
    std::cerr << "cqlindex serve: " << error << "\n";
    return nullptr;
  }
  if (resolved->files().empty()) {
    std::cerr << "cqlindex serve: the repository list " << input << " names no PGN file\n";
    return nullptr;
  }
  if (!index_dir.empty() && !resolved->single()) {
    std::cerr << "cqlindex serve: --index names the index of one PGN file; " << input << " lists "
              << resolved->files().size() << " (each file's index is the default folder beside it)\n";
    return nullptr;
  }
  repo->files_ = resolved->files();
  uint64_t games = 0;
  for (const std::string& path : repo->files_) {
    auto file = std::make_unique<File>();
    file->path = path;
    if (std::error_code ec; !std::filesystem::is_regular_file(path, ec)) {  // not "not indexed": not there at all
      std::cerr << "cqlindex serve: cannot read the repository file " << path << ": "
                << (ec ? ec.message() : "not a regular file") << "\n";
      return nullptr;
    }
    if (open_fresh_index({"serve", path, index_dir, "", true}, file->index, &file->index_dir) != Status::Ok)
      return nullptr;
    if (!file->index) {
      std::cerr << "cqlindex serve: " << path << " is not indexed (no " << file->index_dir
                << "): run 'cqlindex build " << path << "' first\n";
      return nullptr;
    }
    file->tag_keys = store::FamilyKeys::read(*file->index, store::Family::Tags, &error);
    if (!file->tag_keys) {
      std::cerr << "cqlindex serve: " << path << ": " << error << "\n";
      return nullptr;
    }
    file->reader = pgn::RangeReader::open(path, &error);
    if (!file->reader) {
      std::cerr << "cqlindex serve: " << error << "\n";
      return nullptr;
    }
    file->identity = identity_of(path);
    file->games_before = games;
    games += file->index->meta().game_count;
    repo->opened_.push_back(std::move(file));
  }
  return repo;
}

const std::string& ServedRepository::index_dir(size_t k) const { return opened_.at(k)->index_dir; }
const store::IndexStore& ServedRepository::index(size_t k) const { return *opened_.at(k)->index; }

std::vector<const store::IndexStore*> ServedRepository::indexes() const {
  std::vector<const store::IndexStore*> all;
  for (const auto& f : opened_) all.push_back(f->index.get());
  return all;
}

std::vector<const store::FamilyKeys*> ServedRepository::tag_keys() const {
  std::vector<const store::FamilyKeys*> all;
  for (const auto& f : opened_) all.push_back(&*f->tag_keys);
  return all;
}

uint64_t ServedRepository::file_games(size_t k) const { return opened_.at(k)->index->meta().game_count; }
uint64_t ServedRepository::games_before(size_t k) const { return opened_.at(k)->games_before; }
uint64_t ServedRepository::game_count() const { return games_before(opened_.size() - 1) + file_games(opened_.size() - 1); }

uint64_t ServedRepository::position_count() const {
  uint64_t positions = 0;
  for (const auto& f : opened_) positions += f->index->meta().position_count;
  return positions;
}

std::string ServedRepository::staleness() const {
  for (const auto& f : opened_) {
    const std::string now = identity_of(f->path);
    std::lock_guard lock(identity_mutex_);
    if (!now.empty() && now == f->identity) continue;
    // Changed since last found fresh: the sampled blocks (the command line's check) cannot vouch for an edit
    // between them when the time stamp was put back, so the indexed bytes are hashed whole, once per change.
    std::string error;
    auto freshness = indexer::check_freshness_in_full(f->index->meta(), f->path, &error);
    if (!freshness) return error;
    if (*freshness != indexer::Freshness::Fresh)
      return indexer::refusal_message(*freshness, f->path, f->index_dir) + " (then restart the server)";
    f->identity = now;  // touched but the same bytes: checked in full once, not at every request
  }
  return "";
}

size_t ServedRepository::file_of(uint64_t number) const {
  // the last file whose first game is at or before `number` (files without games are passed over)
  size_t k = 0;
  while (k + 1 < opened_.size() && opened_[k + 1]->games_before < number) ++k;
  return k;
}

bool ServedRepository::parse(uint64_t number, std::string& bytes, pgn::Game& game, std::string* error) const {
  if (number < 1 || number > game_count()) {
    if (error) *error = "no game " + std::to_string(number) + " (the repository has " + std::to_string(game_count()) + ")";
    return false;
  }
  const File& file = *opened_[file_of(number)];
  auto record = file.index->game(uint32_t(number - file.games_before - 1), error);
  if (!record || !file.reader->read(record->offset, record->length, bytes, error)) return false;
  pgn::parse_game(bytes, pgn::GameLocation{number, record->offset, record->first_line, record->first_col}, game);
  return true;
}

std::optional<GameView> ServedRepository::game(uint64_t number, std::string* error) const {
  GameView view;
  view.number = number;
  pgn::Game game;
  if (!parse(number, view.pgn, game, error)) return std::nullopt;
  for (const pgn::Tag& t : game.tags) view.tags.emplace_back(std::string(t.name), std::string(t.value));
  const std::string& path = opened_[file_of(number)]->path;
  for (const pgn::PgnError& e : game.errors) view.problems.push_back(pgn::format_error(path, e));
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
