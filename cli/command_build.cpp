// cqlindex build REPO.pgn... [-i REPO]... [--index DIR] [--threads N] [--append] [--yacpdb] [--explore] [--phases]:
// indexes a PGN repository, or a problem file (YAML entries; PGN with --yacpdb) with the YACPDB predicate instances
// of its entries; --explore also files serve's opening explorer (store/README.md).
// Several files (named, with -i, or in a NAME.cqlrepo list, exec/repository.h) are indexed each into its own
// index beside it, at once where the cores allow (exec/build_repository.h: a file of more than half the bytes
// with every thread, the others concurrently; --phases builds one at a time); under mpirun each rank builds its
// share of the files. A file that fails is reported and the others are still built (the exit code is the first
// failure's); the summary lines come in list order. --append on several files appends to the last one only: the
// files before it must have fresh indexes (a repository grows at its end).
//
// Prints problems in games as `FILE:LINE:COL: game N: message` on stderr (as check does) and a summary on
// stdout: `REPO.pgn: G games (N new), P positions indexed in S seconds -> DIR (B bytes, b bytes per game)`.
// Exit 0 when the index was written, 2 when the PGN or the index cannot be used, 1 on a usage error. A target
// that is not an index this tool built is never replaced: exit 1 when --index named it (the flag is wrong),
// 2 when it sits at the default place REPO.pgn.cqlidx (the index location cannot be used).
#include <boost/program_options.hpp>
#include <filesystem>
#include <iomanip>
#include <map>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/build_repository.h"
#include "exec/distributed_launch.h"
#include "exec/repository.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

namespace {

// Prints the summary line of the build of `input` (and its phases); returns its exit code.
int say_built(const std::string& input, const exec::BuildRunSummary& summary, bool phases) {
  if (summary.status != exec::Status::Ok) return exit_code(summary.status);
  if (!summary.note.empty()) std::cerr << "cqlindex build: " << summary.note << "\n";
  std::cout << input << ": " << summary.games << " games (" << summary.new_games
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

// Indexes the one PGN `settings.input`; prints its summary line; returns the exit code.
int build_one(const exec::BuildSettings& settings, bool phases) {
  return say_built(settings.input, exec::build_repository(settings), phases);
}

}  // namespace

int command_build(int argc, char** argv) {
  po::options_description visible("usage: cqlindex build REPO.pgn... [--index DIR] [--threads N] [--append] [--yacpdb] [--explore] [--phases]");
  visible.add_options()("help,h", "this help")(
      "input,i", po::value<std::vector<std::string>>(),
      "a PGN file or a .cqlrepo list (as REPO.pgn; repeated)")("index", po::value<std::string>(),
                                               "index folder (default: REPO.pgn.cqlidx; one file only)")(
      "threads", po::value<int>()->default_value(0), "threads (0 = all cores)")(
      "append", "index only the games appended to REPO.pgn since the last build (several files: the last one)")(
      "yacpdb", "a PGN problem file: also store the YACPDB predicate instances of its entries (YAML files: always)")(
      "explore", "also file the first 12 plies' positions and moves for serve's opening explorer (about 12 % more "
                 "build time)")(
      "phases", "print the wall and CPU seconds of the build's phases on stderr");
  po::variables_map vm;
  if (auto stop = parse_command_line("build", argc, argv, visible, "REPO.pgn", false, vm, true)) return *stop;
  const std::vector<std::string> named = named_inputs(vm, "REPO.pgn");
  if (named.empty()) {
    std::cerr << "cqlindex build: missing REPO.pgn\n" << visible;
    return kExitUsage;
  }
  std::string error;
  const auto repository = exec::Repository::resolve(named, &error);
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
  // Under mpirun each rank builds its share of the files (an index is one folder: a file is not cut).
  const int ranks = exec::launched_ranks(), rank = exec::launched_rank();
  if (settings.append && files.size() > 1) {
    if (rank != 0) return kExitOk;  // one file to extend: rank 0's
    // a repository grows at its end: the files before the last must still be described by their indexes
    if (exec::Status s = exec::check_append_prefix(files); s != exec::Status::Ok) return exit_code(s);
    settings.input = files.back();
    return build_one(settings, phases);
  }
  std::vector<size_t> mine;
  if (ranks > 1) {
    std::vector<uint64_t> bytes;
    for (const std::string& f : files) {
      std::error_code ec;
      const uint64_t size = std::filesystem::file_size(f, ec);
      bytes.push_back(ec ? 0 : size);
    }
    mine = exec::build_share(bytes, rank, ranks);
  } else {
    for (size_t k = 0; k < files.size(); ++k) mine.push_back(k);
  }
  if (phases) {  // the phases' CPU seconds are the process's: one build at a time
    int first_failure = kExitOk;
    for (size_t k : mine) {
      settings.input = files[k];
      const int code = build_one(settings, phases);
      if (first_failure == kExitOk) first_failure = code;
    }
    return first_failure;
  }
  // Files built concurrently where the cores allow; their summary lines said in list order all the same.
  std::map<size_t, exec::BuildRunSummary> finished;
  size_t next = 0;  // the next of `mine` to say
  int first_failure = kExitOk;
  exec::build_files(files, mine, settings, [&](size_t k, const exec::BuildRunSummary& summary) {
    finished.emplace(k, summary);
    for (; next < mine.size() && finished.count(mine[next]); ++next) {
      const int code = say_built(files[mine[next]], finished.at(mine[next]), false);
      if (first_failure == kExitOk) first_failure = code;
      finished.erase(mine[next]);
    }
  });
  return first_failure;
}

}  // namespace cqlindex::cli
