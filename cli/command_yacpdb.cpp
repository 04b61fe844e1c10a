// cqlindex yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]: the YACPDB query language over a problem file
// (PGN games with solution trees, or YACPDB YAML entries such as Olive's .olv collections).
//
// Output: the matching entries in file order as PGN (YAML entries become one game per twin, the diagram as
// FEN and the solution as variations) to OUT.pgn, or to stdout without -o; the summary line
// `N matches of M entries in S seconds` on stdout (on stderr when the PGN goes to stdout). Problems reading
// the file go to stderr as FILE:LINE:COL: message. Entries not analysed for a predicate the query needs
// (work cap) never match and are counted in the summary.
// Exit 0 on success, 1 for a query or usage error, 2 when the file cannot be read.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "engine/yacpdb/evaluator.h"
#include "engine/yacpdb/pgn_export.h"
#include "engine/yacpdb/problem.h"
#include "engine/yacpdb/query_parser.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_yacpdb(int argc, char** argv) {
  po::options_description visible("usage: cqlindex yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::string>(), "problem file (.pgn, .olv, .yaml)")(
      "output,o", po::value<std::string>(), "write the matching entries here (default: stdout)")(
      "count", "only print the summary line");
  po::variables_map vm;
  if (auto stop = parse_command_line("yacpdb", argc, argv, visible, "query", false, vm)) return *stop;
  if (!vm.count("query") || !vm.count("input")) {
    std::cerr << "cqlindex yacpdb: " << (vm.count("query") ? "missing -i FILE" : "missing QUERY") << "\n" << visible;
    return kExitUsage;
  }
  const std::string text = vm["query"].as<std::string>();
  yacpdb::Query query;
  try {
    query = yacpdb::parse_query(text);
  } catch (const yacpdb::QueryError& e) {
    std::cerr << "cqlindex yacpdb: query:1:" << e.column() << ": " << e.message() << "\n  " << text << "\n  "
              << std::string(static_cast<size_t>(e.column() - 1), ' ') << "^\n";
    return kExitUsage;
  }

  const auto start = std::chrono::steady_clock::now();
  const std::string path = vm["input"].as<std::string>();
  yacpdb::ProblemFile file = yacpdb::read_problem_file(path);
  for (const std::string& e : file.errors) std::cerr << e << "\n";
  if (file.problems.empty() && !file.errors.empty()) return kExitInput;

  const bool count_only = vm.count("count") > 0;
  const bool to_stdout = !count_only && !vm.count("output");
  std::ofstream out_file;
  if (!count_only && !to_stdout) {
    out_file.open(vm["output"].as<std::string>(), std::ios::binary);
    if (!out_file) {
      std::cerr << "cqlindex yacpdb: cannot write " << vm["output"].as<std::string>() << "\n";
      return kExitInput;
    }
  }
  std::ostream& out = to_stdout ? std::cout : out_file;

  yacpdb::QueryEvaluator evaluator(query);
  size_t matches = 0, undetermined = 0;
  for (const yacpdb::Problem& p : file.problems) {
    yacpdb::Analysis analysis = evaluator.needs_analysis() ? yacpdb::analyse(p) : yacpdb::Analysis{};
    bool unknown = false;
    if (evaluator.matches(p, analysis, &unknown)) {
      ++matches;
      if (!count_only) out << yacpdb::problem_to_pgn(p);
    }
    undetermined += unknown;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char summary[160];
  std::snprintf(summary, sizeof summary, "%zu matches of %zu entries in %.2f seconds", matches, file.problems.size(),
                seconds);
  std::ostream& report = to_stdout ? std::cerr : std::cout;
  report << summary;
  if (undetermined) report << " (" << undetermined << " entries not analysed for the query's predicates)";
  report << "\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
