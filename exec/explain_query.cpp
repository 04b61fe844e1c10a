#include "exec/explain_query.h"

#include <chrono>
#include <iostream>

#include "engine/cql/error.h"
#include "engine/cql/query.h"
#include "exec/open_index.h"
#include "exec/query_file.h"
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

  const std::string& pgn = settings.input;
  const std::string dir = !settings.index_dir.empty() ? settings.index_dir : indexer::default_index_dir(pgn);
  std::string error;
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
  const auto start = std::chrono::steady_clock::now();
  planner::PlanReport report;
  planner::plan_candidates(query, *store, &report);
  summary.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  summary.repository = pgn.empty() ? store->meta().pgn_path : pgn;
  summary.plan = planner::format_plan(report);
  return summary;
}

}  // namespace cqlindex::exec
