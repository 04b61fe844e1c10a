// cqlindex yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]: the YACPDB query language over a problem file
// (PGN games with solution trees, or YACPDB YAML entries such as Olive's .olv collections).
//
// Output: the matching entries in file order as PGN (YAML entries become one game per twin, the diagram as
// FEN and the solution as variations) to OUT.pgn, or to stdout without -o; the summary line
// `N matches of M entries in S seconds` on stdout (on stderr when the PGN goes to stdout). Problems reading
// the file go to stderr as FILE:LINE:COL: message. Entries not analysed for a predicate the query needs
// (work cap) never match and are counted in the summary.
// With an index of the file (`cqlindex build FILE`, `--yacpdb` for PGN) that still matches it, the analysis
// predicates are answered from the stored instances (as YACPDB does), with the same output as direct evaluation;
// the metadata predicates from the entries' metadata stored beside them. The file itself is read only when the
// matching entries are written (with their solutions). A stale index is
// refused (exit 2) as `run` does; `--no-index` evaluates directly.
// Exit 0 on success, 1 for a query or usage error, 2 when the file or its index cannot be read.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/summary_lines.h"
#include "exec/yacpdb_query.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_yacpdb(int argc, char** argv) {
  po::options_description visible("usage: cqlindex yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::vector<std::string>>(),
                                               "problem file (.pgn, .olv, .yaml; repeated, or a .cqlrepo list)")(
      "output,o", po::value<std::string>(), "write the matching entries here (default: stdout)")(
      "count", "only print the summary line")("index", po::value<std::string>(), "index folder (default: FILE.cqlidx)")(
      "no-index", "evaluate every entry directly, even when an index exists");
  po::variables_map vm;
  if (auto stop = parse_command_line("yacpdb", argc, argv, visible, "query", false, vm)) return *stop;
  if (!vm.count("query") || !vm.count("input")) {
    std::cerr << "cqlindex yacpdb: " << (vm.count("query") ? "missing -i FILE" : "missing QUERY") << "\n" << visible;
    return kExitUsage;
  }
  exec::YacpdbSettings settings;
  settings.query = vm["query"].as<std::string>();
  const auto& inputs = vm["input"].as<std::vector<std::string>>();
  settings.input = inputs.front();
  settings.more_inputs.assign(inputs.begin() + 1, inputs.end());
  if (vm.count("output")) settings.output = vm["output"].as<std::string>();
  if (vm.count("index")) settings.index_dir = vm["index"].as<std::string>();
  settings.count_only = vm.count("count") > 0;
  settings.no_index = vm.count("no-index") > 0;
  const exec::YacpdbSummary summary = exec::run_yacpdb(settings);
  if (summary.status == exec::Status::Ok) print_yacpdb_summary(summary);
  return exit_code(summary.status);
}

}  // namespace cqlindex::cli
