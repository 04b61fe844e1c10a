// A run over MPI ranks: every rank prepares and compiles the query, takes its share of the repository
// (distributed_share.h: whole files, or parts of files cut at game starts; rank 0 begins with its first files while
// the others count the games before their shares) and scans it with the one-process loop
// (repository_scan.h); rank 0 scans its own share straight into the output file, the others send their matched
// games in chunks as they go (distributed_games.h), and, once done with their own, ask for pieces from the back of
// rank 0's share (distributed_steal.h), whose games they send under tags of their own. Rank 0 then writes the
// pieces it gave and the other shares in game order, each chunk as it arrives; it sums the counts and commits. A
// sorted query's games are kept with their sort values and sent at the end, then merged as one process sorts them.
// The protocol is the same on every rank; rank 0 decides and broadcasts whether to go on.
#include "exec/distributed_run.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "exec/distributed_agreement.h"
#include "exec/distributed_games.h"
#include "exec/distributed_share.h"
#include "exec/distributed_similar.h"
#include "exec/distributed_steal.h"
#include "exec/distributed_timeline.h"
#include "exec/repository_indexes.h"
#include "exec/repository_scan.h"
#include "exec/run_steps.h"

namespace cqlindex::exec {
namespace {

constexpr int kTagReport = 1, kTagBytes = 2, kTagGames = 3;

// What a rank reports to rank 0 when its share is done, as 64-bit words.
struct RankReport {
  Status status = Status::Ok;
  ScanCounts counts;
  uint64_t bytes = 0;   // what follows the report: a sorted query's games (encode_kept), then the held lines
  uint64_t chunks = 0;  // the chunks of matched games of an unsorted query sent before the report (GameOutbox)
  uint64_t said_bytes = 0;  // the share's stderr lines, held for rank 0 to write in game order (hold_diagnostics)
  uint64_t cannot_narrow_at = kNowhere;  // where in them the share said RepositoryScan::kCannotNarrow
  static constexpr uint64_t kNowhere = ~uint64_t(0);

