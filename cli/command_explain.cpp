// cqlindex explain QUERY.cql -i REPO.pgn [--index DIR]: prints the plan of a query over an index — the
// plan tree (each node: its candidate count, the CQL text, the rule and family that bounded it, or why it
// falls back to all games) and the final candidate count and share. Over a repository (-i repeated, or a
// NAME.cqlrepo list): each file's plan, headed by the file and its game numbers, then the total candidates.
// Exit 0; 1 for a query or usage error; 2 when an index is missing, damaged or stale.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/explain_query.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_explain(int argc, char** argv) {
  po::options_description visible("usage: cqlindex explain QUERY.cql -i REPO.pgn [--index DIR]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::vector<std::string>>(),
                                               "the PGN repository (repeated, or a .cqlrepo list: several files)")(
      "index", po::value<std::string>(), "index folder (default REPO.pgn.cqlidx)");
  po::variables_map vm;
  if (auto stop = parse_command_line("explain", argc, argv, visible, "query", false, vm)) return *stop;
  if (!vm.count("query") || (!vm.count("input") && !vm.count("index"))) {
    std::cerr << "cqlindex explain: name QUERY.cql and -i REPO.pgn\n" << visible;
    return kExitUsage;
  }
  exec::ExplainSettings settings;
  settings.query_file = vm["query"].as<std::string>();
  if (vm.count("input")) {
    const auto& inputs = vm["input"].as<std::vector<std::string>>();
    settings.input = inputs.front();
    settings.more_inputs.assign(inputs.begin() + 1, inputs.end());
  }
  if (vm.count("index")) settings.index_dir = vm["index"].as<std::string>();
  const exec::ExplainSummary summary = exec::explain_query(settings);
  if (summary.status != exec::Status::Ok) return exit_code(summary.status);
  std::cout << "plan of " << settings.query_file << " over "
            << (summary.files.size() == 1 ? summary.repository
                                          : "a repository of " + std::to_string(summary.files.size()) + " files")
            << "\n"
            << "[count] is the number of candidate games each part leaves (all N: cannot be bounded)\n\n";
  if (summary.files.size() == 1) {
    std::cout << summary.plan;
  } else {
    uint64_t games = 0, candidates = 0;
    for (const exec::FilePlan& file : summary.files) {
      std::cout << "file " << file.repository << " (games " << file.first_game << "-"
                << file.first_game + file.games - 1 << "):\n"
                << file.plan << "\n";
      games += file.games;
      candidates += file.candidates;
    }
    std::cout << "repository: " << candidates << " candidates of " << games << " games in " << summary.files.size()
              << " files\n";
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "planning time: %.1f ms\n", summary.milliseconds);
  std::cout << buf;
  return kExitOk;
}

}  // namespace cqlindex::cli
