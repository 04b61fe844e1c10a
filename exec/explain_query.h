#pragma once
// The plan of a query over an index (`cqlindex explain`): the planner's tree with the candidate count at
// each node, without replaying a game.
#include <string>

#include "exec/status.h"

namespace cqlindex::exec {

struct ExplainSettings {
  std::string query_file;  // QUERY.cql
  std::string input;       // the PGN the index describes (empty: the one its meta names, unchecked)
  std::string index_dir;   // empty: the default folder beside `input`
};

struct ExplainSummary {
  Status status = Status::Ok;
  std::string repository;  // the PGN the plan is over
  std::string plan;        // the plan tree as planner::format_plan writes it
  double milliseconds = 0;  // planning time
};

// Plans the query over the index; returns the plan (its status says whether the query and index could be read).
ExplainSummary explain_query(const ExplainSettings& settings);

}  // namespace cqlindex::exec