  static constexpr int kWords = 16;
  // Returns the report as words.
  std::vector<uint64_t> words() const {
    return {uint64_t(status), counts.seen, counts.matched, counts.unreadable, counts.with_errors, counts.replayed,
            counts.messages_only, counts.unreadable_unreplayed, counts.evaluated_indexed, counts.games_indexed,
            uint64_t(counts.read_past_range), uint64_t(counts.narrowed), bytes, chunks, said_bytes,
            cannot_narrow_at};
  }
  // Returns the report the words hold.
  static RankReport of(const std::vector<uint64_t>& w) {
    RankReport r;
    r.status = Status(w[0]);
    ScanCounts& c = r.counts;
    c.seen = w[1], c.matched = w[2], c.unreadable = w[3], c.with_errors = w[4], c.replayed = w[5];
    c.messages_only = w[6], c.unreadable_unreplayed = w[7], c.evaluated_indexed = w[8], c.games_indexed = w[9];
    c.read_past_range = w[10] != 0, c.narrowed = w[11] != 0;
    r.bytes = w[12];
    r.chunks = w[13];
    r.said_bytes = w[14];
    r.cannot_narrow_at = w[15];
    return r;
  }
};

// Adds the counts of another share to `into`.
void add_counts(ScanCounts& into, const ScanCounts& c) {
  into.seen += c.seen, into.matched += c.matched, into.unreadable += c.unreadable;
  into.with_errors += c.with_errors, into.replayed += c.replayed, into.messages_only += c.messages_only;
  into.unreadable_unreplayed += c.unreadable_unreplayed, into.evaluated_indexed += c.evaluated_indexed;
  into.games_indexed += c.games_indexed;
  into.read_past_range = into.read_past_range || c.read_past_range;  // only the share holding that game sets it
  into.narrowed = into.narrowed || c.narrowed;
}


// Returns the matched games of a sorted query (their number, text and sort values) as bytes.
std::string encode_kept(const std::vector<ScanResult>& kept) {
  std::string out;
  put_word(out, kept.size());
  for (const ScanResult& r : kept) {
    put_word(out, r.number);
    put_text(out, r.text);
    put_word(out, r.outcome.sort_values.size());
    for (const auto& v : r.outcome.sort_values) {
      if (!v) {
        put_word(out, 0);
      } else if (const int64_t* n = std::get_if<int64_t>(&*v)) {
        put_word(out, 1);
        put_word(out, uint64_t(*n));
      } else {
        put_word(out, 2);
        put_text(out, std::get<std::string>(*v));
      }
    }
  }
  return out;
}

// Reads what encode_kept wrote.
class KeptReader : MessageReader {
 public:
  using MessageReader::MessageReader;
  // Appends the games to `kept`.
  void append_to(std::vector<ScanResult>& kept) {
    for (uint64_t n = word(); n > 0; --n) {
      ScanResult r;
      r.matched = true;
      r.number = word();
      r.text = text();
      for (uint64_t values = word(); values > 0; --values) {
        std::optional<cql::eval::SortValue>& value = r.outcome.sort_values.emplace_back();
        const uint64_t kind = word();
        if (kind == 1) value.emplace(std::in_place_index<0>, int64_t(word()));
        else if (kind == 2) value.emplace(std::in_place_index<1>, text());
      }
      kept.push_back(std::move(r));
    }
  }
};

// Writes a share's held stderr lines `lines` after those of the shares before it in game order, as one process
// says them: its RepositoryScan::kCannotNarrow line (at `at`) only when no share before it said one (`said`).
void say_held_lines(std::string_view lines, uint64_t at, bool& said) {
  std::string text(lines);
  if (at < lines.size() && said) text.erase(at, RepositoryScan::kCannotNarrow.size());
  said = said || at < lines.size();
  std::cerr << text;  // whole lines (cqlindex-mpi's stderr is a WholeLineBuffer)
}

// Returns true when the query has a `message` filter: its lines go to one console in game order.
bool says_messages(const cql::Node& node) {
  if (node.kind == cql::NodeKind::Message) return true;
  for (const auto& kid : node.kids)
    if (kid.node && says_messages(*kid.node)) return true;
  return false;
}

// Sleeps CQLINDEX_TEST_RANK0_PAUSE_MS milliseconds when set: rank 0, slowed after each of its pieces, gives the
// others the back of its share (the tests of distributed_steal.h).
void pause_for_test() {
  static const char* pause = std::getenv("CQLINDEX_TEST_RANK0_PAUSE_MS");
  if (pause) std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(pause)));
}

// What rank 0 decides after preparing and compiling the query, broadcast to the others.
enum Decision : int { kStop = 0, kAlone = 1, kShare = 2, kSimilar = 3 };

// One rank's part in a distributed run: what each step leaves for the next. Each step returns the summary to
// stop with, or nothing to go on.
class RankRun {
 public:
  RankRun(const RunSettings& opt, int rank, int size) : opt(opt), rank(rank), size(size) {}
  // Returns the rank's summary of the run (rank 0's is the run's).
  RunSummary run();

 private:
  using Stop = std::optional<RunSummary>;
  // Rank 0 prepares and compiles first, says any refusal once, and decides; the others follow (the same query
  // text and files give them the same query, quietly).
  Stop lead();
  Stop follow();
  // Rank 0 opens the output and checks the indexes (saying what it finds once); the others check quietly.
  Stop open_output();
  // A share's games on their way to rank 0: in chunks as the scan fills them; then what follows its report (a
  // sorted query's kept games, the share's stderr lines).
  struct Segment {
    Segment(int games_tag, int tail_tag) : games(games_tag, game_chunk_bytes()), tail(tail_tag, game_chunk_bytes()) {}
    GameOutbox games, tail;
  };
  // Returns the summary after this rank's share is scanned, sent to rank 0 or, on rank 0, gathered and written.
  RunSummary scan_share();
  // A rank other than 0: returns the report of pieces [first, end) of `pieces`, their games sent through `to`
  // (`own`: the rank's own share, where the test hooks act).
  RankReport scan_pieces(const std::vector<SharePiece>& pieces, size_t first, size_t end, Segment& to, bool own);
  // Sends `report` to rank 0 with `tag`.
  void send_report(const RankReport& report, int tag);
  // Drops the pieces after the game CQL reads past a -gamenumber range.
  void drop_pieces_past_range();
  // Rank 0: scans its pieces, giving the back ones to the ranks that ask, and returns the run's summary.
  RunSummary scan_and_gather();
  // Rank 0: returns the run's summary after the pieces given away and the other shares are taken in game order,
  // sorted games merged as one process sorts them.
  RunSummary gather(RepositoryScan& scan, const RankReport& mine, RepositoryScan::Sink& sink,
                    PieceDispenser& dispenser);
  // Returns the summary stopped with `status`.
  RunSummary stop(Status status) { return stopped(summary, status); }
  // Returns what this rank reads, for the ranks' agreement: the query file and the repository's files and lists.
  std::vector<RankFact> input_facts() const {
    std::vector<std::string> paths{opt.query_file};
    if (prepared) {
      const std::vector<std::string> read = prepared->repository->read_paths();
      paths.insert(paths.end(), read.begin(), read.end());
    }
    return file_facts(paths);
  }

