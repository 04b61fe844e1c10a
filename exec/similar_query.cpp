// The similar pipeline: submissions -> candidates (the index's posting lists, else a scan) -> judges' extras
// -> CQL 6.2's output. Run by `cqlindex similar` and by `cqlindex run` when the query is a lone
// similarposition.
#include "exec/similar_query.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "engine/pgn/reader.h"
#include "exec/near_run.h"
#include "exec/open_index.h"
#include "exec/output_file.h"
#include "exec/repository.h"
#include "exec/repository_indexes.h"
#include "exec/quiet_standard_error.h"
#include "indexer/index_location.h"
#include "exec/similar_report.h"
#include "exec/similar_search.h"

namespace cqlindex::exec {

using cql::similar::SubmissionDb;

namespace {

// One run of the similar pipeline: the request, the streams it speaks on and what each step leaves for the next.
// Each step returns the summary to stop with, or nothing to go on.
class SimilarRun {
 public:
  explicit SimilarRun(const SimilarRequest& request);
  // Returns the summary of the whole pipeline.
  SimilarSummary run();

 private:
  using Stop = std::optional<SimilarSummary>;
  Stop resolve_repository();
  Stop open_outputs();
  Stop check_indexes();
  Stop read_submissions();
  Stop open_readers();
  Stop search();
  Stop write_results();
  // Returns the search's status over this rank's pieces, each through its file's index or by a scan.
  Status search_pieces();
  // Returns a stopped summary, after telling the other ranks of a distributed search when they wait for it.
  SimilarSummary stop(Status status);
  // Returns a stopped summary after saying `message` as an input error.
  SimilarSummary fail(const std::string& message);

