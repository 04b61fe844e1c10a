#pragma once
// The run pipeline's loop over a repository's files (run_query.cpp): each file planned over its own index when
// it has a fresh one, its candidates (or every game) replayed on the worker pool, the results delivered in game
// order to a sink. A run of consecutive files [begin, end) can be scanned with its first game number given, so
// that one process scans the whole repository and an MPI rank its share (distributed_run.cpp) with the same code.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/error.h"
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/query.h"
#include "engine/pgn/reader.h"
#include "exec/memory_run.h"
#include "exec/repository.h"
#include "exec/repository_indexes.h"
#include "exec/repository_part.h"
#include "exec/run_query.h"
#include "exec/status.h"
#include "planner/plan.h"

namespace cqlindex::pgn {
class RangeReader;
}

namespace cqlindex::exec {

// One game's result, delivered in game order.
struct ScanResult {
  bool in_range = true;   // inside the -gamenumber range
  bool matched = false;
  bool unreadable = false;
  std::string text;       // the game as written to the output
  cql::eval::GameOutcome outcome;  // sort values (queries with sort)
  uint64_t number = 0;
  std::vector<std::string> messages;  // `message` lines, printed in game order
  std::optional<cql::CqlError> error;  // CQL stops the run here (a literal matched as a position, ...)
  bool messages_only = false;  // ruled out by the index, read only to report its PGN errors
  std::optional<OutputGame> served;  // a served run: the game's tags and the query's comments by ply
};

// The counts of a scan, summed over the files scanned (and over the ranks of a distributed run).
struct ScanCounts {
  uint64_t seen = 0, matched = 0, unreadable = 0, with_errors = 0, replayed = 0, messages_only = 0,
           unreadable_unreplayed = 0;
  uint64_t evaluated_indexed = 0, games_indexed = 0;  // over the files whose index narrowed the query
  bool read_past_range = false;  // CQL 6.2 reads the game after a gamenumber range and counts it in "of M games"
  bool narrowed = false;         // some file's index narrowed the query
  uint64_t read_by_tags = 0;     // a served run's games past its page read by their tags alone (read_by_tags)
};

class RepositoryScan {
 public:
  // A matched game handed on in game order (unsorted queries); false stops the run there (a result cap).
  using Sink = std::function<bool(ScanResult&)>;

  // Scans with `program` (compiled from `query`) on `threads` workers; `indexes` checked already (unused with
  // --no-index or a served run's own index). Matched games go to `sink`, or are kept when the query sorts.
  RepositoryScan(cql::Query& query, const RunSettings& opt, const cql::eval::Program& program,
                 const Repository& repository, RepositoryIndexes& indexes, unsigned threads, Sink sink);
  ~RepositoryScan();

  // Scans files [begin, end) of the repository, the first file's games numbered from `offset` + 1, until the
  // -gamenumber range or an error ends the run. Returns Ok, or the status of a stop (its message on stderr).
  Status scan(size_t begin, size_t end, uint64_t offset);
  // Scans the games `part` of file k (an MPI rank's share of a file cut between ranks), the file's games numbered
  // from `offset` + 1 (its first game's, not the part's). Returns Ok, or the status of a stop.
  Status scan_part(size_t k, const FilePart& part, uint64_t offset);

  // Writes the scan's stderr lines (PGN messages, the index's notes, a failure) to `to` instead of stderr: an MPI
  // rank's, which rank 0 writes in game order (distributed_run.cpp), so that no rank's line is cut by another's.
  void hold_diagnostics(std::ostringstream& to) {
    held_ = &to;
    diag_ = &to;
  }
  // The line said once, before the first game of an indexed file that the index cannot narrow.
  static constexpr std::string_view kCannotNarrow =
      "cqlindex run: the index cannot narrow this query: every game is replayed\n";
  // Returns true when the scan said kCannotNarrow; where it starts in the held lines (hold_diagnostics), if there.
  bool said_cannot_narrow() const { return said_cannot_narrow_; }
  std::optional<uint64_t> cannot_narrow_held_at() const { return cannot_narrow_at_; }

  // Calls `poll` on the calling thread between batches of games of a file scanned whole or in part without an
  // index (MPI rank 0 answers the other ranks' requests there, distributed_steal.h).
  void set_poll(std::function<void()> poll) { poll_ = std::move(poll); }

  // Returns the counts so far.
  const ScanCounts& counts() const { return counts_; }
  // Returns the games of the files scanned so far and of the files before them: the number before the next
  // file's first game (an MPI rank's later files are numbered on from its first, distributed_share.h).
  uint64_t next_offset() const { return offset_; }
  // Returns the matched games of a sorted query in game order (not yet sorted).
  std::vector<ScanResult>& kept() { return kept_; }
  // Returns the query error that stopped the run at a game (the first in game order), if any.
  const std::optional<cql::CqlError>& run_error() const { return run_error_; }
  // Returns true when a served run's caller cancelled the run.
  bool cancelled() const { return cancelled_; }
  // Returns the persistent variables after the last game (one worker, games in order).
  std::vector<std::string> persistent_report() const { return scanners_.front()->persistent_report(); }