  const RunSettings& opt;
  const int rank, size;
  RunSummary summary;
  std::optional<PreparedRun> prepared;
  std::optional<cql::eval::Program> program;
  Status status = Status::Ok;
  std::unique_ptr<OutputFile> out_file;
  RepositoryIndexes indexes;
  RankTimeline timeline{rank};
  unsigned threads = 1;
  std::chrono::steady_clock::time_point t0;
  std::optional<ShareCount> count;  // the game count behind the shares (rank 0 scans while the others count)
  RepositoryShare share;
  size_t scanned_early = 0;  // rank 0: the files it scanned before the count was in
  std::deque<Segment> segments;  // a rank's own share, then the pieces it was given: held until rank 0 has them
};

RunSummary RankRun::run() {
  if (Stop stopped_with = rank == 0 ? lead() : follow()) return *stopped_with;
  timeline.mark("compiled");
  if (Stop stopped_with = open_output()) return *stopped_with;
  timeline.mark("checked");
  return scan_share();
}

RankRun::Stop RankRun::lead() {
  prepared = prepare_run(opt, summary);
  if (prepared && !prepared->strategy.similar_search())
    program = compile_run(prepared->query, opt, *prepared->repository, prepared->source, true, &status);
  const bool alone = prepared && program && (prepared->query.needs_single_thread || program->may_fail ||
                                             says_messages(*prepared->query.body));
  broadcast(prepared && prepared->strategy.similar_search() ? kSimilar : alone ? kAlone : program ? kShare : kStop);
  if (!prepared) return summary;
  if (prepared->strategy.similar_search()) return run_similar_search(*prepared, opt, run_similar_distributed);
  if (!program) return stop(status);
  if (alone) return evaluate_compiled(*prepared, opt, *program);
  if (!ranks_agree(input_facts(), "run")) return stop(Status::InputError);
  return std::nullopt;
}

RankRun::Stop RankRun::follow() {
  const int decision = broadcast(0);
  if (decision != kShare && decision != kSimilar) return summary;
  {
    QuietStandardError quiet;  // rank 0 said what there is to say
    prepared = prepare_run(opt, summary);
  }
  if (decision == kSimilar) {  // the similar pipeline, split as `cqlindex similar` is
    if (!prepared || !prepared->strategy.similar_search()) abort_run(2);
    run_similar_search(*prepared, opt, run_similar_distributed);
    return RunSummary{};
  }
  if (!ranks_agree(input_facts(), "run")) return stop(Status::InputError);
  if (prepared) program = compile_run(prepared->query, opt, *prepared->repository, prepared->source, false, &status);
  if (!program) abort_run(2);  // rank 0 could: the files changed under the run (the message is out)
  return std::nullopt;
}

RankRun::Stop RankRun::open_output() {
  const Repository& repository = *prepared->repository;
  if (rank == 0) {
    out_file = open_run_output(prepared->query, opt, repository, &status);
    if (out_file && !opt.no_index) status = indexes.check({"run", "", opt.index_dir, "", true}, repository);
    if (broadcast(status == Status::Ok) == 0) return stop(status);
    return std::nullopt;
  }
  if (broadcast(0) == 0) return summary;
  if (!opt.no_index) {
    QuietStandardError quiet;
    status = indexes.check({"run", "", opt.index_dir, "", true}, repository);
  }
  if (status != Status::Ok) {
    std::cerr << "cqlindex run: rank " << rank << ": the indexes changed while the run started\n";
    abort_run(2);
  }
  return std::nullopt;
}

