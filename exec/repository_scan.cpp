// The run pipeline's loop over a repository's files: plan each file over its index, replay its candidates (or
// every game) in parallel, deliver the results in game order.
#include "exec/repository_scan.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <new>

#include "engine/pgn/range_reader.h"
#include "engine/pgn/reader.h"
#include "exec/candidate_slices.h"
#include "exec/worker_pool.h"
#include "indexer/index_builder.h"
#include "store/index_store.h"
#include "store/keys/flag_key.h"

namespace cqlindex::exec {
namespace {

// Where a run's stderr lines go: the terminal, or a served run's memory.
std::ostream& diagnostics_of(const RunSettings& opt) { return opt.memory ? *opt.memory->diagnostics : std::cerr; }
// Where a run's stdout lines go: the terminal, or a served run's memory.
std::ostream& messages_of(const RunSettings& opt) { return opt.memory ? *opt.memory->messages : std::cout; }

// Replays the games at `spans`, read by their byte ranges from `ranges` (else cut from `text`): parsed and
// handed to work(game, worker) on the worker pool, then deliver(info, result) in the order of `spans` (it stops
// the replay by returning false). False (with `error`) when a game cannot be read, after delivering those before.
// A game for which `by_tags` (when set) says true is read by its tags only (pgn::ParseOptions::tags_only).
template <class R>
bool replay_spans(const pgn::RangeReader* ranges, std::string_view text, const std::vector<pgn::GameSpan>& spans,
                  unsigned threads, size_t batch, const std::function<bool(const pgn::GameSpan&)>& by_tags,
                  const std::function<R(const pgn::Game&, unsigned)>& work,
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
        pgn::ParseOptions parse;
        parse.tags_only = by_tags && by_tags(s);
        pgn::parse_game(bytes, pgn::GameLocation{s.number, s.offset, s.first_line, s.first_col}, game, parse);
        return Replayed{pgn::info_of(game), work(game, worker)};
      },
      [&](size_t, Replayed&& r) { return deliver(r.info, std::move(r.result)); }, &failed);
  if (!ok && error) *error = read_errors[failed];
  return ok;
}

}  // namespace

RepositoryScan::RepositoryScan(cql::Query& query, const RunSettings& opt, const cql::eval::Program& program,
                               const Repository& repository, RepositoryIndexes& indexes, unsigned threads,
                               Sink sink)
    : query_(query),
      opt_(opt),
      program_(program),
      files_(repository.files()),
      indexes_(indexes),
      threads_(threads),
      sink_(std::move(sink)),
      served_indexes_(opt.memory && !opt.memory->indexes.empty() ? &opt.memory->indexes : nullptr),
      served_tag_keys_(served_indexes_ && opt.memory->tag_keys.size() == served_indexes_->size()
                           ? &opt.memory->tag_keys
                           : nullptr),
      diag_(&diagnostics_of(opt)) {
  if (opt.gamenumber) games_ = cql::Range{opt.gamenumber->first, opt.gamenumber->second};
  else if (query.header.gamenumber) games_ = query.header.gamenumber;
  for (unsigned i = 0; i < std::max(1u, threads); ++i) {
    scanners_.push_back(std::make_unique<cql::eval::GameScanner>(program));
    // a served run's time limit and cancel flag stop a game's evaluation too, not only the scan between games
    if (const MemoryRun* memory = opt.memory) scanners_.back()->set_stop([memory] { return memory->cancelled(); });
  }
}

RepositoryScan::~RepositoryScan() = default;