 private:
  // Returns the result of game `g` on worker `worker`.
  ScanResult work(const pgn::Game& g, unsigned worker);
  // True when a served run's page is full: a match found now is past it, counted and not written.
  bool page_full() const;
  // True when game `span` of the current file is read by its tags alone: its match is only counted (page_full),
  // the query is decided by the tags (cql::eval::decided_by_tags) and the game is clean (no PGN problem in the
  // index: such a game's messages and count need its movetext): the same match without replaying its moves.
  // Counts the games it says so of.
  bool read_by_tags(const pgn::GameSpan& span);
  // Takes game `info`'s result in game order; returns false to stop the reading.
  bool deliver(const pgn::GameInfo& info, ScanResult&& r);
  // Scans the games `part` of file k, whose first game is numbered offset_ + 1. Returns Ok, or the status of a stop.
  Status scan_file(size_t k, const FilePart& part);
  // Plans the current file's candidates over `index` (none: every game is replayed), with the tags family's keys
  // `tag_keys` when a server holds them (else null). Returns Ok, or InputError when the index is damaged.
  Status plan_file(const store::IndexStore* index, const store::FamilyKeys* tag_keys);
  // Returns the games of `part` an indexed run reads, or nothing (said on stderr) when the index cannot tell.
  std::optional<Roaring> games_to_read(const store::IndexStore& index, const FilePart& part);
  // Returns work() and deliver() as the reader's callbacks.
  std::function<ScanResult(const pgn::Game&, unsigned)> work_function();
  std::function<bool(const pgn::GameInfo&, ScanResult&&)> deliver_function();
  // Replays every game of `part` of `file`. Returns Ok, or InputError when the part cannot be placed.
  // Ok, or InputError (said on the diagnostics) when `file` was truncated while it was scanned (its lost pages
  // read as zeros: pgn::PgnFile::survive_shrinking).
  Status shrunk_status(const pgn::PgnFile& file);
  Status scan_every_game(pgn::PgnFile& file, const store::IndexStore* index, const FilePart& part,
                         pgn::ReadOptions ro);
  // Replays the games `to_read`, read from `ranges` (else cut from `file`), then counts the part's games the
  // index ruled out. Returns Ok, or InputError when a game cannot be read.
  Status replay_candidates(const store::IndexStore& index, const Roaring& to_read, const FilePart& part,
                           const pgn::PgnFile* file, const pgn::RangeReader* ranges, const pgn::ReadOptions& ro);
  // Accounts the games of `part` after a replay of its candidates: the index ruled out the others without one.
  void account_ruled_out(const store::IndexStore& index, const FilePart& part, uint64_t seen_before,
                         uint64_t messages_only_before);

  cql::Query& query_;
  const RunSettings& opt_;
  const cql::eval::Program& program_;
  const std::vector<std::string>& files_;
  RepositoryIndexes& indexes_;
  const unsigned threads_;
  Sink sink_;
  std::function<void()> poll_;
  std::optional<cql::Range> games_;  // the -gamenumber range, in the repository's numbers
  const std::vector<const store::IndexStore*>* served_indexes_;  // a served run's, one per file; else null
  const std::vector<const store::FamilyKeys*>* served_tag_keys_;  // their tags family's keys in memory; else null
  std::vector<std::unique_ptr<cql::eval::GameScanner>> scanners_;
  ScanCounts counts_;
  // The matches delivered so far, read by the workers: a game evaluated when a served run's page is full is
  // past it (its place among the matches is at least this count), and is not written.
  std::atomic<uint64_t> matches_delivered_{0};
  // The least game number whose evaluation stopped with an error so far: the delivery stops at the first such
  // game in file order, so the games after it are not evaluated (a costly error is not met again and again)
  std::atomic<uint64_t> first_error_game_{UINT64_MAX};
  std::vector<ScanResult> kept_;
  std::optional<cql::CqlError> run_error_;
  bool cancelled_ = false;
  bool finished_ = false;  // past the gamenumber range, or stopped by a query error: no later file is read
  bool said_cannot_narrow_ = false;
  std::ostream* diag_;                         // stderr, a served run's diagnostics, or held_
  std::ostringstream* held_ = nullptr;         // hold_diagnostics
  std::optional<uint64_t> cannot_narrow_at_;  // kCannotNarrow's place in held_
  // The file being read: its path (for its PGN messages), the games of the files before it (its game k is the
  // repository's game offset + k), its candidates (local ids) when its index narrowed the query.
  std::string input_;
  uint64_t offset_ = 0;
  std::optional<planner::CandidateSet> candidates_;
  // The current file's games with PGN errors or warnings (local ids), from its index; whether games past a served
  // run's page may be read by their tags (read_by_tags): only when that index records them.
  Roaring problems_;
  bool tags_decide_ = false;
  std::atomic<uint64_t> read_by_tags_count_{0};  // counted by the workers, into counts_ after each slice
};

}  // namespace cqlindex::exec
