// Near-anticipations (issue 17): the repository games reaching a position within distance K of a submission
// position (engine/cql/similar/near_distance.h), through the index (K <= 1: the canonical keys of each
// submission position's distance-1 neighbourhood are looked up, and every candidate game is replayed) or by a
// full scan (any K; the reference the index is tested against). Used by `cqlindex similar --near K` and
// `--report` (near_report.h); the exact matches of CQL 6.2's output are not touched (similar_search.h).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "engine/cql/similar/near_images.h"
#include "engine/cql/similar/submission_db.h"
#include "engine/pgn/range_reader.h"
#include "engine/pgn/reader.h"
#include "exec/memory_run.h"
#include "store/index_store.h"

namespace cqlindex::exec {

// The near search's limit through the index: the neighbourhood looked up is distance 1.
constexpr unsigned kIndexedNearLimit = 1;

// The images of the submission positions `db` does not exclude (`db` read with Options::keep_positions, as
// every function here needs).
cql::similar::NearImages near_images(const cql::similar::SubmissionDb& db);

// A submission position a repository game comes near: its closest position, the earliest among equals.
struct NearHit {
  uint32_t position = 0;  // submission position id
  uint32_t ply = 0;       // plies from the repository game's first position
  unsigned distance = 0;
  const cql::similar::BoardTransform* transform = nullptr;  // takes the submission board to its image there
  friend bool operator==(const NearHit&, const NearHit&) = default;
};

struct NearGame {
  uint64_t number = 0, offset = 0, length = 0;
  std::string date;           // the Date tag ("" when absent)
  std::vector<NearHit> hits;  // ascending position ids
};

struct NearSearch {
  unsigned limit = 0;
  uint64_t repository_games = 0;
  uint64_t looked_up = 0;       // distinct keys looked up (index only)
  uint64_t candidates = 0;      // games replayed (index only)
  std::vector<NearGame> games;  // file order
  std::vector<uint64_t> hits;   // per submission position id: the games within the limit
};

// Through the index (limit <= kIndexedNearLimit); false (with `error`) when the index or a game cannot be read.
// `served`: a served search's limits (memory_run.h), checked between batches and before each candidate's replay
// (false, `error` saying it stopped); null on the command line.
bool search_near_with_index(const store::IndexStore& index, const cql::similar::SubmissionDb& db,
                            unsigned limit, const pgn::RangeReader& repo, unsigned threads,
                            NearSearch& out, std::string* error, const MemoryRun* served = nullptr);

// A full parallel scan of `file`, every position compared with every submission image sharing its kings (limit
// < 2; one king when < 4, else all): independent of the canonical keys and of the index.
void search_near_by_scan(const cql::similar::SubmissionDb& db, unsigned limit,
                         pgn::PgnFile& file, unsigned threads, NearSearch& out);

// Drops the hits of positions `db` now excludes, and the games left with none.
void settle_near(const cql::similar::SubmissionDb& db, NearSearch& search);

// A matching pair as a judge reads it: a submission game and a repository game, by the closest of their hits.
struct NearPair {
  uint32_t submission_game = 0;
  const NearGame* game = nullptr;
  NearHit hit;
};

// The pairs, by submission game, then distance, then date (undated last), then game number.
std::vector<NearPair> near_pairs(const cql::similar::SubmissionDb& db, const std::vector<NearGame>& games);

// Returns how many of `pairs` are at distance 0, 1, ... `limit`.
std::vector<uint64_t> pairs_by_distance(const std::vector<NearPair>& pairs, unsigned limit);

// stderr lines: the submission positions within the limit of more than `percent` % of the repository's games
// (warned, or "skipped" when `skipped`), with their FEN; returns their ids.
std::vector<uint32_t> report_common_near(std::ostream& err, const cql::similar::SubmissionDb& db,
                                         const NearSearch& search, double percent,
                                         bool skipped);

// stderr lines: one per pair, ranked, and a count by distance.
void report_near(std::ostream& err, const cql::similar::SubmissionDb& db, const NearSearch& search,
                 const std::vector<NearPair>& pairs);

}  // namespace cqlindex::exec
