// cqlindex build REPO.pgn... [--index DIR] [--threads N] [--append] [--yacpdb] [--phases]: indexes a PGN repository,
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
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/progress_bar.h"
#include "exec/repository.h"
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

// Indexes the one PGN `path` as `options` say; prints its summary line; returns the exit code.
int build_one(const std::string& path, indexer::BuildOptions options, bool phases) {
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
  po::options_description visible("usage: cqlindex build REPO.pgn... [--index DIR] [--threads N] [--append] [--yacpdb] [--phases]");
  visible.add_options()("help,h", "this help")("index", po::value<std::string>(),
                                               "index folder (default: REPO.pgn.cqlidx; one file only)")(
      "threads", po::value<int>()->default_value(0), "threads (0 = all cores)")(
      "append", "index only the games appended to REPO.pgn since the last build (several files: the last one)")(
      "yacpdb", "a PGN problem file: also store the YACPDB predicate instances of its entries (YAML files: always)")(
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
  indexer::BuildOptions options;
  if (vm.count("index")) options.index_dir = vm["index"].as<std::string>();
  options.threads = unsigned(vm["threads"].as<int>());
  options.append = vm.count("append") > 0;
  options.yacpdb = vm.count("yacpdb") > 0;
  if (files.size() > 1 && !options.index_dir.empty()) {
    std::cerr << "cqlindex build: --index names the index of one file; the files of a repository are indexed each "
                 "into its default folder beside it\n";
    return kExitUsage;
  }
  if (options.append && files.size() > 1) {
    // a repository grows at its end: the files before the last must still be described by their indexes
    for (size_t k = 0; k + 1 < files.size(); ++k) {
      auto index = indexer::open_index_for_reading(indexer::default_index_dir(files[k]), &error);
      std::optional<indexer::Freshness> freshness;
      if (index) freshness = indexer::check_freshness(index->meta(), files[k], &error);
      if (!freshness || *freshness != indexer::Freshness::Fresh) {
        std::cerr << "cqlindex build: " << files[k] << ": "
                  << (freshness ? "its index is not up to date" : error)
                  << ": --append extends the last file of a repository only (rebuild this one with 'cqlindex build "
                  << files[k] << "')\n";
        return kExitInput;
      }
    }
    return build_one(files.back(), options, vm.count("phases") > 0);
  }
  int first_failure = kExitOk;
  for (const std::string& path : files) {
    const int code = build_one(path, options, vm.count("phases") > 0);
    if (first_failure == kExitOk) first_failure = code;
  }
  return first_failure;
}

}  // namespace cqlindex::cli
