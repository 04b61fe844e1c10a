#pragma once
// The moves played from one exact position of a served repository (GET /api/explore), as an opening explorer
// shows them. From the index's explore family (store/keys/explore_key.h) when the position is within its depth
// (its FEN's move number says it comes before ply kExploreDepth) and the family files it: one prefix read, the
// counts by result from the posting lists intersected with the tags family's Result postings; the games counted
// are those whose mainline reaches the position within the first kExploreDepth plies. Else, as before the family,
// from a replay: the similar family lists the games holding a position similar to it (a superset), each is
// replayed (at most `cap` of them) and its mainline searched for the exact position (board, side to move,
// castling, en passant); beyond the cap the counts are those of the first `cap` candidates.
// A repository of several files is answered as their concatenation would be: the families of every file (a file
// that files no entry has no game reaching the position within the depth), else every file's candidates in
// turn, at most `cap` in all.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exec/served_repository.h"

namespace cqlindex::exec {

// White wins, draws and Black wins among some games (other results are not counted in any of the three).
struct Results {
  uint64_t games = 0, white = 0, draws = 0, black = 0;
};

struct ExploreMove {
  std::string san;
  std::string fen;  // the position it leads to (an explorer walks on to it)
  Results results;  // the games that played it from the position
};

struct Exploration {
  std::string fen;                 // the position, as the repository's FENs spell it
  Results results;                 // the games whose mainline reaches the position
  std::vector<ExploreMove> moves;  // most played first (then in SAN order)
  uint64_t candidates = 0;         // replay: games the index lists for the position's similarity key
  uint64_t replayed = 0;           // replay: of them, replayed (at most the cap)
  bool complete = true;            // false: the cap left candidates unread
  bool from_index = false;         // true: the explore families answered (no game replayed)
  uint32_t depth = 0;              // the plies the family files (the least of the files'): it answers before them
};

// Returns what the games of `repository` played from `fen`; nullopt (with `error`) when `fen` is not a legal
// position or the index or the file cannot be read.
std::optional<Exploration> explore(const ServedRepository& repository, const std::string& fen, uint64_t cap,
                                   std::string* error);

}  // namespace cqlindex::exec
