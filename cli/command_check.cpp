// cqlindex check FILE.pgn [--fen] [--threads N]: reads every game, reports problems, prints a summary.
//
// Output:
//   stderr  one line per problem, in file order: `FILE:LINE:COL: game N: message` (warnings and skipped
//           variant games say so after "game N: ").
//   stdout  the summary `FILE: G games, E errors, W warnings, S skipped, P plies`; with --fen, instead, one
//           line per mainline position `GAME<TAB>PLY<TAB>FEN` (PLY 0 = start) and the summary on stderr.
// Exit 0 when the file was read (bad games included), 2 when it cannot be opened or holds no PGN at all.
// On a terminal a progress line shows on stderr (percent, MB/s, ETA); never in a pipe.
#include <boost/program_options.hpp>
#include <iostream>
#include <string>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/check_pgn.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_check(int argc, char** argv) {
  po::options_description visible("usage: cqlindex check FILE.pgn [--fen] [--threads N]   (FILE - reads stdin)");
  visible.add_options()("help,h", "this help")("fen", "print GAME<TAB>PLY<TAB>FEN for every mainline position")(
      "threads", po::value<int>()->default_value(0), "parsing threads (0 = all cores)");
  po::variables_map vm;
  if (auto stop = parse_command_line("check", argc, argv, visible, "FILE.pgn", true, vm)) return *stop;
  exec::CheckSettings settings;
  settings.input = vm["FILE.pgn"].as<std::string>();
  settings.fen = vm.count("fen") > 0;
  settings.threads = unsigned(vm["threads"].as<int>());
  const exec::CheckSummary stats = exec::check_pgn(settings);
  if (stats.status != exec::Status::Ok) return exit_code(stats.status);
  std::ostream& summary = settings.fen ? std::cerr : std::cout;
  summary << settings.input << ": " << stats.games << " games, " << stats.errors << " errors, " << stats.warnings
          << " warnings, " << stats.skipped << " skipped, " << stats.plies << " plies\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
