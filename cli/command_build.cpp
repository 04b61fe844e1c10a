// cqlindex build REPO.pgn [--index DIR] [--threads N] [--append] [--yacpdb] [--phases]: indexes a PGN repository,
// or a problem file (YAML entries; PGN with --yacpdb) with the YACPDB predicate instances of its entries.
//
// Prints problems in games as `FILE:LINE:COL: game N: message` on stderr (as check does) and a summary on
// stdout: `REPO.pgn: G games (N new), P positions indexed in S seconds -> DIR (B bytes, b bytes per game)`.
// Exit 0 when the index was written, 2 when the PGN or the index cannot be used, 1 on a usage error. A target
// that is not an index this tool built is never replaced: exit 1 when --index named it (the flag is wrong),
// 2 when it sits at the default place REPO.pgn.cqlidx (the index location cannot be used).
#include <boost/program_options.hpp>
#include <iomanip>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/build_repository.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_build(int argc, char** argv) {
  po::options_description visible("usage: cqlindex build REPO.pgn [--index DIR] [--threads N] [--append] [--yacpdb] [--phases]");
  visible.add_options()("help,h", "this help")("index", po::value<std::string>(),
                                               "index folder (default: REPO.pgn.cqlidx)")(
      "threads", po::value<int>()->default_value(0), "threads (0 = all cores)")(
      "append", "index only the games appended to REPO.pgn since the last build")(
      "yacpdb", "a PGN problem file: also store the YACPDB predicate instances of its entries (YAML files: always)")(
      "phases", "print the wall and CPU seconds of the build's phases on stderr");
  po::variables_map vm;
  if (auto stop = parse_command_line("build", argc, argv, visible, "REPO.pgn", true, vm)) return *stop;
  exec::BuildSettings settings;
  settings.input = vm["REPO.pgn"].as<std::string>();
  if (vm.count("index")) settings.index_dir = vm["index"].as<std::string>();
  settings.threads = unsigned(vm["threads"].as<int>());
  settings.append = vm.count("append") > 0;
  settings.yacpdb = vm.count("yacpdb") > 0;
  const exec::BuildRunSummary summary = exec::build_repository(settings);
  if (summary.status != exec::Status::Ok) return exit_code(summary.status);
  if (!summary.note.empty()) std::cerr << "cqlindex build: " << summary.note << "\n";
  std::cout << settings.input << ": " << summary.games << " games (" << summary.new_games
            << (summary.appended ? " appended" : " new") << ", " << summary.errors << " with errors, " << summary.skipped
            << " skipped), " << summary.positions << " positions indexed in " << std::fixed << std::setprecision(2)
            << summary.seconds << " seconds -> " << summary.index_dir << " (" << summary.bytes << " bytes, "
            << (summary.games ? summary.bytes / summary.games : 0) << " bytes per game)";
  if (summary.entries) std::cout << "; YACPDB predicate instances of " << summary.entries << " entries";
  std::cout << std::endl;  // before the phases on stderr
  if (vm.count("phases")) {
    const char* names[] = {"parse and sort into runs", "merge and write SST files", "ingest and finish"};
    for (size_t i = 0; i < summary.phases.size(); ++i)
      std::cerr << std::setprecision(2) << "phase " << names[i] << ": " << summary.phases[i].wall << " s wall, "
                << summary.phases[i].cpu << " s CPU\n";
  }
  return kExitOk;
}

}  // namespace cqlindex::cli
