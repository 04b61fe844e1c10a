// cqlindex explain QUERY.cql -i REPO.pgn [--index DIR]: prints the plan of a query over an index — the
// plan tree (each node: its candidate count, the CQL text, the rule and family that bounded it, or why it
// falls back to all games) and the final candidate count and share. Exit 0; 1 for a query or usage error;
// 2 when the index is missing, damaged or stale.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/explain_query.h"

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
  exec::ExplainSettings settings;
  settings.query_file = vm["query"].as<std::string>();
  if (vm.count("input")) settings.input = vm["input"].as<std::string>();
  if (vm.count("index")) settings.index_dir = vm["index"].as<std::string>();
  const exec::ExplainSummary summary = exec::explain_query(settings);
  if (summary.status != exec::Status::Ok) return exit_code(summary.status);
  std::cout << "plan of " << settings.query_file << " over " << summary.repository << "\n"
            << "[count] is the number of candidate games each part leaves (all N: cannot be bounded)\n\n"
            << summary.plan;
  char buf[64];
  std::snprintf(buf, sizeof buf, "planning time: %.1f ms\n", summary.milliseconds);
  std::cout << buf;
  return kExitOk;
}

}  // namespace cqlindex::cli
