// `cqlindex run QUERY.cql [-i IN] [-o OUT] [CQL options]`: the command line -> exec::run_query -> CQL's summary
// line, the persistent variables and our accounting line, and the exit code.
#include <iostream>
#include <string>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/run_options.h"
#include "cli/summary_lines.h"
#include "exec/run_query.h"

namespace cqlindex::cli {
namespace {

constexpr const char* kRunUsage =
    "usage: cqlindex run QUERY.cql [-i IN.pgn] [-o OUT.pgn] [--index DIR | --no-index] [CQL options]\n"
    "  CQL 6.2 options take one or two dashes: -parse -cql F -similarposition [nosort] [notransform] F.pgn\n"
    "  -gamenumber N [M] -matchcount N [M] -variations -silent -quiet -threads N -flipcolor ...\n";

}  // namespace

int run_command(int argc, char** argv) {
  exec::RunSettings opt;
  if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << kRunUsage;
    return kExitOk;
  }
  if (auto err = parse_run_options(argc, argv, opt)) {
    std::cerr << "cqlindex run: " << *err << "\n" << kRunUsage;
    return kExitUsage;
  }
  if (opt.query_file.empty()) {
    std::cerr << "cqlindex run: no query file given\n" << kRunUsage;
    return kExitUsage;
  }
  const exec::RunSummary summary = exec::run_query(opt);
  if (summary.status == exec::Status::Ok && !summary.printed_only) {
    if (summary.similar) print_similar_summary(*summary.similar);
    else print_run_summary(summary);
  }
  return exit_code(summary.status);
}

}  // namespace cqlindex::cli
