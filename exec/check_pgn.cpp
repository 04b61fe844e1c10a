// `cqlindex check`: a parallel read of the whole file, problems and positions delivered in file order.
#include "exec/check_pgn.h"

#include <functional>
#include <iostream>
#include <string>

#include "engine/pgn/reader.h"
#include "exec/output_file.h"
#include "exec/progress_bar.h"

namespace cqlindex::exec {

CheckSummary check_pgn(const CheckSettings& settings) {
  CheckSummary summary;
  const std::string& path = settings.input;
  const bool fen = settings.fen;
  std::string err;
  auto file = pgn::PgnFile::open(path == "-" ? "/dev/stdin" : path, &err);  // "-": standard input
  if (!file) {
    std::cerr << "cqlindex check: " << err << "\n";
    return stopped(summary, Status::InputError);
  }

  pgn::ReadOptions options;
  options.threads = settings.threads;
  options.parse.mainline_only = false;  // validate variations too
  ProgressBar bar("checking " + path);
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
  const pgn::ReadStats stats = pgn::for_each_game<std::string>(file->text(), options, work, deliver);
  std::cout << out;
  bar.finish();
  if (auto error = standard_output_error()) {  // e.g. --fen > /dev/full: the positions are not all there
    std::cerr << "cqlindex check: " << *error << "\n";
    return stopped(summary, Status::InputError);
  }
  if (!file->text().empty() && !any_pgn) {
    std::cerr << "cqlindex check: " << path << ": not a PGN file (no tag, move or result found)\n";
    return stopped(summary, Status::InputError);
  }
  summary.games = stats.games;
  summary.errors = stats.errors;
  summary.warnings = stats.warnings;
  summary.skipped = stats.skipped;
  summary.plies = stats.plies;
  return summary;
}

}  // namespace cqlindex::exec
