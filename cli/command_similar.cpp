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
// --near K and --report FILE.html (issue 17) come after all that, from cli/near_run.h: near-anticipations on
// stderr and the judges' HTML report; CQL's output file is the same with them or without.
// Exit 0; 2 when a file or the index cannot be used (a stale index is refused, never used); 1 on usage errors.
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/open_index.h"
#include "cli/near_run.h"
#include "cli/output_file.h"
#include "cli/similar_report.h"
#include "cli/similar_run.h"
#include "cli/similar_search.h"
#include "engine/pgn/reader.h"
#include "indexer/index_location.h"

namespace cqlindex::cli {

namespace po = boost::program_options;
using cql::similar::SubmissionDb;

namespace {

int parse_options(int argc, char** argv, SimilarRequest& o) {
  po::options_description visible(
      "usage: cqlindex similar SUBMISSIONS.pgn -i REPO.pgn [-o OUT.pgn] [--nosort] [--notransform]\n"
      "                        [--no-index | --index DIR] [--threads N] [--ignore-common PERCENT]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::string>(), "the repository (PGN)")(
      "output,o", po::value<std::string>(), "output file (default: SUBMISSIONS-out.pgn, as CQL names it)")(
      "nosort", "keep the repository's order (default: by least matching submission game)")(
      "notransform", "identical boards only (no reflections, rotations or shifts)")(
      "no-index", "scan the whole repository even when it is indexed")(
      "index", po::value<std::string>(), "index folder (default: REPO.pgn.cqlidx)")(
      "threads", po::value<int>()->default_value(0), "threads (0 = all cores)")(
      "ignore-common", po::value<double>(),
      "skip submission positions similar to positions of more than PERCENT % of the repository's games")(
      "warn-common", po::value<double>()->default_value(kDefaultWarnCommonPercent),
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
  o.repository = vm["input"].as<std::string>();
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
  // -- near-anticipations and the judges' report (issue 17, cli/near_run.h)
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

int command_similar(int argc, char** argv) {
  SimilarRequest opt;
  if (int rc = parse_options(argc, argv, opt); rc != kExitOk) return rc < 0 ? kExitOk : rc;
  return run_similar(opt);
}

int run_similar(const SimilarRequest& opt) {
  const auto start = std::chrono::steady_clock::now();
  const unsigned threads = pgn::resolve_threads(opt.threads);
  std::string error;
  auto fail = [&](const std::string& message) {
    std::cerr << "cqlindex " << opt.command << ": " << message << "\n";
    return kExitInput;
  };

  std::error_code ec;
  if (!std::filesystem::is_regular_file(opt.repository, ec)) return fail("cannot read the repository " + opt.repository);
  // The output is opened (as a temporary file) before the work: an output that is an input is refused first.
  bool output_is_input = false;
  auto output = OutputFile::open(opt.output, {opt.repository, opt.submissions}, &error, &output_is_input);
  if (!output) {
    std::cerr << "cqlindex " << opt.command << ": " << error << "\n";
    return output_is_input ? kExitUsage : kExitInput;
  }
  // -- issue 17: the report is opened with the output, before the work (cli/near_run.h)
  std::unique_ptr<OutputFile> report;
  if (!opt.report.empty()) {
    report = OutputFile::open(opt.report, {opt.repository, opt.submissions, opt.output}, &error, &output_is_input);
    if (!report) {
      std::cerr << "cqlindex " << opt.command << ": " << error << "\n";
      return output_is_input ? kExitUsage : kExitInput;
    }
  }
  const bool near_wanted = opt.near.has_value() || report != nullptr;
  NearSubmissions near_subs;
  // -- end of issue 17
  // The index, if there is a usable one; a stale or damaged one is refused.
  std::unique_ptr<store::IndexStore> index;
  if (!opt.no_index) {
    std::string dir;
    if (int rc = open_fresh_index({opt.command, opt.repository, opt.index_dir, "", true}, index, &dir); rc != kExitOk)
      return rc;
    if (!index)
      std::cerr << "cqlindex " << opt.command << ": " << opt.repository << " is not indexed (no " << dir
                << "): scanning every game; 'cqlindex build " << opt.repository << "' makes this fast\n";
  }

  // The submissions (with the canonical key of each position when the index will be asked).
  auto submissions_file = pgn::PgnFile::open(opt.submissions, &error);
  if (!submissions_file) return fail(error);
  SubmissionKeys keys;
  std::vector<pgn::PgnError> problems;
  SubmissionDb::PositionVisitor visit = index ? keys.visitor() : SubmissionDb::PositionVisitor{};
  if (near_wanted) {  // issue 17: the near search keeps the positions whole
    visit = [keys_visit = std::move(visit), near_visit = near_subs.visitor()](
                uint32_t id, const chess::Position& pos, const cql::similar::SubmissionPosition& where) {
      if (keys_visit) keys_visit(id, pos, where);
      near_visit(id, pos, where);
    };
  }
  SubmissionDb db = SubmissionDb::read(submissions_file->text(), opt.submissions,
                                       SubmissionDb::Options{opt.notransform}, &problems, visit);
  for (const pgn::PgnError& e : problems) std::cerr << pgn::format_error(opt.submissions, e) << "\n";
  std::cout << cql::similar::read_message(db) << std::endl;
  if (db.games() == 0) return fail("Db: unable to read any games from file: " + opt.submissions);

  // The matched games (and with an index the candidates) are read by their byte ranges; only a scan maps the
  // whole repository.
  auto repo = pgn::RangeReader::open(opt.repository, &error);
  if (!repo) return fail(error);

  SimilarSearch search;
  if (index) {
    // With notransform a key's posting list only bounds what matches: the replay decides what is common.
    double skip_above = opt.ignore_common && !opt.notransform
                            ? *opt.ignore_common / 100.0 * double(index->meta().game_count)
                            : -1;
    if (!search_with_index(*index, db, keys, *repo, opt.repository, skip_above, threads, search, &error))
      return fail(error);
  } else {
    auto repo_file = pgn::PgnFile::open(opt.repository, &error);
    if (!repo_file) return fail(error);
    search_by_scan(db, *repo_file, opt.repository, threads, search);
  }

  // Judges' extras: submission positions similar to positions of a large share of the repository.
  std::vector<uint32_t> common = common_positions(search, opt.warn_common);
  {
    BufferedStderr err;
    report_common(err, db, submissions_file->text(), search, common, opt.ignore_common.has_value());
  }
  if (opt.ignore_common)
    for (uint32_t id : common) db.exclude(id);
  settle(db, opt.sort, search.matched);

  if (!write_similar_output(output->stream(), db, *repo, search.matched, opt.sort, threads, &error)) return fail(error);
  if (!output->commit(&error)) return fail(error);  // no success line: the output is not there
  {
    BufferedStderr err;
    report_reach(err, db, search.matched);
  }
  if (near_wanted)  // issue 17 (cli/near_run.h)
    if (int rc = run_near(opt, db, near_subs, index.get(), *repo, submissions_file->text(), report.get(), threads);
        rc != kExitOk)
      return rc;

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream line;
  line.precision(3);
  line << search.matched.size() << " matches of " << search.repository_games << " games in " << seconds
       << " seconds using " << threads << (threads == 1 ? " thread" : " threads") << " to " << opt.output;
  std::cout << line.str() << std::endl;
  return kExitOk;
}

}  // namespace cqlindex::cli
