#pragma once
// The moves played from one exact position of a served repository (GET /api/explore), as an opening explorer
// shows them, from the index as it is: the similar family lists the games holding a position similar to it (a
// superset), each is replayed (at most `cap` of them) and its mainline searched for the exact position (board,
// side to move, castling, en passant). Beyond the cap the counts are those of the first `cap` candidates.
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
  uint64_t candidates = 0;         // games the index lists for the position's similarity key
  uint64_t replayed = 0;           // of them, replayed (at most the cap)
  bool complete = true;            // false: the cap left candidates unread
};

// Returns what the games of `repository` played from `fen`; nullopt (with `error`) when `fen` is not a legal
// position or the index or the file cannot be read.
std::optional<Exploration> explore(const ServedRepository& repository, const std::string& fen, uint64_t cap,
                                   std::string* error);

}  // namespace cqlindex::exec
