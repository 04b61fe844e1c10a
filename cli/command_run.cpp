// `cqlindex run QUERY.cql [-i IN] [-o OUT] [CQL options]`: the command line -> exec::run_query -> CQL's summary
// line, the persistent variables and our accounting line, and the exit code.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/run_options.h"
#include "cli/summary_lines.h"
#include "exec/distributed_launch.h"
#include "exec/run_query.h"

namespace cqlindex::cli {
namespace {

constexpr const char* kRunUsage =
    "usage: cqlindex run QUERY.cql [-i IN.pgn] [-o OUT.pgn] [--index DIR | --no-index] [CQL options]\n"
    "  CQL 6.2 options take one or two dashes: -parse -cql F -similarposition [nosort] [notransform] F.pgn\n"
    "  -gamenumber N [M] -matchcount N [M] -variations -silent -quiet -threads N -flipcolor ...\n";


}  // namespace

int run_distributed_executable(int argc, char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "cqlindex run: cannot find this program's folder: " << ec.message() << "\n";
    return kExitInput;
  }
  const std::string program = (self.parent_path() / exec::kDistributedExecutable).string();
  std::vector<char*> args{const_cast<char*>(program.c_str())};
  args.insert(args.end(), argv, argv + argc);
  args.push_back(nullptr);
  std::cout.flush();
  ::execv(program.c_str(), args.data());
  std::cerr << "cqlindex " << argv[0] << ": started by mpirun among " << exec::launched_ranks()
            << " processes, but cannot run "
            << program << ": " << std::strerror(errno)
            << " (it is built beside cqlindex when Open MPI is installed: scripts/setup installs libopenmpi-dev)\n";
  return kExitInput;
}

int run_command_with(int argc, char** argv, exec::RunSummary (*evaluate)(const exec::RunSettings&), bool speaks) {
  exec::RunSettings opt;
  if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    if (speaks) std::cout << kRunUsage;
    return kExitOk;
  }
  if (auto err = parse_run_options(argc, argv, opt)) {
    if (speaks) std::cerr << "cqlindex run: " << *err << "\n" << kRunUsage;
    return kExitUsage;
  }
  if (opt.query_file.empty()) {
    if (speaks) std::cerr << "cqlindex run: no query file given\n" << kRunUsage;
    return kExitUsage;
  }
  const exec::RunSummary summary = evaluate(opt);
  if (speaks && summary.status == exec::Status::Ok && !summary.printed_only) {
    if (summary.similar) print_similar_summary(*summary.similar);
    else print_run_summary(summary);
  }
  return exit_code(summary.status);
}

int run_command(int argc, char** argv) {
  // Under mpirun with several processes each one becomes a rank of the distributed run; one stays this path.
  if (exec::launched_ranks() > 1) return run_distributed_executable(argc, argv);
  return run_command_with(argc, argv, exec::run_query, true);
}

}  // namespace cqlindex::cli
