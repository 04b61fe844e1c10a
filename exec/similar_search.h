// Finding the repository games that CQL's similarposition matches, through the index or by a full scan, and
// writing them as CQL 6.2 writes them. Used by the similar pipeline (similar_query.cpp).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/cql/similar/submission_db.h"
#include "engine/pgn/range_reader.h"
#include "engine/pgn/reader.h"
#include "exec/memory_run.h"
#include "exec/repository_part.h"
#include "store/index_store.h"

namespace cqlindex::exec {

// A repository game that matched: where it is and which submission positions it lists.
struct MatchedGame {
  uint64_t number = 0;  // 1-based, across the files of a repository
  uint32_t file = 0;    // the repository file it is in (its index in the list of readers)
  uint64_t offset = 0, length = 0;
  std::vector<uint32_t> positions;  // submission position ids, ascending, unique
  std::string date;                 // the Date tag ("" when absent)
  std::string white, event;         // the White and Event tags, for the judges' report
  uint32_t least_submission_game = 0;
};

// What the search found; a repository's files are searched one after the other into the same SimilarSearch.
struct SimilarSearch {
  uint64_t repository_games = 0;
  std::vector<MatchedGame> matched;  // file order
  std::vector<uint64_t> hits;        // per submission position: the repository games that list it
};

// The canonical similarity keys of the submissions' positions, gathered while they are read.
struct SubmissionKeys {
  std::vector<std::string> keys;           // distinct, first-seen order
  std::vector<uint32_t> key_of_position;   // position id -> index in keys
  std::unordered_map<std::string, uint32_t> ids;
  // The visitor to give SubmissionDb::read.
  cql::similar::SubmissionDb::PositionVisitor visitor();
};

// Through the index: the candidates are the union of the posting lists of `keys`, then only they are replayed.
// With transforms a key's list is exactly the games its positions match, so positions whose key lists more than
// `skip_above` games are excluded from `db` before the replay (skip_above < 0: none). PGN problems of the replayed
// games go to stderr (named `repo_name`). False (with `error`) when the index cannot be read.
// The candidates are read from `repo` by their byte ranges only. `where`: the file's place in a repository
// (its games are numbered after out.repository_games, the games of the files searched before).
// `served`: a served search's limits (exec/memory_run.h), checked before each candidate's replay, so that a
// search past its time limit stops there (false, `error` saying so) and frees its worker; null on the command line.
// `held`: where its stderr lines go instead (an MPI rank's, which rank 0 writes in game order); null: stderr, or
// a served search's diagnostics.
// `where.part`: the games of the file searched (an MPI rank's part of a file cut between ranks, its games still
// numbered from out.repository_games + 1 for the file's first game); out.repository_games grows by its games.
struct RepositoryFile {
  uint32_t file = 0;  // its index in the repository
  FilePart part;      // the file's games searched (default: all)
};
bool search_with_index(const store::IndexStore& index, cql::similar::SubmissionDb& db, const SubmissionKeys& keys,
                       const pgn::RangeReader& repo, const std::string& repo_name, double skip_above, unsigned threads,
                       SimilarSearch& out, std::string* error, RepositoryFile where = {},
                       const MemoryRun* served = nullptr, std::ostream* held = nullptr);

// A full parallel scan of `file` (its pages handed back as the scan goes); PGN problems go to stderr, or to
// `held` (as search_with_index's). Its games are numbered after out.repository_games (a repository's earlier files).
void search_by_scan(const cql::similar::SubmissionDb& db, pgn::PgnFile& file, const std::string& repo_name,
                    unsigned threads, SimilarSearch& out, RepositoryFile where = {}, std::ostream* held = nullptr);

// Drops the positions `db` now excludes from `matched` (and the games left with none), then sets each game's
// least submission game and orders the games as CQL does (by it when `sort`, else by game number).
void settle(const cql::similar::SubmissionDb& db, bool sort, std::vector<MatchedGame>& matched);

// Writes the output file: each matched game read (by its byte range, from repos[game.file]) and written with
// CQL's comments, in `matched` order; false (with `error`) when a game cannot be read.
bool write_similar_output(std::ostream& out, const cql::similar::SubmissionDb& db,
                          const std::vector<const pgn::RangeReader*>& repos, const std::vector<MatchedGame>& matched,
                          bool sort, unsigned threads, std::string* error);

// A served search's output: each game of `matched` as write_similar_output writes it, with the comments by ply,
// handed to memory.on_game in `matched` order until it returns false. False (with `error`) when a game cannot be
// read or the caller cancelled the search.
bool similar_output_games(const cql::similar::SubmissionDb& db, const std::vector<const pgn::RangeReader*>& repos,
                          const std::vector<MatchedGame>& matched, bool sort, const MemoryRun& memory,
                          std::string* error);

}  // namespace cqlindex::exec
