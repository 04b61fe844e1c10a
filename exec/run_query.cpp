// The run pipeline: load the query (-lex, -parse: print it and stop) -> compile -> plan over the index ->
// replay the candidates in parallel -> output in game order, or sorted -> accounting.
#include "exec/run_query.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "engine/cql/error.h"
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/lexer.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"
#include "engine/cql/similar/submission_files.h"
#include "engine/pgn/reader.h"
#include "engine/text/regex.h"
#include "exec/memory_run.h"
#include "exec/output_file.h"
#include "exec/query_file.h"
#include "exec/repository.h"
#include "exec/repository_indexes.h"
#include "exec/repository_scan.h"
#include "exec/run_steps.h"

namespace cqlindex::exec {
namespace {

// Where a run's stderr lines go: the terminal, or a served run's memory.
std::ostream& diagnostics_of(const RunSettings& opt) { return opt.memory ? *opt.memory->diagnostics : std::cerr; }
// Where a run's stdout lines go: the terminal, or a served run's memory.
std::ostream& messages_of(const RunSettings& opt) { return opt.memory ? *opt.memory->messages : std::cout; }

}  // namespace

std::string run_output_path(const cql::Query& query, const RunSettings& opt) {
  if (!opt.output.empty()) return opt.output;
  if (!query.header.output.empty()) return query.header.output;
  std::filesystem::path q(opt.query_file);
  std::string stem = q.extension() == ".cql" || q.extension() == ".CQL" ? q.stem().string() : q.filename().string();
  return (q.parent_path() / (stem + "-out.pgn")).string();
}

std::optional<cql::eval::Program> compile_run(const cql::Query& query, const RunSettings& opt,
                                              const Repository& repository, const std::string& source,
                                              bool announce, Status* status) {
  std::ostream& diag = diagnostics_of(opt);
  const std::vector<std::string>& files = repository.files();
  cql::eval::EvalOptions eo;
  const cql::Header& h = query.header;
  eo.variations = (opt.variations || h.variations) && !opt.mainline;
  if (opt.matchcount) eo.matchcount = cql::Range{opt.matchcount->first, opt.matchcount->second};
  else if (h.matchcount) eo.matchcount = h.matchcount;
  if (opt.matchstring) eo.matchstring = *opt.matchstring;
  else if (h.matchstring) eo.matchstring = *h.matchstring;
  eo.silent = opt.silent || (h.silent && !opt.quiet);
  eo.quiet = opt.quiet || (h.quiet && !opt.silent);
  eo.noheader = opt.noheader;
  eo.alwayscomment = opt.alwayscomment;
  eo.nouniquecomments = opt.nouniquecomments;
  eo.noremovecomment = opt.noremovecomment;
  eo.nosettag = opt.nosettag;
  eo.result = h.result;
  eo.player = opt.player;
  if (opt.year) eo.year = cql::Range{opt.year->first, opt.year->second};
  std::optional<cql::Range> games;
  if (opt.gamenumber) games = cql::Range{opt.gamenumber->first, opt.gamenumber->second};
  else if (h.gamenumber) games = h.gamenumber;
  eo.sort_matchcount = h.sort_matchcount;
  eo.input_path = files.front();
  eo.more_input_paths.assign(files.begin() + 1, files.end());
  eo.gamenumber = games;
  std::optional<cql::eval::Program> program;
  try {
    program = cql::eval::compile(query, eo);
  } catch (const text::RegexError& e) {
    diag << "cqlindex run: bad -player regular expression '" << opt.player << "': " << e.what() << "\n";
    *status = Status::QueryError;
    return std::nullopt;
  } catch (const cql::CqlError& e) {
    diag << cql::format_error(e, opt.query_file, source);
    *status = e.kind == cql::CqlError::Kind::Input ? Status::InputError : Status::QueryError;
    return std::nullopt;
  }
  // similarposition's submissions, read by compile: CQL's line for each, and their PGN problems
  if (announce)
    for (const auto& f : program->options.submissions->files()) {
      for (const pgn::PgnError& e : f->problems) diag << pgn::format_error(f->path, e) << "\n";
      messages_of(opt) << cql::similar::read_message(f->db) << std::endl;
    }
  return program;
}

std::unique_ptr<OutputFile> open_run_output(const cql::Query& query, const RunSettings& opt,
                                            const Repository& repository, Status* status) {
  std::string err;
  bool out_is_input = false;
  std::vector<std::string> inputs = repository.read_paths();
  inputs.push_back(opt.query_file);
  std::unique_ptr<OutputFile> out_file = OutputFile::open(run_output_path(query, opt), inputs, &err, &out_is_input);
  if (!out_file) {  // -o (or the header's output) naming an input is a usage error
    diagnostics_of(opt) << "cqlindex run: " << err << "\n";
    *status = out_is_input ? Status::QueryError : Status::InputError;
  }
  return out_file;
}

unsigned run_threads(const cql::Query& query, const RunSettings& opt, bool announce) {
  // persistent variables and dictionaries carry state from game to game: one scanner, the games in file order
  if (query.needs_single_thread) {
    if (announce)  // CQL 6.2's own words
      diagnostics_of(opt) << "CQL: running single-threaded because 'persistent', 'writefile', 'readfile' or "
                             "'dictionary' detected\n";
    return 1;
  }
  return opt.threads > 0 ? unsigned(opt.threads) : pgn::resolve_threads(0);
}

Status report_scan_end(const ScanCounts& counts, bool cancelled, const std::optional<cql::CqlError>& run_error,
                       const RunSettings& opt, const std::string& source) {
  std::ostream& diag = diagnostics_of(opt);
  if (counts.narrowed)
    diag << "cqlindex run: the index left " << counts.evaluated_indexed << " of " << counts.games_indexed
         << " games to replay (the others cannot match; 'cqlindex explain' shows the plan)\n";
  if (cancelled) {
    diag << "cqlindex run: stopped: the run was cancelled\n";
    return Status::InputError;
  }
  if (run_error) {
    diag << cql::format_error(*run_error, opt.query_file, source);
    return Status::QueryError;
  }
  return Status::Ok;
}

void emit_sorted(const cql::eval::Program& program, std::vector<ScanResult>& kept, const RepositoryScan::Sink& sink) {
  std::stable_sort(kept.begin(), kept.end(), [&](const ScanResult& a, const ScanResult& b) {
    return cql::eval::sorted_before(program, a.outcome, a.number, b.outcome, b.number);
  });
  for (ScanResult& r : kept)
    if (!sink(r)) break;
}

RunSummary run_summary_of(const ScanCounts& counts, const cql::Query& query, const RunSettings& opt,
                          unsigned threads, const std::string& output, std::vector<std::string> persistent) {
  std::optional<cql::Range> games;
  if (opt.gamenumber) games = cql::Range{opt.gamenumber->first, opt.gamenumber->second};
  else if (query.header.gamenumber) games = query.header.gamenumber;
  const uint64_t seen = counts.seen;
  RunSummary summary;
  summary.matches = counts.matched;
  summary.games_reported = seen + (counts.read_past_range ? 1 : 0);
  summary.threads = threads;
  summary.output = output;
  summary.persistent = std::move(persistent);
  const uint64_t first = uint64_t(std::max<int64_t>(games ? games->min : 1, 1));
  const uint64_t considered = games ? (seen >= first ? seen - first + 1 : 0) : seen;
  const uint64_t ruled_out = considered - std::min(considered, counts.replayed + counts.unreadable_unreplayed);
  summary.games = seen;
  summary.considered = considered;
  summary.unmatched = considered - counts.matched - counts.unreadable - ruled_out;
  summary.ruled_out = ruled_out;
  summary.unreadable = counts.unreadable;
  summary.with_errors = counts.with_errors;
  summary.read_by_tags = counts.read_by_tags;
  return summary;
}

RunSummary evaluate_compiled(PreparedRun& run, const RunSettings& opt, const cql::eval::Program& program) {
  RunSummary summary;
  auto stop = [&](Status status) { return stopped(summary, status); };
  const Repository& repository = *run.repository;
  Status status = Status::Ok;
  // A served run keeps its games in memory: no output file.
  const std::string out_path = opt.memory ? std::string() : run_output_path(run.query, opt);
  std::unique_ptr<OutputFile> out_file;
  if (!opt.memory)
    if (out_file = open_run_output(run.query, opt, repository, &status); !out_file) return stop(status);
  // A matched game to the output file, or to a served run's memory; false: the run stops here (a result cap).
  RepositoryScan::Sink emit = [&](ScanResult& r) {
    if (!opt.memory) {
      out_file->stream() << r.text;
      return true;
    }
    // past a served run's page a match comes unwritten (MemoryRun::games_wanted): its number only
    OutputGame game = r.served ? std::move(*r.served) : OutputGame{};
    game.number = r.number;
    game.pgn = std::move(r.text);
    return opt.memory->on_game(std::move(game));
  };
  // Each file's index, when it has one: only the games it cannot rule out are replayed. Every index is
  // checked before any game is read, so a stale one stops the run before any output. A served run brings its
  // files' indexes, open already.
  RepositoryIndexes indexes;
  if (!opt.no_index && !(opt.memory && !opt.memory->indexes.empty()))
    if (Status s = indexes.check({"run", "", opt.index_dir, "", true}, repository); s != Status::Ok) return stop(s);
  const unsigned threads = run_threads(run.query, opt, true);
  const auto t0 = std::chrono::steady_clock::now();
  RepositoryScan scan(run.query, opt, program, repository, indexes, threads, emit);
  if (Status s = scan.scan(0, repository.files().size(), 0); s != Status::Ok) return stop(s);
  if (Status s = report_scan_end(scan.counts(), scan.cancelled(), scan.run_error(), opt, run.source); s != Status::Ok)
    return stop(s);
  if (!program.sorts.empty()) emit_sorted(program, scan.kept(), emit);
  std::string err;
  if (out_file && !out_file->commit(&err)) {  // no success line: the output is not there
    diagnostics_of(opt) << "cqlindex run: " << err << "\n";
    return stop(Status::InputError);
  }
  summary = run_summary_of(scan.counts(), run.query, opt, threads, out_path, scan.persistent_report());
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return summary;
}

namespace {

// Compiles the prepared query and evaluates it over its repository's files; returns the summary.
RunSummary evaluate_query(PreparedRun& run, const RunSettings& opt) {
  Status status = Status::Ok;
  const std::optional<cql::eval::Program> program =
      compile_run(run.query, opt, *run.repository, run.source, true, &status);
  if (!program) return stopped(RunSummary{}, status);
  return evaluate_compiled(run, opt, *program);
}

// True when no setting of the run outside the query changes which games match or how they are written (the
// planner's similar search answers a lone similarposition only then).
bool plain_output(const RunSettings& opt) {
  return !(opt.gamenumber || opt.matchcount || opt.year || !opt.player.empty() || opt.matchstring || opt.variations ||
           opt.silent || opt.quiet || opt.noheader || opt.alwayscomment);
}

}  // namespace

std::optional<PreparedRun> prepare_run(const RunSettings& opt, RunSummary& summary) {
  auto stop = [&](Status status) -> std::optional<PreparedRun> {
    summary.status = status;
    return std::nullopt;
  };
  std::ostream& diag = diagnostics_of(opt);
  std::ostream& said = messages_of(opt);
  const std::optional<std::string> text =
      opt.memory ? std::optional<std::string>(opt.memory->text) : read_query_file("run", opt.query_file);
  if (!text) return stop(Status::QueryError);
  PreparedRun run;
  run.source = *text;
  const std::string& source = run.source;
  cql::Query& query = run.query;
  try {
    if (opt.lex_only) {
      for (const cql::Token& t : cql::lex(source))
        said << t.line << ":" << t.column << " " << cql::describe(t) << "\n";
      summary.printed_only = true;
      return std::nullopt;
    }
    query = cql::parse_query(source, !opt.preamble.empty());
  } catch (const cql::CqlError& e) {
    diag << cql::format_error(e, opt.query_file, source);
    return stop(Status::QueryError);
  }
  // command-line preamble filters and transforms
  for (const std::string& text : opt.preamble) {
    try {
      cql::NodePtr pre = cql::parse_filters(text, query);
      auto compound = cql::make_node(cql::NodeKind::Compound, query.body->type);
      for (auto& c : pre->kids) compound->add(cql::Role::Arg, std::move(c.node));
      for (auto& c : query.body->kids) compound->add(cql::Role::Arg, std::move(c.node));
      query.body = std::move(compound);
    } catch (const cql::CqlError& e) {
      diag << cql::format_error(e, "command line", text);
      return stop(Status::QueryError);
    }
  }
  try {
    for (auto t = opt.transforms.rbegin(); t != opt.transforms.rend(); ++t) {
      auto tr = cql::make_node(cql::NodeKind::Transform, query.body->type);
      tr->text = *t;
      tr->add(cql::Role::Body, std::move(query.body));
      auto compound = cql::make_node(cql::NodeKind::Compound, tr->type);
      compound->add(cql::Role::Arg, std::move(tr));
      query.body = std::move(compound);
    }
  } catch (const cql::CqlError& e) {  // a query at the depth limit cannot take the transforms around it
    diag << "cqlindex run: " << opt.query_file << ": " << e.what() << "\n";
    return stop(Status::QueryError);
  }
  if (opt.parse_only) {
    said << cql::print_canonical(query);
    summary.printed_only = true;
    return std::nullopt;
  }
  // The input: -i (repeated, or a .cqlrepo list: a repository), else the header's.
  std::vector<std::string> inputs{opt.input.empty() ? query.header.input : opt.input};
  inputs.insert(inputs.end(), opt.more_inputs.begin(), opt.more_inputs.end());
  if (inputs.front().empty()) {
    diag << "cqlindex run: no input: give -i FILE.pgn or 'input' in the cql(...) header\n";
    return stop(Status::QueryError);
  }
  std::string error;
  run.repository = Repository::resolve(inputs, &error);
  const std::optional<Repository>& repository = run.repository;
  if (!repository) {
    diag << "cqlindex run: " << error << "\n";
    return stop(Status::InputError);
  }
  if (repository->files().empty()) {
    diag << "cqlindex run: the repository list '" << inputs.front() << "' names no PGN file\n";
    return stop(Status::InputError);
  }
  for (const std::string& file : repository->files())
    if (!std::filesystem::is_regular_file(file)) {
      diag << "cqlindex run: cannot read input '" << file << "'\n";
      return stop(Status::InputError);
    }
  run.strategy = planner::choose_strategy(query, plain_output(opt));
  // The command line's run parameters, written into the header as if the query said them: the planner reads
  // the header (the evaluator takes the same values either way).
  cql::Header& h = query.header;
  h.variations = (opt.variations || h.variations) && !opt.mainline;
  if (opt.matchcount) h.matchcount = cql::Range{opt.matchcount->first, opt.matchcount->second};
  if (opt.gamenumber) h.gamenumber = cql::Range{opt.gamenumber->first, opt.gamenumber->second};
  return run;
}

RunSummary run_similar_search(const PreparedRun& run, const RunSettings& opt,
                              SimilarSummary (*search)(const SimilarRequest&)) {
  // `-similarposition F` (or a body that is only `similarposition "F"`): the judges' search, which takes its
  // candidates from the index when the repository has one; same output as the evaluator would write.
  const cql::Node& similar = *run.strategy.similar;
  const std::vector<std::string>& files = run.repository->files();
  SimilarRequest request;
  request.command = "run";
  request.submissions = similar.text;
  request.repository = files.front();
  request.more_inputs.assign(files.begin() + 1, files.end());
  request.output = run_output_path(run.query, opt);
  request.sort = !similar.has(cql::Option::NoSort);
  request.notransform = similar.has(cql::Option::NoTransform);
  request.no_index = opt.no_index;
  request.index_dir = opt.index_dir;
  request.threads = opt.threads > 0 ? unsigned(opt.threads) : 0;
  request.warn_common = 100;  // CQL prints no such warning; `cqlindex similar` does
  RunSummary summary;
  summary.similar = search(request);
  summary.status = summary.similar->status;
  return summary;
}

RunSummary run_query(const RunSettings& opt) {
  RunSummary summary;
  std::optional<PreparedRun> run = prepare_run(opt, summary);
  if (!run) return summary;
  if (run->strategy.similar_search()) return run_similar_search(*run, opt);
  return evaluate_query(*run, opt);
}
}  // namespace cqlindex::exec
