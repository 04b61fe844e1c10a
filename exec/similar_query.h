#pragma once
// CQL's -similarposition with an empty query, as `cqlindex similar` and `cqlindex run -similarposition F`
// (with an empty body) both run it: candidates from the index when there is one, CQL 6.2's output.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/pgn/pgn_error.h"
#include "exec/memory_run.h"
#include "exec/repository_part.h"
#include "exec/status.h"

namespace cqlindex::exec {

// Submission positions similar to positions of more than this share of the repository are warned about.
constexpr double kDefaultWarnCommonPercent = 1.0;

struct SimilarSearch;
class RepositoryIndexes;

// How one rank of a distributed search (exec/distributed_similar.h) takes part in the pipeline; null for one
// process. Every rank runs the pipeline; the hooks are its collective steps, in this order.
struct SimilarShare {
  struct Piece {
    uint32_t file = 0;
    FilePart part;
    uint64_t offset = 0;  // the games of the files before
  };
  bool speaks = true;  // this rank says CQL's lines, the notes and the refusals (rank 0); the others are quiet
  // Returns whether every rank goes on after its set-up (rank 0's `ok` decides; a rank that cannot follow ends
  // the job).
  std::function<bool(bool ok)> agree;
  // Returns the pieces of the repository this rank searches, in game order, and every file's games in `games`;
  // nullopt when a file cannot be read (on any rank).
  std::function<std::optional<std::vector<Piece>>(const std::vector<std::string>& files,
                                                  const RepositoryIndexes& indexes, bool indexed)> pieces;
  // Takes this rank's search (its status: Ok, or why it stopped, said already); returns on rank 0 the status of
  // every rank, `search` holding all their games in game order, summed hits and the repository's games; on
  // the others nullopt (the search is rank 0's to finish).
  std::function<std::optional<Status>(SimilarSearch& search, Status status)> merge;
  // A rank other than 0: where its search's stderr lines go (PGN messages, look-ups, a failure's reason), which
  // rank 0 writes in game order (mpirun's forwarding could cut the lines of ranks that write their own).
  std::ostream* lines = nullptr;
};

struct SimilarRequest {
  std::string command = "similar";  // names the command in messages
  std::string submissions, repository, output, index_dir;  // repository: a PGN or a .cqlrepo list
  std::vector<std::string> more_inputs;  // further repository files (repeated -i): read after `repository`
  bool sort = true, notransform = false, no_index = false;
  unsigned threads = 0;
  std::optional<double> ignore_common;  // percent of the repository's games
  double warn_common = kDefaultWarnCommonPercent;
  std::optional<unsigned> near;  // --near K: also the positions within distance K (issue 17, near_run.h)
  std::string report;            // --report FILE.html: the judges' report ("" = none)
  // serve: submissions as text, games and near pairs in memory (memory_run.h); near through the index only
  // (at most kIndexedNearLimit), no report
  const MemoryRun* memory = nullptr;
  // Refuse submissions a game of which the reader cut short or skipped (an illegal or unrecognised move, a
  // broken tag...), where CQL searches what it could read: a served study is searched as typed, or refused
  // (SimilarSummary::submission_error).
  bool whole_submissions = false;
  const SimilarShare* share = nullptr;  // one rank of several (mpirun), no memory, no near/report; null: one process
};

// What the near search found (the last line of `similar --near K` on stderr).
struct NearSummary {
  unsigned limit = 0;                 // K
  uint64_t pairs = 0;                 // pairs of a submission game and a repository game within K
  std::vector<uint64_t> by_distance;  // of them, at distance 0, 1, ... K
};

// What a finished search reports ("N matches of M games in S seconds using T threads to OUT").
struct SimilarSummary {
  Status status = Status::Ok;
  uint64_t matches = 0, games = 0;
  double seconds = 0;
  unsigned threads = 1;
  std::string output;
  std::optional<NearSummary> near;  // with SimilarRequest::near
  uint32_t submissions = 0;         // submission games read
  // With SimilarRequest::whole_submissions: the first problem of the submissions that refused them.
  std::optional<pgn::PgnError> submission_error;
  // A served search's warnings, as its stderr says them: submission positions common in the repository (flagged
  // or skipped), submission games read with problems.
  std::vector<std::string> warnings;
};

// Runs the search and writes the output; returns the summary (its status says whether it finished).
SimilarSummary run_similar(const SimilarRequest& request);

}  // namespace cqlindex::exec