ScanResult RepositoryScan::work(const pgn::Game& g, unsigned worker) {
  ScanResult r;
  if (opt_.memory && opt_.memory->cancelled()) {  // not evaluated: the delivery stops before it
    r.in_range = false;
    return r;
  }
  if (games_ && (int64_t(g.number) < games_->min || int64_t(g.number) > games_->max)) {
    r.in_range = false;
    return r;
  }
  if (candidates_ && !candidates_->contains(uint32_t(g.number - offset_ - 1))) {  // read for its PGN messages only
    r.in_range = false;
    r.messages_only = true;
    r.unreadable = !g.start_known;  // counted as a scan counts it
    return r;
  }
  r.unreadable = !g.start_known;
  if (g.number > first_error_game_.load(std::memory_order_relaxed)) {  // never delivered: the run stops before
    r.in_range = false;
    return r;
  }
  auto failed = [&](cql::CqlError e) {
    r.error = std::move(e);
    uint64_t seen = first_error_game_.load();
    while (g.number < seen && !first_error_game_.compare_exchange_weak(seen, g.number)) continue;
    return r;
  };
  cql::eval::GameOutcome o;
  try {
    o = scanners_[worker]->scan(g);
  } catch (const cql::CqlError& e) {
    return failed(e);
  } catch (const cql::eval::EvaluationStopped&) {  // the delivery stops before this game: the run was cancelled
    r.in_range = false;
    return r;
  } catch (const std::bad_alloc&) {  // the memory of the process is exhausted: this query stops, the process lives
    return failed(cql::CqlError(
        "the query needs more memory than is available (at game number " + std::to_string(g.number) + ")", 0, 0));
  }
  r.messages = std::move(o.messages);
  if (o.matched) {
    r.matched = true;
    r.number = g.number;
    r.outcome.sort_values = std::move(o.sort_values);
    // a served run's page is full: this match is only counted (games are delivered in order, so its place among
    // the matches is at least the count delivered before it was evaluated); a game read by its tags alone
    // (read_by_tags) always takes this way: the count it was read under can only have grown
    if (page_full()) return r;
    size_t ignored = 0;
    pgn::WriteOptions write;
    write.ignored_comments = &ignored;
    if (o.set_tags.empty()) {
      pgn::write_game(g, o.comments, write, r.text);
      if (opt_.memory) r.served = output_game_of(g, o.comments);
    } else {  // settag: the game is written with the tags the query set
      pgn::Game tagged = g.copy_viewing();
      cql::eval::apply_set_tags(o, tagged);
      pgn::write_game(tagged, o.comments, write, r.text);
      if (opt_.memory) r.served = output_game_of(tagged, o.comments);
    }
    for (size_t i = 0; i < ignored; ++i) r.messages.push_back("Ignoring long comment in game: " + std::to_string(g.number));
  }
  return r;
}

bool RepositoryScan::page_full() const {
  return opt_.memory && program_.sorts.empty() &&
         matches_delivered_.load(std::memory_order_relaxed) >= opt_.memory->games_wanted;
}

