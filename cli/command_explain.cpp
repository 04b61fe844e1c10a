// cqlindex explain QUERY.cql -i REPO.pgn [--index DIR]: prints the plan of a query over an index — the
// plan tree (each node: its candidate count, the CQL text, the rule and family that bounded it, or why it
// falls back to all games) and the final candidate count and share. Exit 0; 1 for a query or usage error;
// 2 when the index is missing, damaged or stale.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/open_index.h"
#include "engine/cql/error.h"
#include "engine/cql/query.h"
#include "indexer/index_location.h"
#include "planner/plan.h"
#include "store/index_store.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_explain(int argc, char** argv) {
  po::options_description visible("usage: cqlindex explain QUERY.cql -i REPO.pgn [--index DIR]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::string>(), "the PGN repository")(
      "index", po::value<std::string>(), "index folder (default REPO.pgn.cqlidx)");
  po::variables_map vm;
  if (auto stop = parse_command_line("explain", argc, argv, visible, "query", false, vm)) return *stop;
  if (!vm.count("query") || (!vm.count("input") && !vm.count("index"))) {
    std::cerr << "cqlindex explain: name QUERY.cql and -i REPO.pgn\n" << visible;
    return kExitUsage;
  }
  const std::string query_path = vm["query"].as<std::string>();
  std::ifstream in(query_path, std::ios::binary);
  if (!in) {
    std::cerr << "cqlindex explain: cannot read " << query_path << "\n";
    return kExitUsage;
  }
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  cql::Query query;
  try {
    query = cql::parse_query(source);
  } catch (const cql::CqlError& e) {
    std::cerr << cql::format_error(e, query_path, source) << "\n";
    return kExitUsage;
  }

  const std::string pgn = vm.count("input") ? vm["input"].as<std::string>() : std::string();
  const std::string dir = vm.count("index") ? vm["index"].as<std::string>() : indexer::default_index_dir(pgn);
  std::string error;
  auto store = indexer::open_index_for_reading(dir, &error);
  if (!store) {
    if (std::string os = exec::os_refusal(dir, error); !os.empty()) error = "cannot read the index " + dir + ": " + os;
    std::cerr << "cqlindex explain: " << error << "\n";
    return kExitInput;
  }
  if (!pgn.empty()) {
    auto freshness = indexer::check_freshness(store->meta(), pgn, &error);
    if (!freshness) {
      std::cerr << "cqlindex explain: " << error << "\n";
      return kExitInput;
    }
    if (*freshness != indexer::Freshness::Fresh) {
      std::cerr << "cqlindex explain: " << indexer::refusal_message(*freshness, pgn, dir) << "\n";
      return kExitInput;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  planner::PlanReport report;
  planner::plan_candidates(query, *store, &report);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::cout << "plan of " << query_path << " over " << (pgn.empty() ? store->meta().pgn_path : pgn) << "\n"
            << "[count] is the number of candidate games each part leaves (all N: cannot be bounded)\n\n"
            << planner::format_plan(report);
  char buf[64];
  std::snprintf(buf, sizeof buf, "planning time: %.1f ms\n", ms);
  std::cout << buf;
  return kExitOk;
}

}  // namespace cqlindex::cli
