// The submissions of CQL 6.2's similarposition: every mainline position of every game of a PGN file, looked up
// from a repository position the way CQL 6.2 does it (its "AnticipateDb").
//
// CQL's rules, reproduced here:
//   - For each submission position (game order, then mainline order), each transform of board_transform.h
//     that applies to it gives an entry under the key (transformed board, side to move). Castling and en
//     passant are not part of the key.
//   - An entry is dropped when its key already lists an entry of the same game and move number (so a
//     symmetric board is listed once, under the first transform that reaches it).
//   - A repository position matches when its own board and side to move are a key; the key's entries, in
//     insertion order, are what CQL writes.
//   - The move number of a position counts from 1 at the game's first position whatever its FEN says:
//     ply/2 + 1, one more for White's turns when Black moved first.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/position.h"
#include "engine/cql/similar/board_transform.h"
#include "engine/pgn/pgn_error.h"

namespace cqlindex::cql::similar {

// One mainline position of a submission game.
struct SubmissionPosition {
  uint32_t game = 0;  // 1-based game number in the submissions file
  uint32_t move = 0;  // CQL's move number (see above)
  uint32_t ply = 0;   // plies from the game's first position
  chess::Color side = chess::WHITE;
};

// A submission position listed at a repository position, and the transform taking the first to the second.
struct Entry {
  uint32_t position = 0;  // SubmissionDb::position(id)
  const BoardTransform* transform = nullptr;
};

class SubmissionDb {
 public:
  struct Options {
    bool notransform = false;     // identical boards only
    bool keep_positions = false;  // keep every position read (board(id)): the planner, the near search
  };
  // Called for each mainline position read: (position id, the position, where it is).
  using PositionVisitor = std::function<void(uint32_t, const chess::Position&, const SubmissionPosition&)>;

  SubmissionDb(SubmissionDb&&) noexcept;
  SubmissionDb& operator=(SubmissionDb&&) noexcept;
  ~SubmissionDb();

  // Reads every game of `text` (a PGN file's bytes); `file_name` is how the comments name the file. Problems
  // in games go to `errors` (a game is kept up to its last legal move, as CQL keeps it).
  static SubmissionDb read(std::string_view text, std::string file_name, const Options& options,
                           std::vector<pgn::PgnError>* errors, const PositionVisitor& visit = {});

  const std::string& file_name() const;
  bool notransform() const;
  uint32_t games() const;
  uint32_t positions() const;
  const SubmissionPosition& position(uint32_t id) const;
  // Returns the position `id` was read as (only with Options::keep_positions).
  const chess::Position& board(uint32_t id) const;

  // Leaves submission position `id` out of every later lookup (judges' --ignore-common).
  void exclude(uint32_t id);
  bool excluded(uint32_t id) const;

  // Appends to `out` the entries CQL lists at `pos`, in CQL's order; returns whether there were any.
  bool lookup(const chess::Position& pos, std::vector<Entry>& out) const;

  // The text CQL writes for one entry: "see FILE game: G at move: M wtm " followed by the transform's name.
  std::string describe(const Entry& e) const;

 private:
  struct Impl;
  explicit SubmissionDb(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The line CQL prints once it has read the submissions: "Db: read N games from submission file: F".
std::string read_message(const SubmissionDb& db);

// The board of `pos` as 64 squares.
Board board_of(const chess::Position& pos);

}  // namespace cqlindex::cql::similar
