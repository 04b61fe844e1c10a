// cqlindex build REPO.pgn... [--index DIR] [--threads N] [--append] [--yacpdb] [--explore] [--phases]: indexes a PGN repository,
// or a problem file (YAML entries; PGN with --yacpdb) with the YACPDB predicate instances of its entries.
// Several files (or a NAME.cqlrepo list, exec/repository.h) are indexed one after the other, each into its own
// index beside it, every core on each; a file that fails is reported and the others are still built (the exit
// code is the first failure's). --append on several files appends to the last one only: the files before it
// must have fresh indexes (a repository grows at its end).
//
// Prints problems in games as `FILE:LINE:COL: game N: message` on stderr (as check does) and a summary on
// stdout: `REPO.pgn: G games (N new), P positions indexed in S seconds -> DIR (B bytes, b bytes per game)`.
// Exit 0 when the index was written, 2 when the PGN or the index cannot be used, 1 on a usage error. A target
// that is not an index this tool built is never replaced: exit 1 when --index named it (the flag is wrong),
// 2 when it sits at the default place REPO.pgn.cqlidx (the index location cannot be used).
#include <boost/program_options.hpp>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/build_repository.h"
#include "exec/repository.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

namespace {

// Indexes the one PGN `settings.input`; prints its summary line; returns the exit code.
int build_one(const exec::BuildSettings& settings, bool phases) {
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
  if (phases) {
    const char* names[] = {"parse and sort into runs", "merge and write SST files", "ingest and finish"};
    for (size_t i = 0; i < summary.phases.size(); ++i)
      std::cerr << std::setprecision(2) << "phase " << names[i] << ": " << summary.phases[i].wall << " s wall, "
                << summary.phases[i].cpu << " s CPU\n";
  }
  return kExitOk;
}

}  // namespace

int command_build(int argc, char** argv) {
  po::options_description visible("usage: cqlindex build REPO.pgn... [--index DIR] [--threads N] [--append] [--yacpdb] [--explore] [--phases]");
  visible.add_options()("help,h", "this help")("index", po::value<std::string>(),
                                               "index folder (default: REPO.pgn.cqlidx; one file only)")(
      "threads", po::value<int>()->default_value(0), "threads (0 = all cores)")(
      "append", "index only the games appended to REPO.pgn since the last build (several files: the last one)")(
      "yacpdb", "a PGN problem file: also store the YACPDB predicate instances of its entries (YAML files: always)")(
      "explore", "also file the first 12 plies' positions and moves for serve's opening explorer (about 12 % more "
                 "build time)")(
      "phases", "print the wall and CPU seconds of the build's phases on stderr");
  po::variables_map vm;
  if (auto stop = parse_command_line("build", argc, argv, visible, "REPO.pgn", true, vm, true)) return *stop;
  std::string error;
  const auto repository = exec::Repository::resolve(vm["REPO.pgn"].as<std::vector<std::string>>(), &error);
  if (!repository) {
    std::cerr << "cqlindex build: " << error << "\n";
    return kExitInput;
  }
  const std::vector<std::string>& files = repository->files();
  if (files.empty()) {
    std::cerr << "cqlindex build: the repository list names no PGN file\n";
    return kExitInput;
  }
  exec::BuildSettings settings;
  if (vm.count("index")) settings.index_dir = vm["index"].as<std::string>();
  settings.threads = unsigned(vm["threads"].as<int>());
  settings.append = vm.count("append") > 0;
  settings.yacpdb = vm.count("yacpdb") > 0;
  settings.explore = vm.count("explore") > 0;
  const bool phases = vm.count("phases") > 0;
  if (files.size() > 1 && !settings.index_dir.empty()) {
    std::cerr << "cqlindex build: --index names the index of one file; the files of a repository are indexed each "
                 "into its default folder beside it\n";
    return kExitUsage;
  }
  if (settings.append && files.size() > 1) {
    // a repository grows at its end: the files before the last must still be described by their indexes
    if (exec::Status s = exec::check_append_prefix(files); s != exec::Status::Ok) return exit_code(s);
    settings.input = files.back();
    return build_one(settings, phases);
  }
  int first_failure = kExitOk;
  for (const std::string& path : files) {
    settings.input = path;
    const int code = build_one(settings, phases);
    if (first_failure == kExitOk) first_failure = code;
  }
  return first_failure;
}

}  // namespace cqlindex::cli
