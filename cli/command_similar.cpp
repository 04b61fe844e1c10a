// cqlindex similar SUBMISSIONS.pgn -i REPO.pgn [-o OUT.pgn] [--nosort] [--notransform] [--no-index]
//                  [--index DIR] [--threads N] [--ignore-common PERCENT] [--warn-common PERCENT]
//                  [--near K] [--report FILE.html]
//
// What `cql -i REPO.pgn -similarposition [nosort] [notransform] SUBMISSIONS.pgn` does with an empty query,
// byte for byte (engine/cql/similar), but with the candidate games taken from the index: one look-up per
// distinct canonical key of the submissions' positions, then only those games are replayed (read at their
// byte offsets) to place CQL's comments. Without an index the whole repository is scanned in parallel.
//
// stdout: CQL's own lines, "Db: read N games from submission file: F" and "N matches of M games in S seconds
// using T threads to OUT". stderr: PGN problems, how the candidates were found, and the judges' extras:
// submission positions similar to positions of a large share of the repository (warned, or skipped with
// --ignore-common), and per submission game how many repository games it matched and the first of them.
// --near K and --report FILE.html (issue 17) come after all that, from exec/near_run.h: near-anticipations on
// stderr and the judges' HTML report; CQL's output file is the same with them or without.
// Exit 0; 2 when a file or the index cannot be used (a stale index is refused, never used); 1 on usage errors.
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/summary_lines.h"
#include "exec/distributed_launch.h"
#include "exec/quiet_standard_error.h"
#include "exec/similar_query.h"

namespace cqlindex::cli {

namespace po = boost::program_options;
using exec::SimilarRequest;

namespace {

int parse_options(int argc, char** argv, SimilarRequest& o) {
  po::options_description visible(
      "usage: cqlindex similar SUBMISSIONS.pgn -i REPO.pgn [-o OUT.pgn] [--nosort] [--notransform]\n"
      "                        [--no-index | --index DIR] [--threads N] [--ignore-common PERCENT]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::vector<std::string>>(),
                                               "the repository (PGN; repeated, or a .cqlrepo list: several files)")(
      "output,o", po::value<std::string>(), "output file (default: SUBMISSIONS-out.pgn, as CQL names it)")(
      "nosort", "keep the repository's order (default: by least matching submission game)")(
      "notransform", "identical boards only (no reflections, rotations or shifts)")(
      "no-index", "scan the whole repository even when it is indexed")(
      "index", po::value<std::string>(), "index folder (default: REPO.pgn.cqlidx)")(
      "threads", po::value<int>()->default_value(0), "threads (0 = all cores)")(
      "ignore-common", po::value<double>(),
      "skip submission positions similar to positions of more than PERCENT % of the repository's games")(
      "warn-common", po::value<double>()->default_value(exec::kDefaultWarnCommonPercent),
      "warn about submission positions similar to positions of more than PERCENT % of the games")(
      "near", po::value<int>(), "also find positions within K squares of a submission position (K = 1 through the index)")(
      "report", po::value<std::string>(), "write the judges' report (self-contained HTML) to FILE");
  po::variables_map vm;
  if (auto stop = parse_command_line("similar", argc, argv, visible, "file", false, vm))
    return *stop == kExitOk ? -1 : *stop;  // -1: --help was printed
  if (!vm.count("file") || !vm.count("input")) {
    std::cerr << "cqlindex similar: name SUBMISSIONS.pgn and -i REPO.pgn\n" << visible;
    return kExitUsage;
  }
  o.submissions = vm["file"].as<std::string>();
  const auto& inputs = vm["input"].as<std::vector<std::string>>();
  o.repository = inputs.front();
  o.more_inputs.assign(inputs.begin() + 1, inputs.end());
  if (vm.count("output")) {
    o.output = vm["output"].as<std::string>();
  } else {
    std::filesystem::path p(o.submissions);
    o.output = p.stem().string() + "-out.pgn";
  }
  o.sort = !vm.count("nosort");
  o.notransform = vm.count("notransform") > 0;
  o.no_index = vm.count("no-index") > 0;
  if (vm.count("index")) o.index_dir = vm["index"].as<std::string>();
  if (o.no_index && !o.index_dir.empty()) {
    std::cerr << "cqlindex similar: --no-index and --index exclude each other\n";
    return kExitUsage;
  }
  o.threads = unsigned(vm["threads"].as<int>());
  if (vm.count("ignore-common")) o.ignore_common = vm["ignore-common"].as<double>();
  o.warn_common = o.ignore_common ? *o.ignore_common : vm["warn-common"].as<double>();
  if ((o.ignore_common && !(*o.ignore_common >= 0 && *o.ignore_common <= 100)) ||
      !(o.warn_common >= 0 && o.warn_common <= 100)) {
    std::cerr << "cqlindex similar: a PERCENT must be between 0 and 100\n";
    return kExitUsage;
  }
  // -- near-anticipations and the judges' report (issue 17, exec/near_run.h)
  if (vm.count("near")) {
    const int k = vm["near"].as<int>();
    if (k < 0 || k > 32) {
      std::cerr << "cqlindex similar: --near K takes a distance from 0 to 32\n";
      return kExitUsage;
    }
    o.near = unsigned(k);
  }
  if (vm.count("report")) o.report = vm["report"].as<std::string>();
  // -- end of issue 17
  return kExitOk;
}

}  // namespace

int similar_command_with(int argc, char** argv, exec::SimilarSummary (*search)(const exec::SimilarRequest&),
                         bool speaks) {
  SimilarRequest opt;
  int rc;
  {
    std::optional<exec::QuietStandardError> quiet;  // the same words from every rank: rank 0 says them
    if (!speaks) quiet.emplace();
    rc = parse_options(argc, argv, opt);
  }
  if (rc != kExitOk) return rc < 0 ? kExitOk : rc;
  const exec::SimilarSummary summary = search(opt);
  if (speaks && summary.status == exec::Status::Ok) print_similar_summary(summary);
  return exit_code(summary.status);
}

int command_similar(int argc, char** argv) {
  // Under mpirun each process becomes a rank of the distributed search (cqlindex-mpi), except with --near or
  // --report (one repository file, searched whole): rank 0 answers alone, the other ranks leave at once.
  if (exec::launched_ranks() > 1) {
    bool whole = false;
    for (int i = 1; i < argc; ++i) whole = whole || std::string(argv[i]).starts_with("--near") ||
                                           std::string(argv[i]).starts_with("--report");
    if (!whole) return run_distributed_executable(argc, argv);
    if (exec::launched_rank() != 0) return kExitOk;
  }
  return similar_command_with(argc, argv, exec::run_similar, true);
}

}  // namespace cqlindex::cli
