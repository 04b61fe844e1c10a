// cqlindex build REPO.pgn [--index DIR] [--threads N] [--append] [--yacpdb] [--phases]: indexes a PGN repository,
// or a problem file (YAML entries; PGN with --yacpdb) with the YACPDB predicate instances of its entries.
//
// Prints problems in games as `FILE:LINE:COL: game N: message` on stderr (as check does) and a summary on
// stdout: `REPO.pgn: G games (N new), P positions indexed in S seconds -> DIR (B bytes, b bytes per game)`.
// Exit 0 when the index was written, 2 when the PGN or the index cannot be used, 1 on a usage error. A target
// that is not an index this tool built is never replaced: exit 1 when --index named it (the flag is wrong),
// 2 when it sits at the default place REPO.pgn.cqlidx (the index location cannot be used).
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/progress_bar.h"
#include "indexer/index_builder.h"
#include "indexer/index_location.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

namespace {

uint64_t folder_bytes(const std::string& dir) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file(ec)) bytes += entry.file_size(ec);
  return bytes;
}

}  // namespace

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
  const std::string path = vm["REPO.pgn"].as<std::string>();
  indexer::BuildOptions options;
  if (vm.count("index")) options.index_dir = vm["index"].as<std::string>();
  options.threads = unsigned(vm["threads"].as<int>());
  options.append = vm.count("append") > 0;
  options.yacpdb = vm.count("yacpdb") > 0;
  const std::string target = options.index_dir.empty() ? indexer::default_index_dir(path) : options.index_dir;
  if (std::string problem = indexer::index_target_problem(target, path); !problem.empty()) {
    std::cerr << "cqlindex build: " << problem << "\n";
    return options.index_dir.empty() ? kExitInput : kExitUsage;
  }
  exec::ProgressBar bar("indexing " + path);
  options.progress = [&](uint64_t done, uint64_t total) { bar.update(done, total); };
  options.on_problem = [&](const pgn::GameInfo& info) {
    bar.finish();
    for (const pgn::PgnError& e : info.errors) std::cerr << pgn::format_error(path, e) << '\n';
  };
  options.on_problem_text = [&](const std::string& message) {
    bar.finish();
    std::cerr << message << '\n';
  };

  // An index locates games by byte offset in the file for the queries to read them again: a pipe or device
  // cannot be read again (and would be read twice, once to parse and once to fingerprint it).
  std::error_code ec;
  if (const auto status = std::filesystem::status(path, ec); !ec && !std::filesystem::is_regular_file(status)) {
    std::cerr << "cqlindex build: " << path
              << (std::filesystem::is_directory(status) ? " is a folder" : " is not a regular file (a pipe or device)")
              << ": only a file can be indexed (save the games to a file first; 'cqlindex check' reads pipes)\n";
    return kExitInput;
  }

  auto start = std::chrono::steady_clock::now();
  indexer::BuildSummary summary;
  std::string error;
  bool ok = indexer::build_index(path, options, &summary, &error);
  bar.finish();
  if (!ok) {
    std::cerr << "cqlindex build: " << error << "\n";
    return kExitInput;
  }
  if (!summary.note.empty()) std::cerr << "cqlindex build: " << summary.note << "\n";
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t bytes = folder_bytes(summary.index_dir);
  std::cout << path << ": " << summary.games << " games (" << summary.new_games << (summary.appended ? " appended" : " new")
            << ", " << summary.read.errors << " with errors, " << summary.read.skipped << " skipped), "
            << summary.positions << " positions indexed in " << std::fixed << std::setprecision(2) << seconds
            << " seconds -> " << summary.index_dir << " (" << bytes << " bytes, "
            << (summary.games ? bytes / summary.games : 0) << " bytes per game)";
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
