// Matching a repository game against the submissions, and the comments CQL 6.2 writes for it.
//
// At a matching position CQL appends one comment per listed entry, each the previous one extended by the next
// entry (its text buffer is never cleared): entries e1 e2 e3 give "e1", "e1e2", "e1e2e3", where an entry is
// "see FILE game: G at move: M wtm " plus the transform's name. `CQL` follows, as at any matched position.
// Without nosort, the game comment ends with the sort comment " submission game: N", N the least submission
// game listed anywhere in the game, and the output is ordered by N (then by game number).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/cql/similar/submission_db.h"
#include "engine/pgn/game.h"
#include "engine/pgn/writer.h"

namespace cqlindex::cql::similar {

// The entries listed at one mainline position.
struct PositionMatch {
  pgn::NodeIndex node = 0;  // 0: the first position (its comments go to the game comment)
  std::vector<Entry> entries;
};

struct GameMatch {
  std::vector<PositionMatch> positions;  // mainline order
  uint32_t least_submission_game = 0;    // 0 when nothing matched
  bool matched() const { return !positions.empty(); }
};

// The `similarposition` filter at one position, for an evaluator: true when `pos` matches; then the comments
// CQL appends there are added to `comments` and `least_game` is lowered to the least submission game listed
// (it starts at 0 = none; CQL's sort variable, reset per game).
bool match_position(const SubmissionDb& db, const chess::Position& pos, std::vector<std::string>& comments,
                    uint32_t& least_game);

// Matches every mainline position of `game` (none when its start is unknown).
GameMatch match_game(const SubmissionDb& db, const pgn::Game& game);

// The comments CQL appends at a position listing `entries` (see above). Stops after the first one longer than
// CQL keeps in a comment: it and all later ones would be dropped anyway.
std::vector<std::string> position_comments(const SubmissionDb& db, const std::vector<Entry>& entries);

// The sort comment of the game comment (" submission game: N").
std::string sort_comment(uint32_t least_submission_game);

// Everything `cql -similarposition [nosort] [notransform] FILE` with an empty body adds to a matched game:
// "Game number N" and, at each matching position, its comments and "CQL"; the sort comment unless !sort.
std::vector<pgn::AddedComment> cql_additions(const SubmissionDb& db, const GameMatch& match, uint64_t game_number,
                                             bool sort);

}  // namespace cqlindex::cql::similar