RunSummary RankRun::scan_share() {
  const Repository& repository = *prepared->repository;
  // Without -threads a rank takes its share of its node's cores, not every core (threads_per_rank says why).
  const unsigned node_share = threads_per_rank();  // collective: every rank asks
  const bool threads_given = opt.threads > 0 || prepared->query.needs_single_thread;
  threads = threads_given ? run_threads(prepared->query, opt, false) : node_share;
  t0 = std::chrono::steady_clock::now();
  // Every file's games, and this rank's share: whole files, or parts of them when there are fewer files than ranks.
  // Rank 0 may begin its scan before the count is in (ShareCount::early).
  count.emplace(repository.files(), indexes, !opt.no_index, "run", false);
  if (rank == 0) return scan_and_gather();
  if (!count->finish(share)) return summary;
  timeline.mark("shared");
  drop_pieces_past_range();
  // This rank's matched games, sent in chunks as they fill; then pieces of rank 0's share while it has some left.
  Segment& own = segments.emplace_back(kTagGames, kTagBytes);
  RankReport mine = scan_pieces(share.pieces, 0, share.pieces.size(), own, true);
  while (mine.status == Status::Ok) {
    uint64_t held = 0;
    for (const Segment& segment : segments) held += segment.games.bytes();
    const std::optional<Grant> grant = ask_for_pieces(held);
    if (!grant) break;
    Segment& given = segments.emplace_back(grant_tag(grant->id, 0), grant_tag(grant->id, 2));
    const RankReport report = scan_pieces(share.rank0_pieces, grant->first, grant->end, given, false);
    send_report(report, grant_tag(grant->id, 1));
    if (report.status != Status::Ok) mine.status = report.status;  // asks for no more
  }
  timeline.mark("scanned");
  send_report(mine, kTagReport);
  timeline.mark("reported");
  for (Segment& segment : segments) segment.games.wait(), segment.tail.wait();
  timeline.mark("sent");
  return summary;
}

void RankRun::drop_pieces_past_range() {
  // A piece after the game CQL reads past a -gamenumber range is not read, as one process stops before it (a
  // piece numbered on from the one before it is not read either: the scan stops there, or its first game is past).
  // Every rank drops the same pieces of rank 0's share: the others ask for them by their place.
  const std::optional<cql::Range>& range = prepared->query.header.gamenumber;
  for (std::vector<SharePiece>* pieces : {&share.pieces, &share.rank0_pieces})
    for (size_t i = 0; range && i < pieces->size(); ++i) {
      const SharePiece& p = (*pieces)[i];
      if (!p.follows && int64_t(p.offset + p.part.first) > range->max) pieces->resize(i);
    }
}

RankReport RankRun::scan_pieces(const std::vector<SharePiece>& pieces, size_t first, size_t end, Segment& to,
                                bool own) {
  // A scan of its own: a grant's pieces come before the rank's own share, and a -gamenumber range that ended
  // there must not stop them.
  RepositoryScan scan(prepared->query, opt, *program, *prepared->repository, indexes, threads,
                      [&](ScanResult& r) {
                        to.games.add(r.text);
                        return true;
                      });
  // Its stderr lines go to rank 0, which writes them in game order: mpirun forwards what each rank writes in
  // reads of its own size (4 KiB), so a rank's lines written as they come can be cut by another rank's.
  std::ostringstream said;
  scan.hold_diagnostics(said);
  RankReport report;
  for (size_t i = first; i < end && report.status == Status::Ok; ++i) {
    const SharePiece& piece = pieces[i];
    report.status = scan.scan_part(piece.file, piece.part, piece.follows ? scan.next_offset() : piece.offset);
    // Test hooks (test_hook_names): after its first piece, CQLINDEX_TEST_KILL_RANK=N dies (a rank killed mid-run),
    // CQLINDEX_TEST_FAIL_RANK=N fails as a damaged index block would (a failed rank whose games rank 0 has begun
    // to take); the _GIVEN_ forms after its first piece of rank 0's.
    if (test_hook_names(own ? "CQLINDEX_TEST_KILL_RANK" : "CQLINDEX_TEST_KILL_GIVEN_RANK", rank)) std::raise(SIGKILL);
    if (test_hook_names(own ? "CQLINDEX_TEST_FAIL_RANK" : "CQLINDEX_TEST_FAIL_GIVEN_RANK", rank)) {
      std::cerr << "cqlindex run: rank " << rank << " fails after its first " << (own ? "" : "given ")
                << "piece (CQLINDEX_TEST_FAIL_" << (own ? "" : "GIVEN_") << "RANK)\n";
      report.status = Status::InputError;
    }
  }
  if (report.status == Status::Ok && scan.run_error()) {  // cannot happen: a query that may stop runs alone
    std::cerr << cql::format_error(*scan.run_error(), opt.query_file, prepared->source);
    report.status = Status::QueryError;
  }
  report.counts = scan.counts();
  to.games.flush();
  report.chunks = to.games.chunks();
  std::string tail = program->sorts.empty() ? std::string() : encode_kept(scan.kept());
  const std::string lines = said.str();
  tail += lines;
  report.bytes = tail.size();
  report.said_bytes = lines.size();
  if (const std::optional<uint64_t> at = scan.cannot_narrow_held_at()) report.cannot_narrow_at = *at;
  to.tail.add_cut(tail);
  to.tail.flush();
  return report;
}

