#pragma once
// CQL's -similarposition with an empty query, as `cqlindex similar` and `cqlindex run -similarposition F`
// (with an empty body) both run it: candidates from the index when there is one, CQL 6.2's output.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exec/memory_run.h"
#include "exec/status.h"

namespace cqlindex::exec {

// Submission positions similar to positions of more than this share of the repository are warned about.
constexpr double kDefaultWarnCommonPercent = 1.0;

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
  const MemoryRun* memory = nullptr;  // serve: submissions as text, games in memory (memory_run.h); no near/report
};

// What a finished search reports ("N matches of M games in S seconds using T threads to OUT").
struct SimilarSummary {
  Status status = Status::Ok;
  uint64_t matches = 0, games = 0;
  double seconds = 0;
  unsigned threads = 1;
  std::string output;
};

// Runs the search and writes the output; returns the summary (its status says whether it finished).
SimilarSummary run_similar(const SimilarRequest& request);

}  // namespace cqlindex::exec
