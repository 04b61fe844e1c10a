#pragma once
// Indexing a repository (`cqlindex build`): a PGN file, or a problem file with the YACPDB predicate instances
// of its entries, into the index folder beside it; or the games appended since the last build. Problems in
// games go to stderr as `FILE:LINE:COL: game N: message` as they are met, with a progress line on a terminal.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "exec/status.h"

namespace cqlindex::exec {

struct BuildSettings {
  std::string input;       // REPO.pgn (or a problem file)
  std::string index_dir;   // --index DIR; empty: the default folder beside `input`
  unsigned threads = 0;    // 0: every core
  bool append = false;     // index only the games appended since the last build
  bool yacpdb = false;     // a PGN problem file: also store its YACPDB predicate instances
  bool explore = false;    // also file the explore family (serve's opening explorer)
  bool progress = true;    // a progress line on a terminal (not while several files are built at once)
};

struct BuildRunSummary {
  Status status = Status::Ok;
  std::string index_dir;
  uint64_t games = 0;      // games in the index after the build
  uint64_t new_games = 0;  // games read by this build
  bool appended = false;   // the build extended an existing index
  uint64_t errors = 0;     // games read with errors
  uint64_t skipped = 0;    // games skipped (chess variants)
  uint64_t positions = 0;  // positions indexed by this build
  uint64_t entries = 0;    // problems whose YACPDB instances were stored
  std::string note;        // why an --append rebuilt the whole index instead (empty when it did not)
  double seconds = 0;      // wall time of the build
  uint64_t bytes = 0;      // the index folder's bytes
  // Wall and CPU seconds of the phases: parse and sort into runs; merge and write SST files; ingest and finish.
  struct Phase {
    double wall = 0, cpu = 0;
  };
  std::array<Phase, 3> phases;
};

// Builds (or extends) the index of `settings.input`. A target that is not an index this tool built is never
// replaced: QueryError when --index named it (the flag is wrong), InputError when it sits at the default place;
// a file that cannot be read again (a pipe, a device) or a failed build is an InputError. Messages on stderr.
BuildRunSummary build_repository(const BuildSettings& settings);

// How the files of a repository are built on `threads` threads: a file of more than half their bytes alone with
// every thread (built with fewer, it would be the longest build); the others concurrently, `at_once` at a time
// with `threads_each` threads each, the largest first. At no time more than `threads` threads.
struct BuildSchedule {
  std::vector<size_t> alone;     // indices into the files (one at most)
  std::vector<size_t> together;  // largest first
  unsigned at_once = 1, threads_each = 1;
};
BuildSchedule schedule_builds(const std::vector<uint64_t>& bytes, unsigned threads);

// Returns the files (indices, ascending) that rank `rank` of `ranks` builds under mpirun: shares of about equal
// bytes, the largest file first to the rank with the fewest bytes so far (every rank computes the same shares).
std::vector<size_t> build_share(const std::vector<uint64_t>& bytes, int rank, int ranks);

// Builds the files `which` (indices into `files`) with `settings` (its input ignored) as schedule_builds says;
// calls done(k, summary) as file k's build ends, one call at a time (from the worker that built it).
void build_files(const std::vector<std::string>& files, const std::vector<size_t>& which, const BuildSettings& settings,
                 const std::function<void(size_t, const BuildRunSummary&)>& done);

// Returns Ok when every file of `files` but the last has a fresh index (what `build --append` over a repository
// needs: it extends the last file only); else InputError, naming the file on stderr.
Status check_append_prefix(const std::vector<std::string>& files);

}  // namespace cqlindex::exec