void RankRun::send_report(const RankReport& report, int tag) {
  const std::vector<uint64_t> words = report.words();
  MPI_Request request;  // a small message: sent at once
  MPI_Isend(words.data(), RankReport::kWords, MPI_UINT64_T, 0, tag, MPI_COMM_WORLD, &request);
  wait_for(request);
}

RunSummary RankRun::scan_and_gather() {
  // Rank 0's games straight to the output file, its pieces from the front; the ranks that ask are given pieces
  // from the back (answered between batches of games, and between pieces).
  RepositoryScan::Sink sink = [&](ScanResult& r) {
    out_file->stream() << r.text;
    return true;
  };
  RepositoryScan scan(prepared->query, opt, *program, *prepared->repository, indexes, threads, sink);
  // Its first files whole while the others count (its first game is the repository's first); once the count is
  // in, its pieces, those of the files begun its own, handed out from the back on request.
  const auto began = std::chrono::steady_clock::now();
  std::optional<PieceDispenser> dispenser;
  bool counted = false;
  auto take_count = [&] {
    if (!count->finish(share)) return;  // the counting rank said why; the others stop too
    counted = true;
    timeline.mark("shared");
    drop_pieces_past_range();
    size_t begun = 0;  // the early files are the repository's first: files [0, scanned_early)
    while (begun < share.pieces.size() && share.pieces[begun].file < scanned_early) ++begun;
    dispenser.emplace(share.pieces.size(), begun, began);
  };
  bool count_done = false;  // finish() called, whether the count succeeded or not
  auto poll_count = [&] {
    if (!count_done && count->arrived()) count_done = true, take_count();
  };
  scan.set_poll([&] {
    poll_count();
    if (dispenser) dispenser->serve();
  });
  RankReport mine;
  for (const size_t k : count->early()) {
    if (count_done || mine.status != Status::Ok) break;
    ++scanned_early;  // file k == scanned_early - 1, numbered on from the files before it (none for the first)
    mine.status = scan.scan_part(k, FilePart{}, scan.next_offset());
    pause_for_test();
    poll_count();
  }
  if (!count_done) count_done = true, take_count();  // waits for it
  if (!counted) return stop(Status::InputError);
  if (mine.status != Status::Ok) dispenser->close();
  while (mine.status == Status::Ok) {
    const std::optional<size_t> i = dispenser->next();
    if (!i) break;
    const SharePiece& piece = share.pieces[*i];
    mine.status = scan.scan_part(piece.file, piece.part, piece.follows ? scan.next_offset() : piece.offset);
    pause_for_test();
    if (mine.status != Status::Ok) dispenser->close();
  }
  if (mine.status == Status::Ok && scan.run_error()) {  // cannot happen: a query that may stop runs alone
    std::cerr << cql::format_error(*scan.run_error(), opt.query_file, prepared->source);
    mine.status = Status::QueryError;
  }
  mine.counts = scan.counts();
  timeline.mark("scanned");
  return gather(scan, mine, sink, *dispenser);
}

