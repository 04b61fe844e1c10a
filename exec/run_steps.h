#pragma once
// The steps of the run pipeline (run_query.cpp), named so that an MPI rank's share of a repository
// (distributed_run.cpp) runs the same code as one process: prepare the query and its repository, compile it,
// open the output, scan files (repository_scan.h), report how the scan ended, write sorted games, summarise.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/eval/evaluator.h"
#include "engine/cql/query.h"
#include "exec/output_file.h"
#include "exec/repository.h"
#include "exec/repository_scan.h"
#include "exec/run_query.h"
#include "exec/similar_query.h"
#include "planner/strategy.h"

namespace cqlindex::exec {

// A query read, parsed and completed by the command line, with its repository resolved.
struct PreparedRun {
  cql::Query query;
  std::string source;                      // the query's text (for error messages)
  std::optional<Repository> repository;
  planner::QueryStrategy strategy;         // the planner's choice: the scan, or the similar search (a lone similarposition)
};

// Returns the prepared run, or nullopt when `summary` is the whole answer (-lex or -parse printed, or a
// refusal with its message on stderr).
std::optional<PreparedRun> prepare_run(const RunSettings& opt, RunSummary& summary);

// Returns the similar pipeline's answer to a prepared run whose strategy is the similar search, from `search`
// (run_similar; an MPI rank's run_similar_distributed).
RunSummary run_similar_search(const PreparedRun& run, const RunSettings& opt,
                              SimilarSummary (*search)(const SimilarRequest&) = run_similar);

// Returns the program compiled from `query` for `repository`, or nullopt with `status` after its message.
// `announce`: CQL's line for each similarposition submission goes to stdout (one process, or rank 0).
std::optional<cql::eval::Program> compile_run(const cql::Query& query, const RunSettings& opt,
                                              const Repository& repository, const std::string& source,
                                              bool announce, Status* status);

// Returns the path the matched games are written to (-o, the header's `output`, or beside the query).
std::string run_output_path(const cql::Query& query, const RunSettings& opt);

// Returns the output file opened at run_output_path, or nullptr with `status` after its message.
std::unique_ptr<OutputFile> open_run_output(const cql::Query& query, const RunSettings& opt,
                                            const Repository& repository, Status* status);

// Returns the worker threads of a run (one for a query with cross-game state, said on stderr if `announce`).
unsigned run_threads(const cql::Query& query, const RunSettings& opt, bool announce);

// Returns Ok when a scan's games are the answer, else the status after the message (cancelled, a query error
// at a game). Says first how much the indexes narrowed the query, when they did.
Status report_scan_end(const ScanCounts& counts, bool cancelled, const std::optional<cql::CqlError>& run_error,
                       const RunSettings& opt, const std::string& source);

// Hands the kept games of a sorted query to `sink` in CQL's sort order (stable: game order breaks ties).
void emit_sorted(const cql::eval::Program& program, std::vector<ScanResult>& kept, const RepositoryScan::Sink& sink);

// Evaluates the prepared query, compiled to `program`, over its repository's files in order, their games numbered
// on from file to file (each file's candidates from its index when it has a fresh one), in one process; returns
// the summary.
RunSummary evaluate_compiled(PreparedRun& run, const RunSettings& opt, const cql::eval::Program& program);

// Returns the summary of a finished run from its counts.
RunSummary run_summary_of(const ScanCounts& counts, const cql::Query& query, const RunSettings& opt,
                          unsigned threads, const std::string& output, std::vector<std::string> persistent);

}  // namespace cqlindex::exec
