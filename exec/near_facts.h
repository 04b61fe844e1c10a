#pragma once
// One near pair (near_search.h) as a served answer states it (`cqlindex serve`, POST /api/similar with "near"):
// the facts of its line on `cqlindex similar --near` 's stderr, and the two boards as the judges' report draws
// them (near_boards.h), so that a page can show them without reading the game again.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cqlindex::cql::similar {
class SubmissionDb;
}
namespace cqlindex::pgn {
class RangeReader;
}

namespace cqlindex::exec {

struct NearPair;

struct NearFacts {
  // report_near's line: "near: submission game S move M wtm: repository game N ply P, distance D, TRANSFORM, DATE"
  uint32_t submission_game = 0, move = 0;
  bool white_to_move = true;
  uint64_t game = 0;
  uint32_t ply = 0;
  unsigned distance = 0;
  std::string transform, date;  // the transform in words; the Date tag ("" when absent)
  // The boards: the submission position's FEN, the repository position's, and the repository board turned back
  // to the submission's orientation (a FEN's first field), with the squares where the two differ ("e4") and how
  // many pieces fell off the board in the turning.
  std::string fen, repository_fen, oriented;
  std::vector<std::string> differs;
  unsigned dropped = 0;
  std::string moves;                                      // the moves leading to the repository position, in SAN
  std::vector<std::pair<std::string, std::string>> tags;  // the repository game's, in file order
};

// Returns in `out` the facts of `pair` (its game read again from `repo` by its byte range); false (with `error`)
// when the game cannot be read.
bool near_facts(const cql::similar::SubmissionDb& db, const pgn::RangeReader& repo, const NearPair& pair,
                NearFacts& out, std::string* error);

}  // namespace cqlindex::exec
