// The similar pipeline: submissions -> candidates (the index's posting lists, else a scan) -> judges' extras
// -> CQL 6.2's output. Run by `cqlindex similar` and by `cqlindex run` when the query is a lone
// similarposition.
#include "exec/similar_query.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include "engine/pgn/reader.h"
#include "exec/near_run.h"
#include "exec/open_index.h"
#include "exec/output_file.h"
#include "exec/similar_report.h"
#include "exec/similar_search.h"

namespace cqlindex::exec {

using cql::similar::SubmissionDb;

SimilarSummary run_similar(const SimilarRequest& opt) {
  const auto start = std::chrono::steady_clock::now();
  SimilarSummary summary;
  // A served search keeps its lines and games in memory (exec/memory_run.h).
  const MemoryRun* memory = opt.memory;
  std::ostream& diag = memory ? *memory->diagnostics : std::cerr;
  std::ostream& said = memory ? *memory->messages : std::cout;
  summary.threads = pgn::resolve_threads(opt.threads);
  summary.output = opt.output;
  const unsigned threads = summary.threads;
  std::string error;
  auto stop = [&](Status status) { return stopped(summary, status); };
  auto fail = [&](const std::string& message) {
    diag << "cqlindex " << opt.command << ": " << message << "\n";
    return stop(Status::InputError);
  };

  std::error_code ec;
  if (!std::filesystem::is_regular_file(opt.repository, ec)) return fail("cannot read the repository " + opt.repository);
  // The output is opened (as a temporary file) before the work: an output that is an input is refused first.
  bool output_is_input = false;
  std::unique_ptr<OutputFile> output;
  if (!memory) {
    output = OutputFile::open(opt.output, {opt.repository, opt.submissions}, &error, &output_is_input);
    if (!output) {
      diag << "cqlindex " << opt.command << ": " << error << "\n";
      return stop(output_is_input ? Status::QueryError : Status::InputError);
    }
  }
  // -- issue 17: the report is opened with the output, before the work (exec/near_run.h)
  std::unique_ptr<OutputFile> report;
  if (!opt.report.empty() && !memory) {
    report = OutputFile::open(opt.report, {opt.repository, opt.submissions, opt.output}, &error, &output_is_input);
    if (!report) {
      diag << "cqlindex " << opt.command << ": " << error << "\n";
      return stop(output_is_input ? Status::QueryError : Status::InputError);
    }
  }
  // the positions are kept whole for it (a served search has neither)
  const bool near_wanted = !memory && (opt.near.has_value() || report != nullptr);
  // -- end of issue 17
  // The index, if there is a usable one; a stale or damaged one is refused.
  std::unique_ptr<store::IndexStore> opened;
  const store::IndexStore* index = memory ? memory->index : nullptr;
  if (!index && !opt.no_index) {
    std::string dir;
    if (Status s = open_fresh_index({opt.command, opt.repository, opt.index_dir, "", true}, opened, &dir);
        s != Status::Ok)
      return stop(s);
    index = opened.get();
    if (!index)
      diag << "cqlindex " << opt.command << ": " << opt.repository << " is not indexed (no " << dir
           << "): scanning every game; 'cqlindex build " << opt.repository << "' makes this fast\n";
  }

  // The submissions (with the canonical key of each position when the index will be asked).
  std::unique_ptr<pgn::PgnFile> submissions_file;
  if (!memory) {
    submissions_file = pgn::PgnFile::open(opt.submissions, &error);
    if (!submissions_file) return fail(error);
  }
  const std::string_view submissions_text = memory ? std::string_view(memory->text) : submissions_file->text();
  SubmissionKeys keys;
  std::vector<pgn::PgnError> problems;
  const SubmissionDb::Options read_options{.notransform = opt.notransform, .keep_positions = near_wanted};
  SubmissionDb db = SubmissionDb::read(submissions_text, opt.submissions, read_options, &problems,
                                       index ? keys.visitor() : SubmissionDb::PositionVisitor{});
  for (const pgn::PgnError& e : problems) diag << pgn::format_error(opt.submissions, e) << "\n";
  said << cql::similar::read_message(db) << std::endl;
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
  if (memory) {
    report_common(diag, db, submissions_text, search, common, opt.ignore_common.has_value());
  } else {
    BufferedStderr err;
    report_common(err, db, submissions_text, search, common, opt.ignore_common.has_value());
  }
  if (opt.ignore_common)
    for (uint32_t id : common) db.exclude(id);
  settle(db, opt.sort, search.matched);

  if (memory) {
    if (!similar_output_games(db, *repo, search.matched, opt.sort, *memory, &error)) return fail(error);
    report_reach(diag, db, search.matched);
  } else {
    if (!write_similar_output(output->stream(), db, *repo, search.matched, opt.sort, threads, &error))
      return fail(error);
    if (!output->commit(&error)) return fail(error);  // no success line: the output is not there
    BufferedStderr err;
    report_reach(err, db, search.matched);
  }
  if (near_wanted)  // issue 17 (exec/near_run.h)
    if (Status s = run_near(opt, db, index, *repo, submissions_text, report.get(), threads);
        s != Status::Ok)
      return stop(s);

  summary.matches = search.matched.size();
  summary.games = search.repository_games;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace cqlindex::exec
