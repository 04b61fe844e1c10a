#include "exec/explain_query.h"

#include <chrono>
#include <iostream>

#include "engine/cql/error.h"
#include "engine/cql/query.h"
#include "exec/open_index.h"
#include "exec/query_file.h"
#include "exec/repository.h"
#include "indexer/index_location.h"
#include "planner/plan.h"
#include "store/index_store.h"

namespace cqlindex::exec {

ExplainSummary explain_query(const ExplainSettings& settings) {
  ExplainSummary summary;
  auto stop = [&](Status status) { return stopped(summary, status); };
  const std::string& query_path = settings.query_file;
  const std::optional<std::string> text = read_query_file("explain", query_path);
  if (!text) return stop(Status::QueryError);
  const std::string& source = *text;
  cql::Query query;
  try {
    query = cql::parse_query(source);
  } catch (const cql::CqlError& e) {
    std::cerr << cql::format_error(e, query_path, source) << "\n";
    return stop(Status::QueryError);
  }

  std::vector<std::string> inputs{settings.input};
  inputs.insert(inputs.end(), settings.more_inputs.begin(), settings.more_inputs.end());
  std::string error;
  const std::optional<Repository> repository = Repository::resolve(inputs, &error);
  if (!repository) {
    std::cerr << "cqlindex explain: " << error << "\n";
    return stop(Status::InputError);
  }
  if (repository->files().empty()) {
    std::cerr << "cqlindex explain: the repository list '" << settings.input << "' names no PGN file\n";
    return stop(Status::InputError);
  }
  if (!repository->single() && !settings.index_dir.empty()) {
    std::cerr << "cqlindex explain: --index names the index of one file; the files of a repository are planned "
                 "with their own indexes\n";
    return stop(Status::QueryError);
  }
  const std::optional<cql::Range> whole_range = query.header.gamenumber;
  uint64_t offset = 0;  // the games of the files before
  for (const std::string& pgn : repository->files()) {
    const std::string dir = !settings.index_dir.empty() ? settings.index_dir : indexer::default_index_dir(pgn);
    if (std::string problem = indexer::index_path_problem(dir); !problem.empty()) {
      std::cerr << "cqlindex explain: " << problem << "\n";
      return stop(Status::InputError);
    }
    auto store = indexer::open_index_for_reading(dir, &error);
    if (!store) {
      if (std::string os = os_refusal(dir, error); !os.empty()) error = "cannot read the index " + dir + ": " + os;
      std::cerr << "cqlindex explain: " << error << "\n";
      return stop(Status::InputError);
    }
    if (!pgn.empty()) {
      auto freshness = indexer::check_freshness(store->meta(), pgn, &error);
      if (!freshness) {
        std::cerr << "cqlindex explain: " << error << "\n";
        return stop(Status::InputError);
      }
      if (*freshness != indexer::Freshness::Fresh) {
        std::cerr << "cqlindex explain: " << indexer::refusal_message(*freshness, pgn, dir) << "\n";
        return stop(Status::InputError);
      }
    }
    // the header's gamenumber range in this file's own numbers, as `run` plans it
    if (whole_range)
      query.header.gamenumber = cql::Range{whole_range->min - int64_t(offset), whole_range->max - int64_t(offset)};
    const auto start = std::chrono::steady_clock::now();
    planner::PlanReport report;
    const auto candidates = planner::plan_candidates(query, *store, &report);
    summary.milliseconds +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    FilePlan file;
    file.repository = pgn.empty() ? store->meta().pgn_path : pgn;
    file.plan = planner::format_plan(report);
    file.first_game = offset + 1;
    file.games = store->meta().game_count;
    file.candidates = candidates ? candidates->cardinality() : file.games;
    offset += file.games;
    summary.files.push_back(std::move(file));
  }
  summary.repository = summary.files.front().repository;
  summary.plan = summary.files.front().plan;
  return summary;
}

}  // namespace cqlindex::exec
