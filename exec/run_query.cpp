// The run pipeline: load the query (-lex, -parse: print it and stop) -> compile -> plan over the index ->
// replay the candidates in parallel -> output in game order, or sorted -> accounting.
#include "exec/run_query.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>

#include "engine/cql/error.h"
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/lexer.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"
#include "engine/cql/similar/submission_files.h"
#include "engine/pgn/range_reader.h"
#include "engine/pgn/reader.h"
#include "exec/memory_run.h"
#include "exec/open_index.h"
#include "exec/output_file.h"
#include "exec/query_file.h"
#include "exec/repository.h"
#include "exec/repository_indexes.h"
#include "exec/worker_pool.h"
#include "indexer/index_builder.h"
#include "indexer/index_location.h"
#include "planner/plan.h"
#include "store/index_store.h"
#include "store/keys/flag_key.h"

namespace cqlindex::exec {
namespace {

// Where a run's stderr lines go: the terminal, or a served run's memory.
std::ostream& diagnostics_of(const RunSettings& opt) { return opt.memory ? *opt.memory->diagnostics : std::cerr; }
// Where a run's stdout lines go: the terminal, or a served run's memory.
std::ostream& messages_of(const RunSettings& opt) { return opt.memory ? *opt.memory->messages : std::cout; }

// The output file: -o, else the header's `output`, else `<query stem>-out.pgn` next to the query.
std::string output_path(const cql::Query& query, const RunSettings& opt) {
  if (!opt.output.empty()) return opt.output;
  if (!query.header.output.empty()) return query.header.output;
  std::filesystem::path q(opt.query_file);
  std::string stem = q.extension() == ".cql" || q.extension() == ".CQL" ? q.stem().string() : q.filename().string();
  return (q.parent_path() / (stem + "-out.pgn")).string();
}

struct ScanResult {
  bool in_range = true;   // inside the -gamenumber range
  bool matched = false;
  bool unreadable = false;
  std::string text;       // the game as written to the output
  cql::eval::GameOutcome outcome;  // sort values (queries with sort)
  uint64_t number = 0;
  std::vector<std::string> messages;  // `message` lines, printed in game order
  std::optional<cql::CqlError> error;  // CQL stops the run here (a literal matched as a position, ...)
  bool messages_only = false;  // ruled out by the index, read only to report its PGN errors
  std::optional<OutputGame> served;  // a served run: the game's tags and the query's comments by ply
};


// Replays the games at `spans`, read by their byte ranges from `ranges` (else cut from `text`): parsed and
// handed to work(game, worker) on the worker pool, then deliver(info, result) in the order of `spans` (it stops
// the replay by returning false). False (with `error`) when a game cannot be read, after delivering those before.
template <class R>
bool replay_spans(const pgn::RangeReader* ranges, std::string_view text, const std::vector<pgn::GameSpan>& spans,
                  unsigned threads, size_t batch, const std::function<R(const pgn::Game&, unsigned)>& work,
                  const std::function<bool(const pgn::GameInfo&, R&&)>& deliver, std::string* error) {
  struct Replayed {
    pgn::GameInfo info;
    R result;
  };
  threads = std::max(1u, threads);
  std::vector<pgn::Game> games(threads);  // one per worker, reused from game to game
  std::vector<std::string> buffers(threads), read_errors(spans.size());
  size_t failed = 0;
  const bool ok = for_each_in_order<Replayed>(
      spans.size(), threads, batch,
      [&](size_t i, unsigned worker) -> std::optional<Replayed> {
        const pgn::GameSpan& s = spans[i];
        std::string_view bytes;
        if (ranges) {
          if (!ranges->read(s.offset, s.length, buffers[worker], &read_errors[i])) return std::nullopt;
          bytes = buffers[worker];
        } else {
          bytes = text.substr(s.offset, s.length);
        }
        pgn::Game& game = games[worker];
        pgn::parse_game(bytes, pgn::GameLocation{s.number, s.offset, s.first_line, s.first_col}, game);
        return Replayed{pgn::info_of(game), work(game, worker)};
      },
      [&](size_t, Replayed&& r) { return deliver(r.info, std::move(r.result)); }, &failed);
  if (!ok && error) *error = read_errors[failed];
  return ok;
}

// Evaluates `query` over the files of `repository` in order, their games numbered on from file to file (each
// file's candidates from its index when it has a fresh one); returns the summary. `query`'s header gamenumber
// is shifted to each file's own numbers while that file is planned, and restored.
RunSummary evaluate_query(cql::Query& query, const RunSettings& opt, const Repository& repository,
                          const std::string& source) {
  RunSummary summary;
  std::ostream& diag = diagnostics_of(opt);
  std::ostream& said = messages_of(opt);
  auto stop = [&](Status status) { return stopped(summary, status); };
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
  cql::eval::Program program;
  try {
    program = cql::eval::compile(query, eo);
  } catch (const std::regex_error& e) {
    diag << "cqlindex run: bad -player regular expression '" << opt.player << "': " << e.what() << "\n";
    return stop(Status::QueryError);
  } catch (const cql::CqlError& e) {
    diag << cql::format_error(e, opt.query_file, source);
    return stop(e.kind == cql::CqlError::Kind::Input ? Status::InputError : Status::QueryError);
  }
  // similarposition's submissions, read by compile: CQL's line for each, and their PGN problems
  for (const auto& f : program.options.submissions->files()) {
    for (const pgn::PgnError& e : f->problems) diag << pgn::format_error(f->path, e) << "\n";
    said << cql::similar::read_message(f->db) << std::endl;
  }
  std::string err;
  // A served run keeps its games in memory: no output file.
  const std::string out_path = opt.memory ? std::string() : output_path(query, opt);
  std::unique_ptr<OutputFile> out_file;
  if (!opt.memory) {
    bool out_is_input = false;
    std::vector<std::string> inputs = files;
    inputs.push_back(opt.query_file);
    out_file = OutputFile::open(out_path, inputs, &err, &out_is_input);
    if (!out_file) {  // -o (or the header's output) naming an input is a usage error
      diag << "cqlindex run: " << err << "\n";
      return stop(out_is_input ? Status::QueryError : Status::InputError);
    }
  }
  // A matched game to the output file, or to a served run's memory; false: the run stops here (a result cap).
  auto emit = [&](ScanResult& r) {
    if (!opt.memory) {
      out_file->stream() << r.text;
      return true;
    }
    OutputGame game = std::move(*r.served);
    game.pgn = std::move(r.text);
    return opt.memory->on_game(std::move(game));
  };
  // Each file's index, when it has one: only the games it cannot rule out are replayed. Every index is
  // checked before any game is read, so a stale one stops the run before any output. A served run (one file)
  // brings its index, open already.
  const store::IndexStore* served_index = opt.memory ? opt.memory->index : nullptr;
  RepositoryIndexes indexes;
  if (!opt.no_index && !served_index)
    if (Status s = indexes.check({"run", "", opt.index_dir, "", true}, repository); s != Status::Ok) return stop(s);
  unsigned threads = opt.threads > 0 ? unsigned(opt.threads) : pgn::resolve_threads(0);
  // persistent variables and dictionaries carry state from game to game: one scanner, the games in file order
  if (query.needs_single_thread) {
    threads = 1;
    diag << "cqlindex run: running single-threaded because 'persistent', 'writefile', 'readfile' or 'dictionary' "
                 "detected\n";
  }
  const auto t0 = std::chrono::steady_clock::now();

  std::vector<std::unique_ptr<cql::eval::GameScanner>> scanners;
  for (unsigned i = 0; i < std::max(1u, threads); ++i)
    scanners.push_back(std::make_unique<cql::eval::GameScanner>(program));
  uint64_t seen = 0, matched = 0, unreadable = 0, with_errors = 0, replayed = 0, messages_only = 0,
           unreadable_unreplayed = 0;
  // CQL 6.2 reads the game after a gamenumber range before it stops, and counts it in "of M games"
  bool read_past_range = false;
  bool finished = false;  // past the gamenumber range, or stopped by a query error: no later file is read
  const bool sorted = !program.sorts.empty();
  std::vector<ScanResult> kept;
  std::optional<cql::CqlError> run_error;
  // The file being read: its path (for its PGN messages), the games of the files before it (its game k is
  // the repository's game offset + k), its candidates (local ids) when its index narrowed the query.
  std::string input;
  uint64_t offset = 0;
  std::optional<planner::CandidateSet> candidates;
  bool cancelled = false;  // a served run's caller stopped it
  std::function<ScanResult(const pgn::Game&, unsigned)> work = [&](const pgn::Game& g, unsigned worker) {
    ScanResult r;
    if (opt.memory && opt.memory->cancelled()) {  // not evaluated: the delivery stops before it
      r.in_range = false;
      return r;
    }
    if (games && (int64_t(g.number) < games->min || int64_t(g.number) > games->max)) {
      r.in_range = false;
      return r;
    }
    if (candidates && !candidates->contains(uint32_t(g.number - offset - 1))) {  // read for its PGN messages only
      r.in_range = false;
      r.messages_only = true;
      r.unreadable = !g.start_known;  // counted as a scan counts it
      return r;
    }
    r.unreadable = !g.start_known;
    cql::eval::GameOutcome o;
    try {
      o = scanners[worker]->scan(g);
    } catch (const cql::CqlError& e) {
      r.error = e;
      return r;
    }
    r.messages = std::move(o.messages);
    if (o.matched) {
      r.matched = true;
      if (o.set_tags.empty()) {
        pgn::write_game(g, o.comments, {}, r.text);
        if (opt.memory) r.served = output_game_of(g, o.comments);
      } else {  // settag: the game is written with the tags the query set
        pgn::Game tagged = g.copy_viewing();
        cql::eval::apply_set_tags(o, tagged);
        pgn::write_game(tagged, o.comments, {}, r.text);
        if (opt.memory) r.served = output_game_of(tagged, o.comments);
      }
      r.number = g.number;
      r.outcome.sort_values = std::move(o.sort_values);
    }
    return r;
  };
  std::function<bool(const pgn::GameInfo&, ScanResult&&)> deliver = [&](const pgn::GameInfo& info, ScanResult&& r) {
    if (opt.memory && opt.memory->cancelled()) {
      cancelled = true;
      finished = true;
      return false;
    }
    if (games && int64_t(info.number) > games->max) {
      read_past_range = int64_t(info.number) == games->max + 1;
      finished = true;
      return false;
    }
    ++seen;
    if (r.messages_only) {
      ++messages_only;
      if (r.unreadable) ++unreadable, ++unreadable_unreplayed;
    }
    for (const pgn::PgnError& e : info.errors) diag << pgn::format_error(input, e) << '\n';
    if (!info.errors.empty())
      for (const pgn::PgnError& e : info.errors)
        if (e.severity == pgn::Severity::Error) { ++with_errors; break; }
    if (!r.in_range) return true;
    if (r.error) {  // the first game in file order where the run stops, as single-threaded CQL
      run_error = std::move(r.error);
      finished = true;
      return false;
    }
    for (const std::string& m : r.messages) said << m << '\n';
    ++replayed;
    if (r.unreadable && !r.matched) ++unreadable;
    if (r.matched) {
      ++matched;
      // with sort the output order is known only at the end (the games are kept); else streamed in game order
      if (sorted) kept.push_back(std::move(r));
      else if (!emit(r)) {
        finished = true;
        return false;
      }
    }
    return true;
  };
  bool narrowed = false, said_cannot_narrow = false;
  uint64_t evaluated_indexed = 0, games_indexed = 0;  // over the files whose index narrowed the query
  for (size_t k = 0; k < files.size() && !finished; ++k) {
    input = files[k];
    std::unique_ptr<store::IndexStore> opened;  // this file's, closed when the next file's turn comes
    if (!served_index)
      if (Status s = indexes.open(k, opened); s != Status::Ok) return stop(s);
    const store::IndexStore* index = served_index && !opt.no_index ? served_index : opened.get();
    candidates.reset();
    planner::PlanReport plan;
    // a query that can stop with an error where it is evaluated replays every game, as CQL would reach it
    if (index && !program.may_fail) {
      // the planner reads the header's gamenumber range in this file's own numbers
      const std::optional<cql::Range> whole_range = query.header.gamenumber;
      if (whole_range)
        query.header.gamenumber = cql::Range{whole_range->min - int64_t(offset), whole_range->max - int64_t(offset)};
      candidates = planner::plan_candidates(query, *index, &plan, program.options.submissions.get());
      query.header.gamenumber = whole_range;
    }
    if (index && !plan.error.empty()) {  // a damaged block: stop rather than answer from part of the index
      diag << "cqlindex run: " << plan.error << " ('cqlindex verify " << input
                << "' names every damaged file; rebuild the index, or use --no-index)\n";
      return stop(Status::InputError);
    }
    // The games an indexed run reads: its candidates, and the games with PGN errors or warnings for their
    // messages only, so that a run reports the same errors and counts whether the index rules games out or not.
    Roaring to_read;
    if (candidates) {
      to_read = *candidates;
      if (index->meta().build_options.find(indexer::kPgnProblemMarker) != std::string::npos) {
        auto problems =
            index->postings(store::Family::Flags, store::keys::game_flag_key(store::keys::GameFlag::PgnProblem), &err);
        if (!problems) {
          diag << "cqlindex run: " << err << "\n";
          return stop(Status::InputError);
        }
        to_read |= problems->bits();
      } else {
        diag << "cqlindex run: the index predates the record of PGN errors: the errors of the games it rules "
                     "out are not reported (rebuild it with 'cqlindex build " << input << "')\n";
      }
    }
    // A file read by candidates is read by byte ranges (pread), so its memory follows its candidates, not the
    // file; one scanned whole is mapped, its pages handed back as the scan goes (a pipe is read into memory).
    std::unique_ptr<pgn::PgnFile> file;
    std::unique_ptr<pgn::RangeReader> ranges;
    std::error_code regular_error;
    if (candidates && std::filesystem::is_regular_file(input, regular_error))
      ranges = pgn::RangeReader::open(input, &err);
    else
      file = pgn::PgnFile::open(input, &err);
    if (!file && !ranges) {
      diag << "cqlindex run: " << err << "\n";
      return stop(Status::InputError);
    }
    pgn::ReadOptions ro;
    ro.threads = threads;
    ro.first_number = offset + 1;
    ro.progress = [&](uint64_t done) {  // memory independent of the file's size
      if (file) file->release_before(done);
    };
    const uint64_t seen_before = seen, messages_only_before = messages_only;
    if (candidates) {
      narrowed = true;
      // The games to read in slices, each read by its byte ranges: memory follows the slice, not the answer.
      constexpr size_t kSlice = 8192;
      std::vector<pgn::GameSpan> spans;
      bool go_on = true;
      auto replay = [&] {
        if (spans.empty() || !go_on) return true;
        bool stopped = false;
        auto counted = [&](const pgn::GameInfo& info, ScanResult&& r) {
          stopped = !deliver(info, std::move(r));
          return !stopped;
        };
        bool ok = replay_spans<ScanResult>(ranges.get(), file ? file->text() : std::string_view(), spans, threads,
                                           ro.batch_games, work, counted, &err);
        go_on = !stopped;
        spans.clear();
        return ok;
      };
      for (auto it = to_read.begin(); it != to_read.end() && go_on; ++it) {
        const uint32_t id = *it;
        if (games && int64_t(offset + id) + 1 > games->max) break;
        auto record = index->game(id, &err);
        if (!record) {
          diag << "cqlindex run: " << err << "\n";
          return stop(Status::InputError);
        }
        spans.push_back(pgn::GameSpan{offset + id + 1, record->offset, record->length, record->first_line,
                                      record->first_col});
        if (spans.size() == kSlice && !replay()) {
          diag << "cqlindex run: " << err << "\n";
          return stop(Status::InputError);
        }
      }
      if (!replay()) {
        diag << "cqlindex run: " << err << "\n";
        return stop(Status::InputError);
      }
      // Every game of the file is accounted for: the index ruled out the others without a replay.
      const uint64_t total = index->meta().game_count;
      const uint64_t evaluated = (seen - seen_before) - (messages_only - messages_only_before);
      // the games of this file inside the range (CQL reads one past its end, counted below)
      const int64_t room = games ? std::max<int64_t>(games->max - int64_t(offset), 0) : int64_t(total);
      const uint64_t counted = std::min<uint64_t>(total, uint64_t(room));
      seen = seen_before + counted;
      read_past_range = games && int64_t(total) > room;
      finished = finished || read_past_range;
      evaluated_indexed += evaluated;
      games_indexed += counted;
      offset += total;
    } else {
      if (index && !said_cannot_narrow) {
        diag << "cqlindex run: the index cannot narrow this query: every game is replayed\n";
        said_cannot_narrow = true;
      }
      pgn::for_each_game<ScanResult>(file->text(), ro, work, deliver);
      offset += seen - seen_before;  // every game of the file, unless the run stopped in it
    }
  }
  if (narrowed)
    diag << "cqlindex run: the index left " << evaluated_indexed << " of " << games_indexed
              << " games to replay (the others cannot match; 'cqlindex explain' shows the plan)\n";
  if (cancelled) {
    diag << "cqlindex run: stopped: the run was cancelled\n";
    return stop(Status::InputError);
  }
  if (run_error) {
    diag << cql::format_error(*run_error, opt.query_file, source);
    return stop(Status::QueryError);
  }
  if (sorted) {
    std::stable_sort(kept.begin(), kept.end(), [&](const ScanResult& a, const ScanResult& b) {
      return cql::eval::sorted_before(program, a.outcome, a.number, b.outcome, b.number);
    });
    for (ScanResult& r : kept)
      if (!emit(r)) break;
  }
  if (out_file && !out_file->commit(&err)) {  // no success line: the output is not there
    diag << "cqlindex run: " << err << "\n";
    return stop(Status::InputError);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  summary.matches = matched;
  summary.games_reported = seen + (read_past_range ? 1 : 0);
  summary.threads = threads;
  summary.output = out_path;
  summary.persistent = scanners.front()->persistent_report();
  const uint64_t considered = games ? (seen >= uint64_t(std::max<int64_t>(games->min, 1)) ? seen - uint64_t(std::max<int64_t>(games->min, 1)) + 1 : 0) : seen;
  const uint64_t ruled_out = considered - std::min(considered, replayed + unreadable_unreplayed);
  summary.games = seen;
  summary.considered = considered;
  summary.unmatched = considered - matched - unreadable - ruled_out;
  summary.ruled_out = ruled_out;
  summary.unreadable = unreadable;
  summary.with_errors = with_errors;
  return summary;
}

// The similarposition filter when it is all the query asks (at every position, with nothing else that could
// change which games match or how they are written), else nullptr.
const cql::Node* lone_similarposition(const cql::Query& query, const RunSettings& opt) {
  const cql::Header& h = query.header;
  if (h.gamenumber || h.matchcount || !h.result.empty() || h.variations || h.matchstring || h.silent || h.quiet ||
      opt.gamenumber || opt.matchcount || opt.year || !opt.player.empty() || opt.matchstring || opt.variations ||
      opt.silent || opt.quiet || opt.noheader || opt.alwayscomment || query.body->kids.size() != 1)
    return nullptr;
  const cql::Node* only = query.body->kids.front().node.get();
  return only->kind == cql::NodeKind::SimilarPosition ? only : nullptr;
}

}  // namespace

RunSummary run_query(const RunSettings& opt) {
  RunSummary summary;
  auto stop = [&](Status status) { return stopped(summary, status); };
  std::ostream& diag = diagnostics_of(opt);
  std::ostream& said = messages_of(opt);
  const std::optional<std::string> text =
      opt.memory ? std::optional<std::string>(opt.memory->text) : read_query_file("run", opt.query_file);
  if (!text) return stop(Status::QueryError);
  const std::string& source = *text;

  cql::Query query;
  try {
    if (opt.lex_only) {
      for (const cql::Token& t : cql::lex(source))
        said << t.line << ":" << t.column << " " << cql::describe(t) << "\n";
      summary.printed_only = true;
      return summary;
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
      for (auto& c : pre->kids) compound->add("arg", std::move(c.node));
      for (auto& c : query.body->kids) compound->add("arg", std::move(c.node));
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
      tr->add("body", std::move(query.body));
      auto compound = cql::make_node(cql::NodeKind::Compound, tr->type);
      compound->add("arg", std::move(tr));
      query.body = std::move(compound);
    }
  } catch (const cql::CqlError& e) {  // a query at the depth limit cannot take the transforms around it
    diag << "cqlindex run: " << opt.query_file << ": " << e.what() << "\n";
    return stop(Status::QueryError);
  }
  if (opt.parse_only) {
    said << cql::print_canonical(query);
    summary.printed_only = true;
    return summary;
  }
  // The input: -i (repeated, or a .cqlrepo list: a repository), else the header's.
  std::vector<std::string> inputs{opt.input.empty() ? query.header.input : opt.input};
  inputs.insert(inputs.end(), opt.more_inputs.begin(), opt.more_inputs.end());
  if (inputs.front().empty()) {
    diag << "cqlindex run: no input: give -i FILE.pgn or 'input' in the cql(...) header\n";
    return stop(Status::QueryError);
  }
  std::string error;
  const std::optional<Repository> repository = Repository::resolve(inputs, &error);
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
  const std::string& input = repository->files().front();
  if (const cql::Node* similar = lone_similarposition(query, opt)) {
    // `-similarposition F` (or a body that is only `similarposition "F"`): the judges' search, which takes its
    // candidates from the index when the repository has one; same output as the evaluator would write.
    SimilarRequest request;
    request.command = "run";
    request.submissions = similar->text;
    request.repository = input;
    request.more_inputs.assign(repository->files().begin() + 1, repository->files().end());
    request.output = output_path(query, opt);
    request.sort = !similar->has("nosort");
    request.notransform = similar->has("notransform");
    request.no_index = opt.no_index;
    request.index_dir = opt.index_dir;
    request.threads = opt.threads > 0 ? unsigned(opt.threads) : 0;
    request.warn_common = 100;  // CQL prints no such warning; `cqlindex similar` does
    summary.similar = run_similar(request);
    summary.status = summary.similar->status;
    return summary;
  }
  // The command line's run parameters, written into the header as if the query said them: the planner reads
  // the header (the evaluator takes the same values either way).
  cql::Header& h = query.header;
  h.variations = (opt.variations || h.variations) && !opt.mainline;
  if (opt.matchcount) h.matchcount = cql::Range{opt.matchcount->first, opt.matchcount->second};
  if (opt.gamenumber) h.gamenumber = cql::Range{opt.gamenumber->first, opt.gamenumber->second};
  return evaluate_query(query, opt, *repository, source);
}
}  // namespace cqlindex::exec
