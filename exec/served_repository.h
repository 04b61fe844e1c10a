#pragma once
// A repository kept open by a server (`cqlindex serve`): its index opened once and refused as `run` refuses it
// (missing, damaged or stale), the file checked again before each request (a stat; the sampled blocks only when
// the stat changed), and what a page shows besides query answers: what the index holds and one game with its
// positions.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cqlindex::store {
class IndexStore;
}
namespace cqlindex::pgn {
class Game;
class RangeReader;
}

namespace cqlindex::exec {

// One game of the repository as a board viewer needs it.
struct GameView {
  uint64_t number = 0;                                    // 1-based
  std::string pgn;                                        // the game's bytes in the repository
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  std::vector<std::string> fens;                          // the start, then the position after each mainline move
  std::vector<std::string> moves;                         // the mainline moves in SAN (one fewer than fens)
  std::vector<std::string> problems;                      // the game's PGN errors and warnings, "line:col: text"
};

class ServedRepository {
 public:
  // Opens the index of `input` (in `index_dir`, else the default folder beside it). Returns nullptr, with the
  // reason on stderr, when there is none or it is damaged or stale: a server answers only from a fresh index.
  static std::unique_ptr<ServedRepository> open(const std::string& input, const std::string& index_dir);
  ~ServedRepository();

  const std::string& input() const { return input_; }
  const std::string& index_dir() const { return index_dir_; }
  const store::IndexStore& index() const { return *index_; }
  uint64_t game_count() const;
  uint64_t position_count() const;

  // Returns "" when the file is still what the index describes, else why the index no longer answers for it.
  std::string staleness() const;

  // Returns game `number` (1-based) read by its byte range; nullopt (with `error`) when there is no such game or
  // it cannot be read.
  std::optional<GameView> game(uint64_t number, std::string* error) const;
  // Reads game `number` (1-based) by its byte range and parses it into `game`; false (with `error`) when there
  // is no such game or it cannot be read. `bytes` holds the text the game's views point into.
  bool parse(uint64_t number, std::string& bytes, pgn::Game& game, std::string* error) const;

 private:
  ServedRepository() = default;
  std::string input_, index_dir_;
  std::unique_ptr<store::IndexStore> index_;
  std::unique_ptr<pgn::RangeReader> reader_;
  mutable std::mutex identity_mutex_;
  mutable std::string identity_;  // the file's stat when it was last found fresh (size, time, device, inode)
};

}  // namespace cqlindex::exec
