// cqlindex info [REPO.pgn... | NAME.cqlrepo | --index DIR]: prints what an index holds and whether it matches its PGN.
//
// Output (stdout), one `name: value` line each: index, pgn, status, games, positions, keys per family (and the
// estimated distinct positions and the bucket count of the similar family, whose keys are buckets),
// bytes per family, total bytes, bytes per game. A repository of several files (exec/repository.h): each
// file's block, a blank line between, then `repository: K files, G games, B bytes (b bytes per game)` and the
// global game numbers of each file (`file N: games FIRST-LAST PATH`). Exit 0, or 2 when there is no usable
// index (for a repository: when any file has none, after the blocks of the others).
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/index_info.h"
#include "exec/repository.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

namespace {

struct InfoTotals {
  uint64_t games = 0, bytes = 0;
};

// Returns the `status:` line's words for the PGN's state.
std::string pgn_status(const exec::IndexInfoSummary& info) {
  switch (info.pgn_state) {
    case exec::PgnState::Fresh: return "up to date";
    case exec::PgnState::Appended: return "games appended since the build (run build --append)";
    case exec::PgnState::Stale: return "stale (the PGN changed; rebuild)";
    case exec::PgnState::Unreadable: break;
  }
  return "PGN unreadable: " + info.pgn_error;
}

// Prints the block of the index in `dir` (empty: the folder beside `named_pgn`) of `named_pgn` (empty: the PGN
// its meta names) and adds its games and
// bytes to `totals`; returns the exit code.
int print_index_info(const std::string& dir, const std::string& named_pgn, InfoTotals& totals) {
  exec::IndexInfoSettings settings;
  settings.input = named_pgn;
  settings.index_dir = dir;
  const exec::IndexInfoSummary info = exec::index_info(settings);
  if (info.status != exec::Status::Ok) return exit_code(info.status);
  std::cout << "index: " << info.index_dir << "\n"
            << "pgn: " << info.pgn_path << " (" << info.pgn_size << " bytes)\n"
            << "status: " << pgn_status(info) << "\n"
            << "schema version: " << info.schema_version << "\n"
            << "games: " << info.games << "\n"
            << "positions: " << info.positions << "\n";
  for (const exec::FamilyInfo& family : info.families) {
    std::cout << "family " << family.name << ": " << family.keys << " keys, ";
    if (family.bucketed)
      std::cout << "about " << family.distinct_positions << " distinct positions in " << family.buckets << " buckets, ";
    std::cout << family.bytes << " bytes\n";
  }
  std::cout << "bytes: " << info.folder_bytes << " (" << info.table_bytes << " in tables)\n"
            << "bytes per game: " << (info.games ? info.folder_bytes / info.games : 0) << "\n";
  totals.games += info.games;
  totals.bytes += info.folder_bytes;
  return kExitOk;
}

}  // namespace

int command_info(int argc, char** argv) {
  po::options_description visible("usage: cqlindex info [REPO.pgn... | NAME.cqlrepo | -i REPO... | --index DIR]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::vector<std::string>>(),
                                               "a PGN file or a .cqlrepo list (as REPO.pgn; repeated)")(
      "index", po::value<std::string>(), "index folder");
  po::variables_map vm;
  if (auto stop = parse_command_line("info", argc, argv, visible, "REPO.pgn", false, vm, true)) return *stop;
  const std::vector<std::string> named = named_inputs(vm, "REPO.pgn");
  if (named.empty() && !vm.count("index")) {
    std::cerr << "cqlindex info: name REPO.pgn or --index DIR\n" << visible;
    return kExitUsage;
  }
  InfoTotals totals;
  if (named.empty()) return print_index_info(vm["index"].as<std::string>(), "", totals);
  std::string error;
  const auto repository = exec::Repository::resolve(named, &error);
  if (!repository) {
    std::cerr << "cqlindex info: " << error << "\n";
    return kExitInput;
  }
  const std::vector<std::string>& files = repository->files();
  if (files.size() == 1) {
    const std::string dir = vm.count("index") ? vm["index"].as<std::string>() : "";  // "": the folder beside it
    return print_index_info(dir, files[0], totals);
  }
  if (files.empty() || vm.count("index")) {
    std::cerr << "cqlindex info: " << (files.empty() ? "the repository list names no PGN file"
                                                     : "--index names the index of one file, not of a repository")
              << "\n";
    return files.empty() ? kExitInput : kExitUsage;
  }
  int first_failure = kExitOk;
  std::vector<std::pair<uint64_t, uint64_t>> numbers;  // each file's first and last game numbers
  for (size_t k = 0; k < files.size(); ++k) {
    if (k) std::cout << "\n";
    const uint64_t before = totals.games;
    const int code = print_index_info("", files[k], totals);
    if (first_failure == kExitOk) first_failure = code;
    numbers.emplace_back(before + 1, totals.games);
  }
  if (first_failure != kExitOk) return first_failure;  // the game numbers need every file's count
  std::cout << "\nrepository: " << files.size() << " files, " << totals.games << " games, " << totals.bytes
            << " bytes (" << (totals.games ? totals.bytes / totals.games : 0) << " bytes per game)\n";
  for (size_t k = 0; k < files.size(); ++k)
    std::cout << "file " << k + 1 << ": games " << numbers[k].first << "-" << numbers[k].second << " " << files[k]
              << "\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