  const SimilarRequest& opt;
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  SimilarSummary summary;
  // A served search keeps its lines and games in memory (exec/memory_run.h).
  const MemoryRun* memory;
  // A rank of a distributed search other than 0 says nothing rank 0 says (its own lines go to SimilarShare::lines).
  const SimilarShare* share;
  std::ostream quiet{nullptr};
  std::ostream& diag;
  std::ostream& said;
  std::ostream& own_diag;  // what only this rank can say
  unsigned threads = 1;
  std::string error;
  bool agreed = false;  // a distributed search: every rank knows whether the set-up went well
  std::optional<Repository> repository;
  std::vector<std::string> files;
  std::unique_ptr<OutputFile> output, report;
  bool near_wanted = false;
  const std::vector<const store::IndexStore*>* served_indexes = nullptr;  // a served search's, one per file
  RepositoryIndexes indexes;
  bool any_index = false;
  std::unique_ptr<pgn::PgnFile> submissions_file;
  std::string_view submissions_text;
  SubmissionKeys keys;
  std::optional<SubmissionDb> db;
  std::vector<std::unique_ptr<pgn::RangeReader>> repos;
  std::vector<const pgn::RangeReader*> readers;
  std::vector<SimilarShare::Piece> pieces;
  SimilarSearch found;
  std::unique_ptr<store::IndexStore> opened;  // the file's being searched (a one-file repository's stays open)
  const store::IndexStore* index = nullptr;
};

SimilarRun::SimilarRun(const SimilarRequest& request)
    : opt(request),
      memory(request.memory),
      share(request.share),
      diag(memory ? *memory->diagnostics : share && !share->speaks ? quiet : std::cerr),
      said(memory ? *memory->messages : share && !share->speaks ? quiet : std::cout),
      own_diag(memory ? *memory->diagnostics : share && share->lines ? *share->lines : std::cerr) {
  summary.threads = pgn::resolve_threads(opt.threads);
  summary.output = opt.output;
  threads = summary.threads;
}

SimilarSummary SimilarRun::stop(Status status) {
  if (share && !agreed) share->agree(false);
  return stopped(summary, status);
}

SimilarSummary SimilarRun::fail(const std::string& message) {
  diag << "cqlindex " << opt.command << ": " << message << "\n";
  return stop(Status::InputError);
}

SimilarSummary SimilarRun::run() {
  for (Stop (SimilarRun::*step)() : {&SimilarRun::resolve_repository, &SimilarRun::open_outputs,
                                     &SimilarRun::check_indexes, &SimilarRun::read_submissions,
                                     &SimilarRun::open_readers, &SimilarRun::search, &SimilarRun::write_results})
    if (Stop stopped_with = (this->*step)()) return *std::move(stopped_with);
  summary.matches = found.matched.size();
  summary.games = found.repository_games;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

// The repository: one PGN, or several (repeated -i, a .cqlrepo list) read as their concatenation.
SimilarRun::Stop SimilarRun::resolve_repository() {
  std::vector<std::string> inputs{opt.repository};
  inputs.insert(inputs.end(), opt.more_inputs.begin(), opt.more_inputs.end());
  repository = Repository::resolve(inputs, &error);
  if (!repository) return fail(error);
  files = repository->files();
  if (files.empty()) return fail("the repository list '" + opt.repository + "' names no PGN file");
  std::error_code ec;
  for (const std::string& file : files)
    if (!std::filesystem::is_regular_file(file, ec)) return fail("cannot read the repository " + file);
  return std::nullopt;
}

// The output is opened (as a temporary file) before the work: an output that is an input is refused first.
SimilarRun::Stop SimilarRun::open_outputs() {
  bool output_is_input = false;
  std::vector<std::string> output_inputs = repository->read_paths();
  output_inputs.push_back(opt.submissions);
  if (!memory && (!share || share->speaks)) {
    output = OutputFile::open(opt.output, output_inputs, &error, &output_is_input);
    if (!output) {
      diag << "cqlindex " << opt.command << ": " << error << "\n";
      return stop(output_is_input ? Status::QueryError : Status::InputError);
    }
  }
  // -- issue 17: the report is opened with the output, before the work (exec/near_run.h)
  if (!opt.report.empty() && !memory) {
    if (!opt.output.empty() && same_file(opt.report, opt.output)) {  // one would replace the other
      diag << "cqlindex " << opt.command << ": the report " << opt.report << " is the output " << opt.output
           << ": name two files\n";
      return stop(Status::QueryError);
    }
    output_inputs.push_back(opt.output);
    report = OutputFile::open(opt.report, output_inputs, &error, &output_is_input);
    if (!report) {
      diag << "cqlindex " << opt.command << ": " << error << "\n";
      return stop(output_is_input ? Status::QueryError : Status::InputError);
    }
  }
  // the positions are kept whole for it (a served search has no report)
  near_wanted = opt.near.has_value() || report != nullptr;
  if (near_wanted && !repository->single()) {
    diag << "cqlindex " << opt.command << ": --near and --report search one repository file, not "
              << files.size() << "\n";
    return stop(Status::QueryError);
  }
  // -- end of issue 17
  return std::nullopt;
}

// Each file's index, if it has a usable one; a stale or damaged one is refused.
// A served search brings its files' indexes, open already.
SimilarRun::Stop SimilarRun::check_indexes() {
  served_indexes = memory && !opt.no_index && !memory->indexes.empty() ? &memory->indexes : nullptr;
  any_index = served_indexes != nullptr;
  if (opt.no_index || served_indexes) return std::nullopt;
  Status checked;
  {
    std::optional<QuietStandardError> quiet_checks;  // rank 0 says what it finds
    if (share && !share->speaks) quiet_checks.emplace();
    checked = indexes.check({opt.command, "", opt.index_dir, "", true}, *repository);
  }
  if (checked != Status::Ok) return stop(checked);
  for (size_t k = 0; k < files.size(); ++k) any_index = any_index || indexes.indexed(k);
  if (repository->single() && !any_index)
    diag << "cqlindex " << opt.command << ": " << opt.repository << " is not indexed (no "
              << (opt.index_dir.empty() ? indexer::default_index_dir(files.front()) : opt.index_dir)
              << "): scanning every game; 'cqlindex build " << opt.repository << "' makes this fast\n";
  if (!repository->single() && !any_index)
    diag << "cqlindex " << opt.command << ": the repository's files are not indexed: scanning every game; "
              << "'cqlindex build' of each file makes this fast\n";
  return std::nullopt;
}

// The submissions (with the canonical key of each position when an index will be asked).
SimilarRun::Stop SimilarRun::read_submissions() {
  if (!memory) {
    submissions_file = pgn::PgnFile::open(opt.submissions, &error);
    if (!submissions_file) return fail(error);
  }
  submissions_text = memory ? std::string_view(memory->text) : submissions_file->text();
  std::vector<pgn::PgnError> problems;
  const SubmissionDb::Options read_options{.notransform = opt.notransform, .keep_positions = near_wanted};
  db.emplace(SubmissionDb::read(submissions_text, opt.submissions, read_options, &problems,
                                any_index ? keys.visitor() : SubmissionDb::PositionVisitor{}));
  for (const pgn::PgnError& e : problems) {
    diag << pgn::format_error(opt.submissions, e) << "\n";
    if (memory) summary.warnings.push_back(pgn::format_error(opt.submissions, e));
  }
  if (opt.whole_submissions)
    for (const pgn::PgnError& e : problems)
      if (e.severity != pgn::Severity::Warning) {  // the game was cut at `e`, or not read
        summary.submission_error = e;
        return stop(Status::InputError);
      }
  said << cql::similar::read_message(*db) << std::endl;
  summary.submissions = db->games();
  if (db->games() == 0) return fail("Db: unable to read any games from file: " + opt.submissions);
  if (share) {  // every rank set up: go on together, or rank 0 has said why not
    agreed = true;
    if (!share->agree(true)) return summary;
  }
  return std::nullopt;
}

// The matched games (and with an index the candidates) are read by their byte ranges; only a scan maps the
// whole file. The pieces searched: every file whole, or a rank's share (whole files, or parts of files cut
// between ranks).
SimilarRun::Stop SimilarRun::open_readers() {
  for (const std::string& file : files) {
    repos.push_back(pgn::RangeReader::open(file, &error));
    if (!repos.back()) return fail(error);
    readers.push_back(repos.back().get());
  }
  if (share) {
    auto mine = share->pieces(files, indexes, !opt.no_index);
    if (!mine) return share->speaks ? stopped(summary, Status::InputError) : summary;
    pieces = std::move(*mine);
  } else {
    for (uint32_t k = 0; k < files.size(); ++k) pieces.push_back(SimilarShare::Piece{k, FilePart{}, 0});
  }
  return std::nullopt;
}

// The files are searched in order, their games numbered on from file to file.
Status SimilarRun::search_pieces() {
  index = nullptr;
  for (const SimilarShare::Piece& piece : pieces) {
    const uint32_t k = piece.file;
    if (share) found.repository_games = piece.offset;  // the numbers of a rank's pieces: its file's
    if (served_indexes) {
      index = served_indexes->at(k);
    } else {
      if (Status s = indexes.open(k, opened); s != Status::Ok) return s;
      index = opened.get();
    }
    const RepositoryFile where{k, piece.part};
    if (index) {
      // With notransform a key's posting list only bounds what matches: the replay decides what is common. Over
      // several files the share is of the whole repository, which no one file's lists tell: the replay's hits
      // decide (the same positions: with transforms a key's list is exactly the games its positions match).
      double skip_above = opt.ignore_common && !opt.notransform && repository->single()
                              ? *opt.ignore_common / 100.0 * double(index->meta().game_count)
                              : -1;
      if (!search_with_index(*index, *db, keys, *repos[k], files[k], skip_above, threads, found, &error, where,
                             memory, share ? share->lines : nullptr)) {
        own_diag << "cqlindex " << opt.command << ": " << error << "\n";
        return Status::InputError;
      }
    } else {
      auto repo_file = pgn::PgnFile::open(files[k], &error);
      if (!repo_file) {
        own_diag << "cqlindex " << opt.command << ": " << error << "\n";
        return Status::InputError;
      }
      search_by_scan(*db, *repo_file, files[k], threads, found, where, share ? share->lines : nullptr);
      if (repo_file->shrunk()) {  // its lost pages read as zeros (a server's: pgn::PgnFile::survive_shrinking)
        own_diag << "cqlindex " << opt.command << ": " << files[k]
                 << " changed while it was read (it is now shorter than when it was opened): run again once "
                    "nothing writes to it\n";
        return Status::InputError;
      }
    }
  }
  return Status::Ok;
}

// This rank's pieces searched; rank 0 gathers every rank's games, the others are done.
SimilarRun::Stop SimilarRun::search() {
  Status searched = search_pieces();
  if (share) {
    const std::optional<Status> all = share->merge(found, searched);
    if (!all) return summary;
    searched = *all;
  }
  if (searched != Status::Ok) return stopped(summary, searched);
  return std::nullopt;
}

// Judges' extras (submission positions similar to positions of a large share of the repository), CQL 6.2's
// output, then the near positions and the report (issue 17).
SimilarRun::Stop SimilarRun::write_results() {
  std::vector<uint32_t> common = common_positions(found, opt.warn_common);
  if (memory) {
    std::ostringstream flagged;
    report_common(flagged, *db, submissions_text, found, common, opt.ignore_common.has_value());
    diag << flagged.str();
    std::istringstream lines(flagged.str());
    for (std::string line; std::getline(lines, line);) summary.warnings.push_back(line);
  } else {
    BufferedStderr err;
    report_common(err, *db, submissions_text, found, common, opt.ignore_common.has_value());
  }
  if (opt.ignore_common)
    for (uint32_t id : common) db->exclude(id);
  settle(*db, opt.sort, found.matched);

  if (memory) {
    if (!similar_output_games(*db, readers, found.matched, opt.sort, *memory, &error)) return fail(error);
    report_reach(diag, *db, found.matched);
  } else {
    if (!write_similar_output(output->stream(), *db, readers, found.matched, opt.sort, threads, &error))
      return fail(error);
    if (!output->commit(&error)) return fail(error);  // no success line: the output is not there
    BufferedStderr err;
    report_reach(err, *db, found.matched);
  }
  if (near_wanted) {  // issue 17 (exec/near_run.h)
    NearSummary counted;
    if (Status s = run_near(opt, *db, index, *repos.front(), submissions_text, report.get(), threads, counted);
        s != Status::Ok)
      return stop(s);
    if (opt.near) summary.near = std::move(counted);
  }
  return std::nullopt;
}

}  // namespace

SimilarSummary run_similar(const SimilarRequest& opt) { return SimilarRun(opt).run(); }

}  // namespace cqlindex::exec
