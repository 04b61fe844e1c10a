#pragma once
// `cqlindex build`: indexes every game of a PGN (or only the games appended since the last build).
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/pgn/reader.h"
#include "indexer/build_step_times.h"

namespace cqlindex::indexer {

// In IndexMeta::build_options when the flags family marks the games with PGN problems (GameFlag::PgnProblem);
// an index built before has no such mark and cannot tell a query which ruled-out games have errors.
constexpr std::string_view kPgnProblemMarker = "pgn-problems=v1";

// What bounds a build's memory, whatever the size of its input. The defaults keep the peak RSS of a build of any
// size well under 1 GB; tests set tiny ones to check that spilling gives the same index. These are upper bounds:
// under an address-space limit (ulimit -v) the build lowers them, and its workers, to fit (index_builder.cpp:
// plan_memory, the one place that decides a build's budget).
// The postings all of a build's threads sort in memory at once (8 bytes a position posting, 40 an other one; a
// whole train-file build peaks at about 170 MB): a machine with more cores gets shorter runs, not more memory.
constexpr size_t kRunBudgetPostings = size_t{1} << 23;

struct BuildLimits {
  size_t run_postings = size_t{1} << 22;  // postings a thread sorts in memory before it writes them as a run
                                          // (about 50 MB, nine in ten being positions; all threads together
                                          // at most kRunBudgetPostings)
  size_t merge_fan_in = 256;              // runs merged at once (kRunReadBuffer each); more are merged in rounds
                                          // (a 10-million-game build makes about 230 runs a key range)
  uint32_t bitmap_games = uint32_t{1} << 18;  // games a thread's piece-square and flag bitmaps hold before they are
                                              // spilled (at most 32 KiB a list then)
};

struct BuildOptions {
  std::string index_dir;  // empty: default_index_dir(pgn)
  unsigned threads = 0;   // 0: every core
  bool append = false;    // extend the existing index with the games appended to the PGN
  BuildLimits limits;
  unsigned bucket_bits = 0;  // the similar family's bucket bits; 0: chosen from the repository's size (tests force
                             // more, as a larger repository gets)
  uint64_t bucket_bytes = 0;  // the average bucket value the chosen bucket count aims at; 0: store::kBucketBytes
                              // (tests aim lower, so that a small repository outgrows its buckets on --append)
  bool explore = false;   // also file the first plies' positions and moves (the explore family, serve's opening
                          // explorer): about 12 % more build CPU and 4 % more index on the train file
  bool yacpdb = false;    // a PGN problem file: also store its YACPDB predicate instances (always for YAML files,
                          // which get only those)
  // Called now and then on the calling thread with the bytes of the PGN read so far.
  std::function<void(uint64_t bytes_done, uint64_t bytes_total)> progress;
  // Called, in file order, for every game that has errors or warnings (or was skipped).
  std::function<void(const pgn::GameInfo&)> on_problem;
  // Called for every "file:line:col: message" about an entry of a problem file that could not be read in full.
  std::function<void(const std::string&)> on_problem_text;
};

struct BuildSummary {
  std::string index_dir;
  uint64_t games = 0;       // games in the index after the build
  uint64_t new_games = 0;   // games read by this build
  uint64_t positions = 0;   // positions indexed by this build
  pgn::ReadStats read;      // what the reader counted in this build
  bool appended = false;    // the build extended an existing index
  std::string note;         // why an --append rebuilt the whole index instead (empty when it did not)
  uint64_t entries = 0;     // problems whose YACPDB instances were stored (problem files)
  // Seconds (wall, and CPU of the whole process) of the phases: parse and sort into runs; merge and write SST
  // files; everything after (problem files: the YACPDB analysis is in the last).
  struct Phase {
    double wall = 0, cpu = 0;
  };
  std::array<Phase, 3> phases;
  std::vector<StepTime> steps;  // every step of the build, in order (build_step_times.h)
};

// Builds (or extends) the index of `pgn_path`; false (with `error`) when it cannot. An interrupted build never
// leaves an index that a query would use: the index is written to a temporary folder and swapped into place
// (build_workspace.h). It replaces only an index folder this tool built (index_target_problem). After an append
// the index holds exactly the games a read of the whole file sees: when the appended bytes continue the last
// indexed game (the file was still being written), the whole index is rebuilt (`summary->note` says so).
bool build_index(const std::string& pgn_path, const BuildOptions& options, BuildSummary* summary,
                 std::string* error);

}  // namespace cqlindex::indexer