bool RepositoryScan::read_by_tags(const pgn::GameSpan& span) {
  if (!tags_decide_ || problems_.contains(uint32_t(span.number - offset_ - 1)) || !page_full()) return false;
  read_by_tags_count_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool RepositoryScan::deliver(const pgn::GameInfo& info, ScanResult&& r) {
  if (opt_.memory && opt_.memory->cancelled()) {
    cancelled_ = true;
    finished_ = true;
    return false;
  }
  if (games_ && int64_t(info.number) > games_->max) {
    counts_.read_past_range = int64_t(info.number) == games_->max + 1;
    finished_ = true;
    return false;
  }
  ++counts_.seen;
  if (r.messages_only) {
    ++counts_.messages_only;
    if (r.unreadable) ++counts_.unreadable, ++counts_.unreadable_unreplayed;
  }
  std::ostream& diag = *diag_;
  // each message in one write (rank 0 of a distributed run writes its own as they come)
  for (const pgn::PgnError& e : info.errors) diag << (pgn::format_error(input_, e) + '\n');
  if (!info.errors.empty())
    for (const pgn::PgnError& e : info.errors)
      if (e.severity == pgn::Severity::Error) {
        ++counts_.with_errors;
        break;
      }
  if (!r.in_range) return true;
  if (r.error) {  // the first game in file order where the run stops, as single-threaded CQL
    run_error_ = std::move(r.error);
    finished_ = true;
    return false;
  }
  std::ostream& said = messages_of(opt_);
  for (const std::string& m : r.messages) said << m << '\n';
  ++counts_.replayed;
  if (r.unreadable && !r.matched) ++counts_.unreadable;
  if (r.matched) {
    ++counts_.matched;
    matches_delivered_.store(counts_.matched, std::memory_order_relaxed);
    // with sort the output order is known only at the end (the games are kept); else streamed in game order
    if (!program_.sorts.empty()) kept_.push_back(std::move(r));
    else if (!sink_(r)) {
      finished_ = true;
      return false;
    }
  }
  return true;
}

Status RepositoryScan::scan(size_t begin, size_t end, uint64_t offset) {
  offset_ = offset;
  for (size_t k = begin; k < end && !finished_; ++k)
    if (Status s = scan_file(k, FilePart{}); s != Status::Ok) return s;
  return Status::Ok;
}

Status RepositoryScan::scan_part(size_t k, const FilePart& part, uint64_t offset) {
  offset_ = offset;
  return finished_ ? Status::Ok : scan_file(k, part);
}

Status RepositoryScan::scan_file(size_t k, const FilePart& part) {
  std::string err;
  input_ = files_[k];
  std::unique_ptr<store::IndexStore> opened;  // this file's, closed when the next file's turn comes
  if (!served_indexes_)
    if (Status s = indexes_.open(k, opened); s != Status::Ok) return s;
  const store::IndexStore* index = served_indexes_ && !opt_.no_index ? served_indexes_->at(k) : opened.get();
  const store::FamilyKeys* tag_keys = served_tag_keys_ && !opt_.no_index ? served_tag_keys_->at(k) : nullptr;
  if (Status s = plan_file(index, tag_keys); s != Status::Ok) return s;
  std::optional<Roaring> to_read;
  if (candidates_) {
    to_read = games_to_read(*index, part);
    if (!to_read) return Status::InputError;
  }
  // A file read by candidates is read by byte ranges (pread), so its memory follows its candidates, not the
  // file; one scanned whole is mapped, its pages handed back as the scan goes (a pipe is read into memory).
  std::unique_ptr<pgn::PgnFile> file;
  std::unique_ptr<pgn::RangeReader> ranges;
  std::error_code regular_error;
  if (candidates_ && std::filesystem::is_regular_file(input_, regular_error))
    ranges = pgn::RangeReader::open(input_, &err);
  else
    file = pgn::PgnFile::open(input_, &err);
  if (!file && !ranges) {
    *diag_ << "cqlindex run: " << err << "\n";
    return Status::InputError;
  }
  pgn::ReadOptions ro;
  ro.threads = threads_;
  ro.first_number = offset_ + 1;
  if (!candidates_) return scan_every_game(*file, index, part, ro);
  return replay_candidates(*index, *to_read, part, file.get(), ranges.get(), ro);
}

Status RepositoryScan::plan_file(const store::IndexStore* index, const store::FamilyKeys* tag_keys) {
  candidates_.reset();
  planner::PlanReport plan;
  // a query that can stop with an error where it is evaluated replays every game, as CQL would reach it
  if (index && !program_.may_fail) {
    // the planner reads the header's gamenumber range in this file's own numbers
    const std::optional<cql::Range> whole_range = query_.header.gamenumber;
    if (whole_range)
      query_.header.gamenumber = cql::Range{whole_range->min - int64_t(offset_), whole_range->max - int64_t(offset_)};
    candidates_ = planner::plan_candidates(query_, *index, &plan, program_.options.submissions.get(), tag_keys);
    query_.header.gamenumber = whole_range;
  }
  if (index && !plan.error.empty()) {  // a damaged block: stop rather than answer from part of the index
    *diag_ << "cqlindex run: " << plan.error << " ('cqlindex verify " << input_
           << "' names every damaged file; rebuild the index, or use --no-index)\n";
    return Status::InputError;
  }
  return Status::Ok;
}

// The games an indexed run reads: its candidates, and the games with PGN errors or warnings for their
// messages only, so that a run reports the same errors and counts whether the index rules games out or not.
std::optional<Roaring> RepositoryScan::games_to_read(const store::IndexStore& index, const FilePart& part) {
  std::ostream& diag = *diag_;
  tags_decide_ = false;  // unless this file's games with PGN problems are known (below)
  Roaring to_read = *candidates_;
  if (index.meta().build_options.find(indexer::kPgnProblemMarker) != std::string::npos) {
    std::string err;
    auto problems =
        index.postings(store::Family::Flags, store::keys::game_flag_key(store::keys::GameFlag::PgnProblem), &err);
    if (!problems) {
      diag << "cqlindex run: " << err << "\n";
      return std::nullopt;
    }
    to_read |= problems->bits();
    problems_ = problems->bits();
    // past a served run's page, a clean game of a query its tags decide is read by its tags alone (read_by_tags)
    tags_decide_ = opt_.memory && cql::eval::decided_by_tags(program_);
  } else {
    diag << "cqlindex run: the index predates the record of PGN errors: the errors of the games it rules "
            "out are not reported (rebuild it with 'cqlindex build " << input_ << "')\n";
  }
  if (!part.whole()) {  // the games of the part only (the others are another rank's)
    Roaring in_part;
    in_part.addRange(part.first, std::min<uint64_t>(part.end, uint64_t(UINT32_MAX) + 1));
    to_read &= in_part;
  }
  return to_read;
}

std::function<ScanResult(const pgn::Game&, unsigned)> RepositoryScan::work_function() {
  return [this](const pgn::Game& g, unsigned worker) { return this->work(g, worker); };
}

std::function<bool(const pgn::GameInfo&, ScanResult&&)> RepositoryScan::deliver_function() {
  return [this](const pgn::GameInfo& info, ScanResult&& r) { return this->deliver(info, std::move(r)); };
}

Status RepositoryScan::scan_every_game(pgn::PgnFile& file, const store::IndexStore* index, const FilePart& part,
                                       pgn::ReadOptions ro) {
  std::ostream& diag = *diag_;
  ro.progress = [&](uint64_t done) {  // memory independent of the file's size
    file.release_before(done);
    if (poll_) poll_();
  };
  if (index && !said_cannot_narrow_) {
    if (held_) cannot_narrow_at_ = uint64_t(held_->tellp());
    diag << kCannotNarrow;
    said_cannot_narrow_ = true;
  }
  const uint64_t seen_before = counts_.seen;
  if (part.whole()) {
    pgn::for_each_game<ScanResult>(file.text(), ro, work_function(), deliver_function());
    offset_ += counts_.seen - seen_before;  // every game of the file, unless the run stopped in it
    return shrunk_status(file);
  }
  // A part: its bytes from its first game's start, its games numbered and its messages placed as in the file.
  std::string err;
  const std::optional<PartBytes> bytes = part_bytes(file.text(), part, index, &err);
  if (!bytes) {
    diag << "cqlindex run: " << err << "\n";
    return Status::InputError;
  }
  ro.first_number = offset_ + part.first + 1;
  ro.progress = [&](uint64_t done) {
    file.release_before(bytes->begin + done);
    if (poll_) poll_();
  };
  std::function<bool(const pgn::GameInfo&, ScanResult&&)> placed = [&](const pgn::GameInfo& info,
                                                                      ScanResult&& r) {
    pgn::GameInfo moved = info;
    shift_to_part(moved.errors, *bytes);
    return this->deliver(moved, std::move(r));
  };
  pgn::for_each_game<ScanResult>(file.text().substr(bytes->begin, bytes->end - bytes->begin), ro, work_function(),
                                 placed);
  return shrunk_status(file);
}

Status RepositoryScan::shrunk_status(const pgn::PgnFile& file) {
  if (!file.shrunk()) return Status::Ok;
  *diag_ << "cqlindex run: " << file.path()
         << " changed while it was read (it is now shorter than when it was opened): run again once nothing "
            "writes to it\n";
  return Status::InputError;
}

Status RepositoryScan::replay_candidates(const store::IndexStore& index, const Roaring& to_read,
                                         const FilePart& part, const pgn::PgnFile* file,
                                         const pgn::RangeReader* ranges, const pgn::ReadOptions& ro) {
  std::ostream& diag = *diag_;
  std::string err;
  const std::function<ScanResult(const pgn::Game&, unsigned)> work = work_function();
  const std::function<bool(const pgn::GameInfo&, ScanResult&&)> deliver = deliver_function();
  const uint64_t seen_before = counts_.seen, messages_only_before = counts_.messages_only;
  counts_.narrowed = true;
  // The games to read in slices, each read by its byte ranges: memory follows the slice, not the answer.
  constexpr size_t kSlice = 8192;
  std::vector<pgn::GameSpan> spans;
  bool go_on = true;
  auto replay = [&] {
    if (spans.empty() || !go_on) return true;
    bool stopped = false;
    std::function<bool(const pgn::GameInfo&, ScanResult&&)> counted = [&](const pgn::GameInfo& info,
                                                                         ScanResult&& r) {
      stopped = !deliver(info, std::move(r));
      return !stopped;
    };
    const std::function<bool(const pgn::GameSpan&)> by_tags = [this](const pgn::GameSpan& s) {
      return read_by_tags(s);
    };
    // a served run in small batches: the workers run less far ahead of the delivery, so its page is seen full
    // after fewer games, and more of those past it are read by their tags alone
    const size_t batch = opt_.memory ? 16 : ro.batch_games;
    bool ok = replay_spans<ScanResult>(ranges, file ? file->text() : std::string_view(), spans, threads_, batch,
                                       by_tags, work, counted, &err);
    go_on = !stopped;
    spans.clear();
    counts_.read_by_tags = read_by_tags_count_.load(std::memory_order_relaxed);
    return ok;
  };
  // each slice's records read in one pass over the games family (IndexStore::games), in id order, the next slice
  // while this one is replayed
  CandidateSlices slices(index, to_read, offset_, games_, kSlice);
  while (go_on) {
    if (!slices.next(spans, &err)) {
      diag << "cqlindex run: " << err << "\n";
      return Status::InputError;
    }
    if (spans.empty()) break;
    if (!replay()) {
      diag << "cqlindex run: " << err << "\n";
      return Status::InputError;
    }
  }
  account_ruled_out(index, part, seen_before, messages_only_before);
  return Status::Ok;
}

void RepositoryScan::account_ruled_out(const store::IndexStore& index, const FilePart& part, uint64_t seen_before,
                                       uint64_t messages_only_before) {
  const uint64_t total = index.meta().game_count;
  const uint64_t first = std::min(part.first, total), games = std::min(part.end, total) - first;  // the part's
  const uint64_t evaluated = (counts_.seen - seen_before) - (counts_.messages_only - messages_only_before);
  // the games of this part inside the range (CQL reads one past its end, counted below)
  const int64_t room = games_ ? std::max<int64_t>(games_->max - int64_t(offset_ + first), 0) : int64_t(games);
  const uint64_t counted = std::min<uint64_t>(games, uint64_t(room));
  counts_.seen = seen_before + counted;
  counts_.read_past_range = games_ && int64_t(games) > room;
  finished_ = finished_ || counts_.read_past_range;
  counts_.evaluated_indexed += evaluated;
  counts_.games_indexed += counted;
  offset_ += total;
}

}  // namespace cqlindex::exec
