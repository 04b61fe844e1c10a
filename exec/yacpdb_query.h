#pragma once
// The yacpdb pipeline (`cqlindex yacpdb`): the YACPDB query language over a problem file (PGN games with
// solution trees, or YACPDB YAML entries such as Olive's .olv collections). With a fresh index of the file the
// analysis predicates are answered from the stored instances and the metadata predicates from the entries'
// metadata stored beside them (the file is read only to write the matching entries); without one every entry
// is evaluated directly. A stale index is refused.
#include <cstddef>
#include <string>
#include <vector>

#include "exec/status.h"

namespace cqlindex::exec {

struct MemoryRun;

struct YacpdbSettings {
  std::string query;      // the query text
  std::string input;      // the problem file (.pgn, .olv, .yaml), or a .cqlrepo list of them
  std::vector<std::string> more_inputs;  // further -i files: with input, a repository read in order
  std::string output;     // where the matching entries go as PGN; empty: standard output
  std::string index_dir;  // --index DIR; empty: the default folder beside the input
  bool count_only = false;  // --count: nothing is written but the summary
  bool no_index = false;
  // A served query (`cqlindex serve`, exec/memory_run.h): each matching entry handed to memory->on_game (its PGN
  // as the output file would receive it; number: the entry's, 1-based), the lines to memory's streams, no file
  // written, the run stopped between entries when cancelled. Null: the command line.
  const MemoryRun* memory = nullptr;
};

// What a query reports: "N matches of M entries in S seconds (U entries not analysed ...)".
struct YacpdbSummary {
  Status status = Status::Ok;
  size_t matches = 0, entries = 0;
  size_t undetermined = 0;  // entries not analysed for a predicate the query needs (work cap): never matched
  double seconds = 0;
  bool entries_on_stdout = false;  // the entries went to standard output (the summary then goes to stderr)
};

// Runs the query; the matching entries go to the output (in file order) and problems to stderr as they are
// met. Returns the summary (its status says whether the query finished).
YacpdbSummary run_yacpdb(const YacpdbSettings& settings);

}  // namespace cqlindex::exec