RunSummary RankRun::gather(RepositoryScan& scan, const RankReport& mine, RepositoryScan::Sink& sink,
                           PieceDispenser& dispenser) {
  // The CPU time of the merge leaves out the waits for a rank's chunks and report (spent asleep).
  const bool sorted = !program->sorts.empty();
  double merge_seconds = 0;
  ScanCounts all = mine.counts;
  status = mine.status;
  std::vector<ScanResult>& kept = scan.kept();
  bool said_cannot_narrow = scan.said_cannot_narrow();
  GameInbox inbox;
  // In game order: the pieces given away, then each rank's own share. Rank 0 answers the requests that still
  // come ("no more": it has begun every piece it kept) while it waits.
  struct Source {
    int rank, games, report, bytes;
  };
  std::vector<Source> sources;
  for (const Grant& g : dispenser.grants())
    sources.push_back(Source{g.rank, grant_tag(g.id, 0), grant_tag(g.id, 1), grant_tag(g.id, 2)});
  for (int from = 1; from < size; ++from) sources.push_back(Source{from, kTagGames, kTagReport, kTagBytes});
  for (const Source& from : sources) {
    // The chunks, written as they come while the rank may still scan, until its report says how many.
    std::optional<RankReport> report;
    auto reported = [&]() -> std::optional<uint64_t> {
      dispenser.serve();
      int arrived = 0;
      if (!report) MPI_Iprobe(from.rank, from.report, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
      if (arrived) {
        std::vector<uint64_t> words(RankReport::kWords);
        MPI_Recv(words.data(), RankReport::kWords, MPI_UINT64_T, from.rank, from.report, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        report = RankReport::of(words);
      }
      return report ? std::optional<uint64_t>(report->chunks) : std::nullopt;
    };
    // (A failed run only drains the chunks: the sender waits until they are taken.)
    inbox.write_rank(from.rank, from.games, status == Status::Ok, out_file->stream(), reported);
    const double received = cpu_seconds();
    const std::string bytes = receive_bytes(from.rank, report->bytes, from.bytes);
    if (status == Status::Ok)  // one process came this far: the share's lines, a failure's reason included
      say_held_lines(std::string_view(bytes).substr(bytes.size() - report->said_bytes), report->cannot_narrow_at,
                     said_cannot_narrow);
    if (status == Status::Ok) status = report->status;
    if (status == Status::Ok) {  // else the run has failed: the rest is only drained
      add_counts(all, report->counts);
      if (sorted) KeptReader(bytes).append_to(kept);
    }
    merge_seconds += cpu_seconds() - received;
  }
  merge_seconds += inbox.seconds();
  timeline.mark("merged");
  if (status != Status::Ok) return stop(status);
  if (Status s = report_scan_end(all, false, std::nullopt, opt, prepared->source); s != Status::Ok) return stop(s);
  const double sort_start = cpu_seconds();
  if (sorted) emit_sorted(*program, kept, sink);
  merge_seconds += cpu_seconds() - sort_start;
  std::string err;
  if (!out_file->commit(&err)) {  // no success line: the output is not there
    std::cerr << "cqlindex run: " << err << "\n";
    return stop(Status::InputError);
  }
  timeline.mark("committed");
  size_t given = 0;
  for (const Grant& g : dispenser.grants()) given += g.end - g.first;
  std::cerr << "cqlindex run: " << size << " ranks; rank 0 spent " << merge_seconds
            << " CPU seconds merging and writing the other ranks' games ("
            << given << " of its " << share.pieces.size() << " pieces scanned by the others)";
  if (scanned_early > 0) std::cerr << "; it scanned " << scanned_early << " files while the others counted";
  std::cerr << "\n";
  summary = run_summary_of(all, prepared->query, opt, threads, run_output_path(prepared->query, opt),
                           scan.persistent_report());
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return summary;
}

}  // namespace

RunSummary run_distributed(const RunSettings& opt) {
  const int rank = world_rank(), size = world_size();
  if (size == 1) return run_query(opt);
  return RankRun(opt, rank, size).run();
}

void wait_for_every_rank() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  wait_for(request);
}

}  // namespace cqlindex::exec
