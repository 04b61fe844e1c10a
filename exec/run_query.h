#pragma once
// The run pipeline (`cqlindex run`): load the query -> compile -> plan over the index -> replay the candidate
// games in parallel -> output in game order (or sorted) -> accounting. A query that is a lone similarposition
// goes to the similar pipeline (similar_query.h).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exec/memory_run.h"
#include "exec/similar_query.h"
#include "exec/status.h"

namespace cqlindex::exec {

// What a run is given: CQL 6.2's command line (one or two dashes, case-insensitive) plus ours.
struct RunSettings {
  std::string query_file;                 // QUERY.cql
  std::string input, output;              // -i / -o (empty: header or default); -i may name a .cqlrepo list
  std::vector<std::string> more_inputs;   // further -i files: with input, a repository (exec/repository.h)
  std::string index_dir;                  // --index DIR
  bool no_index = false;                  // --no-index
  bool parse_only = false;                // -parse: print the bound tree and exit
  bool lex_only = false;                  // -lex: print the tokens and exit
  std::vector<std::string> preamble;      // CQL text ANDed in front of the body (-cql, -fen, -wtm, ...)
  std::vector<std::string> transforms;    // -flipcolor ... wrap the body, first given = outermost
  std::optional<std::pair<long, long>> gamenumber, matchcount, year;
  std::string player;                     // -player regex
  std::optional<std::string> matchstring;
  bool variations = false, mainline = false, silent = false, quiet = false, noheader = false;
  bool alwayscomment = false, nouniquecomments = false, nosortcomments = false, noremovecomment = false;
  bool nosettag = false, showmatches = false;
  int threads = 0;                        // 0 = default
  const MemoryRun* memory = nullptr;      // serve: the query as text, the games and lines in memory (memory_run.h)
};

// What a run reports: CQL's summary line, the persistent variables, and the accounting of every game.
struct RunSummary {
  Status status = Status::Ok;
  bool printed_only = false;              // -lex or -parse: the printout was the whole answer
  std::optional<SimilarSummary> similar;  // a lone similarposition, answered by the similar pipeline
  uint64_t matches = 0;
  uint64_t games_reported = 0;            // "of M games": CQL counts the game read past a -gamenumber range
  double seconds = 0;
  unsigned threads = 1;
  std::string output;
  std::vector<std::string> persistent;    // the persistent variables after the last game ("NumberGames: 1005")
  // The accounting: every game of the file evaluated, unmatched after a replay, ruled out or unreadable.
  uint64_t games = 0, considered = 0, unmatched = 0, ruled_out = 0, unreadable = 0, with_errors = 0;
  // A served run's games past its page that the query's tags decide, read by their tags alone: counted as
  // matched or not without replaying their moves (exec/repository_scan.h, read_by_tags).
  uint64_t read_by_tags = 0;
};

// Runs the query `settings` name; the matching games go to the output file, CQL's `message` lines to stdout and
// problems to stderr as they are met. Returns the summary (its status says whether the run finished).
RunSummary run_query(const RunSettings& settings);

}  // namespace cqlindex::exec
