#pragma once
// The plan of a query over an index (`cqlindex explain`): the planner's tree with the candidate count at
// each node, without replaying a game. Over a repository (exec/repository.h): one plan per file.
#include <cstdint>
#include <string>
#include <vector>

#include "exec/status.h"

namespace cqlindex::exec {

struct ExplainSettings {
  std::string query_file;  // QUERY.cql
  std::string input;       // the PGN the index describes (empty: the one its meta names, unchecked); or a .cqlrepo
  std::vector<std::string> more_inputs;  // further -i files: with input, a repository
  std::string index_dir;   // empty: the default folder beside `input` (one file only)
};

// The plan over one file's index.
struct FilePlan {
  std::string repository;   // the PGN the plan is over
  std::string plan;         // the plan tree as planner::format_plan writes it
  uint64_t first_game = 1;  // the repository's number of the file's first game
  uint64_t games = 0, candidates = 0;
};

struct ExplainSummary {
  Status status = Status::Ok;
  std::string repository;  // the PGN the plan is over (a repository: its first file)
  std::string plan;        // the plan tree as planner::format_plan writes it (a repository: its first file's)
  std::vector<FilePlan> files;  // every file's plan, in repository order
  double milliseconds = 0;  // planning time
};

// Plans the query over the index of each file; returns the plans (its status says whether the query and
// every index could be read).
ExplainSummary explain_query(const ExplainSettings& settings);

}  // namespace cqlindex::exec
