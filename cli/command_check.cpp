// cqlindex check FILE.pgn [--fen] [--threads N]: reads every game, reports problems, prints a summary.
//
// Output:
//   stderr  one line per problem, in file order: `FILE:LINE:COL: game N: message` (warnings and skipped
//           variant games say so after "game N: ").
//   stdout  the summary `FILE: G games, E errors, W warnings, S skipped, P plies`; with --fen, instead, one
//           line per mainline position `GAME<TAB>PLY<TAB>FEN` (PLY 0 = start) and the summary on stderr.
// Exit 0 when the file was read (bad games included), 2 when it cannot be opened or holds no PGN at all.
// On a terminal a progress line shows on stderr (percent, MB/s, ETA); never in a pipe.
#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <string>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/output_file.h"
#include "exec/progress_bar.h"
#include "engine/pgn/reader.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_check(int argc, char** argv) {
  po::options_description visible("usage: cqlindex check FILE.pgn [--fen] [--threads N]   (FILE - reads stdin)");
  visible.add_options()("help,h", "this help")("fen", "print GAME<TAB>PLY<TAB>FEN for every mainline position")(
      "threads", po::value<int>()->default_value(0), "parsing threads (0 = all cores)");
  po::variables_map vm;
  if (auto stop = parse_command_line("check", argc, argv, visible, "FILE.pgn", true, vm)) return *stop;
  const std::string path = vm["FILE.pgn"].as<std::string>();
  const bool fen = vm.count("fen") > 0;

  std::string err;
  auto file = pgn::PgnFile::open(path == "-" ? "/dev/stdin" : path, &err);  // "-": standard input
  if (!file) {
    std::cerr << "cqlindex check: " << err << "\n";
    return kExitInput;
  }

  pgn::ReadOptions options;
  options.threads = unsigned(vm["threads"].as<int>());
  options.parse.mainline_only = false;  // validate variations too
  exec::ProgressBar bar("checking " + path);
  options.progress = [&](uint64_t done) {
    file->release_before(done);  // memory stays independent of the file's size
    bar.update(done, file->text().size());
  };


  bool any_pgn = false;
  std::string out;
  const std::function<std::string(const pgn::Game&, unsigned)> work = [fen](const pgn::Game& g, unsigned) {
    std::string lines;
    if (!fen || !g.start_known) return lines;  // skipped variants, unreadable tags or FEN
    const std::string prefix = std::to_string(g.number) + '\t';
    chess::Position p = g.start;
    unsigned ply = 0;
    lines += prefix + "0\t" + p.fen() + '\n';
    for (pgn::NodeIndex n = g.root().first_child; n != pgn::kNoNode; n = g.nodes[n].first_child) {
      p.do_move(g.nodes[n].move);
      lines += prefix + std::to_string(++ply) + '\t' + p.fen() + '\n';
    }
    return lines;
  };
  const std::function<bool(const pgn::GameInfo&, std::string&&)> deliver = [&](const pgn::GameInfo& info,
                                                                                std::string&& lines) {
    if (info.tags || info.plies || info.has_result) any_pgn = true;
    if (!info.errors.empty()) bar.finish();  // errors start on a clean line
    for (const pgn::PgnError& e : info.errors) std::cerr << pgn::format_error(path, e) << '\n';
    out += lines;
    if (out.size() > (1 << 20)) {
      std::cout << out;
      out.clear();
    }
    return true;
  };
  pgn::ReadStats stats = pgn::for_each_game<std::string>(file->text(), options, work, deliver);
  std::cout << out;
  bar.finish();
  if (auto error = exec::standard_output_error()) {  // e.g. --fen > /dev/full: the positions are not all there
    std::cerr << "cqlindex check: " << *error << "\n";
    return kExitInput;
  }

  if (!file->text().empty() && !any_pgn) {
    std::cerr << "cqlindex check: " << path << ": not a PGN file (no tag, move or result found)\n";
    return kExitInput;
  }
  std::ostream& summary = fen ? std::cerr : std::cout;
  summary << path << ": " << stats.games << " games, " << stats.errors << " errors, " << stats.warnings
          << " warnings, " << stats.skipped << " skipped, " << stats.plies << " plies\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
