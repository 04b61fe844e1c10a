// cqlindex info [REPO.pgn | --index DIR]: prints what an index holds and whether it matches its PGN.
//
// Output (stdout), one `name: value` line each: index, pgn, status, games, positions, keys per family (and the
// estimated distinct positions and the bucket count of the similar family, whose keys are buckets),
// bytes per family, total bytes, bytes per game. Exit 0, or 2 when there is no usable index.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/index_info.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

namespace {

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

}  // namespace

int command_info(int argc, char** argv) {
  po::options_description visible("usage: cqlindex info [REPO.pgn | --index DIR]");
  visible.add_options()("help,h", "this help")("index", po::value<std::string>(), "index folder");
  po::variables_map vm;
  if (auto stop = parse_command_line("info", argc, argv, visible, "REPO.pgn", false, vm)) return *stop;
  if (!vm.count("REPO.pgn") && !vm.count("index")) {
    std::cerr << "cqlindex info: name REPO.pgn or --index DIR\n" << visible;
    return kExitUsage;
  }
  exec::IndexInfoSettings settings;
  if (vm.count("REPO.pgn")) settings.input = vm["REPO.pgn"].as<std::string>();
  if (vm.count("index")) settings.index_dir = vm["index"].as<std::string>();
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
  return kExitOk;
}

}  // namespace cqlindex::cli
