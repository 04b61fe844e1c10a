#pragma once
// A repository kept open by a server (`cqlindex serve`): a PGN file or a `NAME.cqlrepo` list of them
// (exec/repository.h), each file's index opened once and refused as `run` refuses it (missing, damaged or
// stale, the file named), each file checked again before each request and after each run (a stat, its change
// time included; the indexed bytes hashed whole only when the stat changed), each index's tags family keys held
// in memory (read once at the open: a tag test of a run filters them instead of reading the family at each
// request), and what a page shows besides query answers: what the
// indexes hold and one game with its positions. Games are numbered across the files in list order, as
// `cqlindex run -i REPO` numbers them.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cqlindex::store {
class IndexStore;
class FamilyKeys;
}
namespace cqlindex::pgn {
class Game;
class RangeReader;
}

namespace cqlindex::exec {

// One game of the repository as a board viewer needs it.
struct GameView {
  uint64_t number = 0;                                    // 1-based, across the repository's files
  std::string pgn;                                        // the game's bytes in its file
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  std::vector<std::string> fens;                          // the start, then the position after each mainline move
  std::vector<std::string> moves;                         // the mainline moves in SAN (one fewer than fens)
  std::vector<std::string> problems;                      // the game's PGN errors and warnings, "file:line:col: text"
};

class ServedRepository {
 public:
  // Opens the index of every file of `input` (a PGN file, or a .cqlrepo list read once, now); `index_dir`
  // (--index) names the folder of a one-file repository's index ("" = the default folder beside each file).
  // Returns nullptr, with the reason on stderr naming the file, when a file has no index or a damaged or stale
  // one: a server answers only from fresh indexes.
  static std::unique_ptr<ServedRepository> open(const std::string& input, const std::string& index_dir);
  ~ServedRepository();

  // The repository as it was named (the PGN file or the list).
  const std::string& input() const { return input_; }
  // The PGN files in game order (what a run is given as its inputs: a list edited later changes nothing here).
  const std::vector<std::string>& files() const { return files_; }
  // Returns the index folder of file `k`.
  const std::string& index_dir(size_t k) const;
  // Returns file `k`'s index.
  const store::IndexStore& index(size_t k) const;
  // Returns every file's index, in game order (exec::MemoryRun::indexes).
  std::vector<const store::IndexStore*> indexes() const;
  // Returns every file's tags family keys, in the order of indexes() (exec::MemoryRun::tag_keys).
  std::vector<const store::FamilyKeys*> tag_keys() const;
  // Returns the games of file `k`, and of the files before it.
  uint64_t file_games(size_t k) const;
  uint64_t games_before(size_t k) const;
  uint64_t game_count() const;
  uint64_t position_count() const;

  // Returns "" when every file is still what its index describes, else why the repository no longer answers
  // (naming the file).
  std::string staleness() const;

  // Returns game `number` (1-based) read by its byte range; nullopt (with `error`) when there is no such game or
  // it cannot be read.
  std::optional<GameView> game(uint64_t number, std::string* error) const;
  // Reads game `number` (1-based, across the files) by its byte range and parses it into `game`; false (with
  // `error`) when there is no such game or it cannot be read. `bytes` holds the text the game's views point into.
  bool parse(uint64_t number, std::string& bytes, pgn::Game& game, std::string* error) const;

 private:
  struct File;
  ServedRepository();
  // Returns the file holding game `number` (1-based, in range).
  size_t file_of(uint64_t number) const;

  std::string input_;
  std::vector<std::string> files_;
  std::vector<std::unique_ptr<File>> opened_;
  mutable std::mutex identity_mutex_;  // guards each File's identity
};

}  // namespace cqlindex::exec
