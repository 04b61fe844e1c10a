// The build pipeline: parallel parse -> per-thread sorted runs (one file per key range) -> per key range, on
// every core at once: k-way merge -> one SST per family -> ingest of each family's SSTs in one step -> game
// records and meta -> checksum manifest -> rename into place.
#include "indexer/index_builder.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <sys/resource.h>
#include <ctime>
#include <unistd.h>

#include "engine/pgn/game_splitter.h"
#include "indexer/build_step_times.h"
#include "indexer/build_workspace.h"
#include "indexer/game_features.h"
#include "indexer/index_location.h"
#include "indexer/position_merge.h"
#include "indexer/posting_runs.h"
#include "indexer/tag_key_directory.h"
#include "indexer/yacpdb_index.h"
#include "store/content_fingerprint.h"
#include "store/distinct_sketch.h"
#include "store/index_store.h"
#include "store/keys/explore_key.h"
#include "store/keys/flag_key.h"
#include "store/keys/piece_square_key.h"
#include "store/position_buckets.h"

namespace cqlindex::indexer {
namespace fs = std::filesystem;
namespace {

using store::keys::game_flag_key;
using store::keys::GameFlag;
using store::keys::kGameFlagCount;
using store::keys::piece_square_key;

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

// Waits until the PGN's time stamp is safely in the past, so that any later write gives it another one: a file
// written and indexed within one tick of its file system's clock could otherwise change under an unchanged time
// stamp, and an open trusts an unchanged one (store/README.md, "Freshness"). A whole-second time stamp may come
// from a file system that keeps only seconds (or two): the margin is then 2 s; else 100 ms, above any kernel tick.
void wait_out_timestamp_granularity(int64_t mtime_ns) {
  const int64_t margin = mtime_ns % 1'000'000'000 == 0 ? 2'000'000'000 : 100'000'000;
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  const int64_t age = int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec - mtime_ns;
  if (age < margin) std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(margin, margin - age)));
}

// Copies an index folder with hard links: RocksDB never rewrites a file in place, so the copy can be
// extended while the original stays valid until the copy replaces it.
bool link_copy(const std::string& from, const std::string& to, std::string* error) {
  std::error_code ec;
  fs::create_directory(to, ec);
  for (const auto& entry : fs::directory_iterator(from, ec)) {
    fs::create_hard_link(entry.path(), fs::path(to) / entry.path().filename(), ec);
    if (ec) fs::copy_file(entry.path(), fs::path(to) / entry.path().filename(), ec);
    if (ec) break;
  }
  if (ec) return fail(error, "cannot copy index " + from + ": " + ec.message());
  return true;
}

// Writes the marker that tells later builds the folder is an index they may replace (index_location.h).
bool write_marker(const std::string& dir, std::string* error) {
  const std::string path = dir + "/" + kIndexMarkerName;
  std::error_code ec;
  fs::remove(path, ec);  // after link_copy a hard link to the old index's marker: never written through
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << "cqlindex index: a later 'cqlindex build' may replace this folder\n";
  out.close();
  if (!out) return fail(error, "cannot write " + path);
  return true;
}

// Where an --append starts reading. The last indexed game may have been cut short (the PGN was still being
// written): the appended bytes then continue it, and a read of the whole file sees another last game.
struct AppendStart {
  bool last_game_changed = false;  // the last indexed game is not what a read of the whole file sees: rebuild
  uint64_t offset = 0;             // else: where the first appended game starts
  uint32_t last_length = 0;        // the last indexed game's length in the whole file (trailing blanks added)
};

// Returns where the games appended after the indexed ones start in `all` (the whole PGN), by splitting again
// from the start of the last indexed game, as a read of the whole file splits; nullopt (with `error`) when the
// index cannot say where that game starts.
std::optional<AppendStart> find_append_start(const store::IndexStore& old, std::string_view all, std::string* error) {
  const store::IndexMeta& meta = old.meta();
  AppendStart start;
  if (meta.game_count == 0) {  // nothing but blanks or comments indexed: cheaper to read it all again
    start.last_game_changed = true;
    return start;
  }
  auto last = old.game(meta.game_count - 1, error);
  if (!last) return std::nullopt;
  if (last->offset > meta.pgn_size || last->offset + last->length != meta.pgn_size) {
    start.last_game_changed = true;  // an index of an older layout; a rebuild is always right
    return start;
  }
  pgn::GameSplitter splitter(all.substr(last->offset));
  pgn::GameSpan span;
  const bool found = splitter.next(span);
  // Unchanged when the same bytes make the game, plus at most blanks (a line end cut in two, the blank line
  // before the next game): a game's parse does not depend on blanks after it.
  const uint64_t end = last->offset + span.length;
  start.last_game_changed = !found || span.offset != 0 || span.length < last->length ||
                            all.substr(meta.pgn_size, end - meta.pgn_size).find_first_not_of(" \t\r\n") !=
                                std::string_view::npos;
  start.offset = end;
  start.last_length = static_cast<uint32_t>(span.length);
  return start;
}

// Returns the 1-based column of byte `offset` of `text` (bytes since the last line end).
uint32_t column_at(std::string_view text, uint64_t offset) {
  uint64_t start = offset;
  while (start > 0 && text[start - 1] != '\n' && text[start - 1] != '\r') --start;
  return static_cast<uint32_t>(offset - start + 1);
}

// Returns the number of line ends (LF, CRLF or a lone CR, as the PGN reader counts them) in `text`.
uint32_t line_ends(std::string_view text) {
  uint32_t lines = 0;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++lines;
  return lines;
}

// True if `game` (read mainline only from `text`) has PGN errors or warnings as a full read reports them: a
// game with variations is read again in full, since the mainline-only read skips the errors inside them.
bool has_pgn_problem(std::string_view text, const pgn::Game& game) {
  if (!game.errors.empty()) return true;
  const std::string_view bytes = text.substr(game.offset, game.length);
  // Variations are in the movetext, after the last tag: a '(' in a tag value ("Hastings (ENG)", in four games of
  // five of the train file) made every such game parsed twice.
  size_t movetext = 0;
  if (!game.tags.empty()) {
    const char* tag_end = game.tags.back().raw_value.data() + game.tags.back().raw_value.size();
    if (tag_end >= bytes.data() && tag_end <= bytes.data() + bytes.size()) movetext = size_t(tag_end - bytes.data());
  }
  if (bytes.find('(', movetext) == std::string_view::npos) return false;
  pgn::Game full;
  pgn::parse_game(bytes, pgn::GameLocation{game.number, game.offset, game.first_line, game.first_col}, full);
  return !full.errors.empty();
}

// How a build fits in memory: its workers, the limits each works under, and the read buffers of a merge.
struct MemoryPlan {
  unsigned workers;
  BuildLimits limits;         // the options' limits, lowered to fit an address-space limit
  size_t merge_buffer_bytes;  // what the runs one thread merges at once are read through, together
};

// The one place that decides a build's memory. `threads` workers (0: every core) under `limits` (sorted runs of
// at most run_postings postings, merges of at most merge_fan_in runs, bitmaps spilled every bitmap_games games),
// which bound the build whatever its input. Under an address-space limit (ulimit -v) the plan also fits what the
// limit leaves beside a base of about 64 MB (code, libraries, RocksDB) and the mapped PGN of `mapped_bytes`:
// about 48 MB per worker (its stack's reservation, parse batches, its bitmaps, its share of RocksDB), whose run
// buffers (72 bytes of address space a posting at the peak of a flush, an allowance: a position takes 8;
// another posting 12 and its share of its key's bytes and table slot, which a key of many postings spreads thin)
// together take a third of what is left, as do the read buffers of the runs they merge; the limits are
// lowered to that, never raised. A build then fits, or fails with a message.
MemoryPlan plan_memory(unsigned threads, const BuildLimits& limits, uint64_t mapped_bytes) {
  constexpr size_t kLeastPostings = size_t(1) << 12, kBytesPerPosting = 72;
  constexpr uint64_t kBase = uint64_t(64) << 20, kPerWorker = uint64_t(48) << 20;
  // a worker's bitmaps: at most a bit a game in each of about 800 lists, kept to a third of its 48 MB
  constexpr uint32_t kBitmapGamesPerWorker = uint32_t(1) << 17;
  const unsigned wanted = pgn::resolve_threads(threads);
  MemoryPlan plan{wanted, limits, std::max<size_t>(limits.merge_fan_in, 2) * kRunReadBuffer};
  plan.limits.run_postings = std::min(limits.run_postings, std::max(kRunBudgetPostings / wanted, kLeastPostings));
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY) return plan;
  const uint64_t used = kBase + mapped_bytes;
  const uint64_t left = uint64_t(as.rlim_cur) > used ? uint64_t(as.rlim_cur) - used : 0;
  plan.workers = unsigned(std::clamp<uint64_t>(left / kPerWorker, 1, wanted));
  const uint64_t third = left / 3 / plan.workers;  // a worker's run buffers; its merges' read buffers
  plan.limits.run_postings =
      std::min(plan.limits.run_postings, std::max<size_t>(size_t(third / kBytesPerPosting), kLeastPostings));
  plan.limits.bitmap_games = std::min(limits.bitmap_games, kBitmapGamesPerWorker);
  plan.merge_buffer_bytes =
      std::min<uint64_t>(plan.merge_buffer_bytes, std::max<uint64_t>(third, 2 * kLeastRunReadBuffer));
  // as many runs at once as get the least read buffer each; more are merged in rounds
  plan.limits.merge_fan_in = std::clamp<size_t>(plan.merge_buffer_bytes / kLeastRunReadBuffer, 2,
                                                std::max<size_t>(limits.merge_fan_in, 2));
  return plan;
}

// The SST files a build wrote, by family, each list in key order (what IndexStore::ingest_files takes).
using FamilyFiles = std::map<store::Family, std::vector<std::string>>;

// Writes the piecesq and flags families from the workers' bitmaps (in memory and spilled) into SST files (added
// to `files`), one list at a time: the memory is that of one list, whatever the number of games.
bool write_bitmaps(store::IndexStore& store, store::IndexStore::Ingest mode,
                   const std::vector<std::unique_ptr<WorkerPostings>>& workers, FamilyFiles& files,
                   std::string* error) {
  // Each family's keys, in key order, with their list's place in WorkerPostings::bitmap_lists().
  auto write = [&](store::Family family, std::vector<std::pair<std::string, size_t>> keys) {
    std::sort(keys.begin(), keys.end());
    size_t i = 0;
    bool read_ok = true;
    auto path = store.write_sst(family, mode, [&](std::string& key, std::string& value) {
      for (; i < keys.size() && read_ok; ++i) {
        Roaring bits;
        for (const auto& w : workers) {
          bits |= *w->bitmap_lists()[keys[i].second];
          read_ok = read_ok && w->spill.union_into(keys[i].second, bits, error);
        }
        if (bits.isEmpty() || !read_ok) continue;
        key = keys[i].first;
        value = store::PostingList(std::move(bits)).encode();
        ++i;
        return true;
      }
      return false;
    }, error);
    if (path) files[family].push_back(*path);
    return path.has_value() && read_ok;
  };
  std::vector<std::pair<std::string, size_t>> squares;
  for (int p = chess::W_PAWN; p <= chess::B_KING; ++p) {
    if (chess::type_of(chess::Piece(p)) == chess::NO_PIECE_TYPE || chess::type_of(chess::Piece(p)) > chess::KING)
      continue;
    for (int sq = 0; sq < 64; ++sq) squares.emplace_back(piece_square_key(chess::Piece(p), chess::Square(sq)), p * 64 + sq);
  }
  std::vector<std::pair<std::string, size_t>> flags;
  for (size_t f = 0; f < kGameFlagCount; ++f)
    flags.emplace_back(std::string(game_flag_key(GameFlag(f))), WorkerPostings::kPieceSquareLists + f);
  return write(store::Family::PieceSquare, std::move(squares)) && write(store::Family::Flags, std::move(flags));
}

// Yields the similar family's entries, one per bucket, from the position hashes a merger reads in order.
class BucketFeed {
 public:
  BucketFeed(PositionMerge& positions, unsigned bucket_bits) : positions_(positions), bucket_bits_(bucket_bits) {
    advance();
  }
  // Fills the next bucket's key and value; false when the merge has no more positions.
  bool next(std::string& key, std::string& value) {
    if (!pending_) return false;
    const uint32_t bucket = store::position_bucket(hash_, bucket_bits_);
    while (pending_ && store::position_bucket(hash_, bucket_bits_) == bucket) {
      writer_.add(store::position_tag(hash_), games_);
      advance();
    }
    key = store::bucket_key(bucket);
    value = writer_.take();
    return true;
  }

 private:
  void advance() { pending_ = positions_.next(hash_, games_); }
  PositionMerge& positions_;
  unsigned bucket_bits_;
  std::vector<uint32_t> games_;
  uint64_t hash_ = 0;
  bool pending_ = false;
  store::PositionBucketWriter writer_;
};

// Returns whether an --append that grows the indexed PGN to `new_size` bytes would grow the similar family's
// buckets past twice their planned size (store/position_buckets.h: similar_bucket_bits, aiming at an average
// bucket of `bucket_bytes`): the index is then
// rebuilt with more buckets. The positions appended are estimated from the bytes appended, before they are read.
// Each such rebuild at least doubles the family, so appends stay amortised linear, like a growing array.
bool similar_buckets_outgrown(const store::IndexMeta& meta, uint64_t new_size, uint64_t bucket_bytes) {
  if (meta.pgn_size == 0 || new_size <= meta.pgn_size) return false;
  const auto sketch = store::DistinctSketch::from_text(meta.distinct_sketch);
  const uint64_t distinct = sketch ? sketch->estimate() : meta.position_count;
  const auto postings = static_cast<uint64_t>(double(meta.position_count) * double(new_size) / double(meta.pgn_size));
  return store::similar_bucket_bits(distinct + (postings - meta.position_count), postings, bucket_bytes) >
         meta.similar_bucket_bits + 1;
}

// Merges the runs of one key range into SST files, one per family the range holds (added to `files`).
bool write_range(store::IndexStore& store, store::IndexStore::Ingest mode, unsigned bucket_bits, size_t fan_in,
                 size_t buffer_bytes, const std::string& runs_dir, size_t range, std::vector<std::string> runs,
                 FamilyFiles& files, std::string* error) {
  if (!reduce_runs(runs, fan_in, buffer_bytes, runs_dir, "merged-p" + std::to_string(range), error,
                   holds_positions(range) ? RunContent::Positions : RunContent::Any))
    return false;
  if (holds_positions(range)) {  // the similar family's buckets, from its runs merged by slices
    PositionMerge positions;
    if (!positions.open(runs, error, buffer_bytes)) return false;
    BucketFeed buckets(positions, bucket_bits);
    auto path = store.write_sst(store::Family::Similar, mode,
                                [&](std::string& key, std::string& value) { return buckets.next(key, value); }, error);
    if (!path) return false;
    if (!positions.error().empty()) return fail(error, positions.error());
    if (!path->empty()) files[store::Family::Similar].push_back(*path);
    return true;
  }
  RunMerger merger;
  if (!merger.open(runs, error, buffer_bytes)) return false;
  std::vector<uint32_t> games;
  while (merger.has_next()) {
    const store::Family family = merger.family();
    auto path = store.write_sst(family, mode, [&](std::string& key, std::string& value) {
      if (!merger.has_next() || merger.family() != family) return false;
      merger.next(key, games);
      store::PostingList::encode_sorted_to(games, value);
      return true;
    }, error);
    if (!path) return false;
    files[family].push_back(*path);
  }
  return true;
}

// The PGN a build reads: the facts an open recognises it by (taken before any byte is read), its mapping, and
// the hashes of its contents.
struct SourcePgn {
  PgnIdentity identity;
  std::unique_ptr<pgn::PgnFile> file;
  std::string_view all;  // the whole file
  std::future<std::pair<std::optional<uint64_t>, std::string>> fingerprint;  // the whole file's hash, or why not
  uint64_t sample_hash = 0;
};

// Returns the hash of the PGN's `size` bytes at `path`, or nullopt and why.
std::pair<std::optional<uint64_t>, std::string> hash_pgn(const std::string& path, uint64_t size) {
  std::string why;
  auto hash = store::fingerprint_file_prefix(path, size, &why);
  return {hash, why};
}

// Returns the whole file's hash that start_fingerprint started, once it is done; nullopt (with `error`) when the file
// could not be read.
std::optional<uint64_t> source_fingerprint(SourcePgn& source, std::string* error) {
  auto [hash, why] = source.fingerprint.get();
  if (!hash) fail(error, why);
  return hash;
}

// Returns the mapped PGN with its identity and hashes, or nullopt (with `error`).
std::optional<SourcePgn> open_source(const std::string& pgn_path, std::string* error) {
  std::string why;
  SourcePgn source;
  const auto identity = pgn_identity(pgn_path, &why);
  if (!identity) return fail(error, why), std::nullopt;
  source.identity = *identity;
  wait_out_timestamp_granularity(identity->mtime_ns);
  source.file = pgn::PgnFile::open(pgn_path, &why);
  if (!source.file) return fail(error, why), std::nullopt;
  source.all = source.file->text();
  if (source.all.size() != identity->size)
    return fail(error, pgn_path + " changed while it was being indexed: build again when it is written"), std::nullopt;
  // Read through its own small buffer: the mapped pages are handed back as the parse goes on.
  auto sample_hash = store::fingerprint_file_samples(pgn_path, source.all.size(), &why);
  if (!sample_hash) return fail(error, why), std::nullopt;
  source.sample_hash = *sample_hash;
  return source;
}

// Starts hashing the whole file on its own thread, to run while the games are parsed (a pass over it that ran
// alone). Called once the workspace exists: the thread then inherits the building thread's mask, which leaves
// SIGINT/SIGTERM/SIGHUP to the workspace's watcher (a thread that took one would end the build with the workspace
// left behind).
void start_fingerprint(SourcePgn& source, const std::string& pgn_path) {
  const uint64_t size = source.all.size();
  try {
    source.fingerprint = std::async(std::launch::async, hash_pgn, pgn_path, size);
  } catch (const std::system_error&) {  // no more threads from the system (ulimit -v): hashed when asked
    source.fingerprint = std::async(std::launch::deferred, hash_pgn, pgn_path, size);
  }
}

// What a build indexes this time: the whole file, or for --append the games after the indexed ones.
struct BuildPlan {
  store::IndexMeta meta;  // the old index's meta on --append, else empty
  bool append = false;
  uint64_t base_offset = 0;  // where the bytes indexed this time start
  uint32_t first_id = 0;     // the first game id they get
  bool extend_yacpdb = false;  // --append of a problem file's index: the yacpdb family grows too
  bool explore = false;        // the explore family is filed (build --explore, or an --append to an index that has it)
  std::optional<std::pair<uint32_t, store::GameRecord>> last_record;  // --append: the last game, grown by blanks
};

// Forgets an --append: the whole index is built again, for the reason `note` gives.
void rebuild_whole(BuildPlan& plan, BuildSummary& out, std::string note) {
  plan.append = false;
  plan.meta = store::IndexMeta{};
  plan.base_offset = 0;
  plan.first_id = 0;
  out.appended = false;
  out.note = std::move(note);
}

// Returns what the build indexes (an --append checks the old index and may turn into a whole build, saying why
// in `out.note`), or nullopt (with `error`) when it cannot go on.
std::optional<BuildPlan> plan_build(const std::string& pgn_path, const std::string& dir, const BuildOptions& options,
                                    std::string_view all, bool yaml_only, uint64_t bucket_bytes, BuildSummary& out,
                                    std::string* error) {
  BuildPlan plan;
  plan.append = options.append;
  plan.explore = options.explore;
  if (!plan.append) return plan;
  std::string why;
  auto old = open_index_for_reading(dir, &why);
  if (!old) return fail(error, why + " (build without --append to make a new index)"), std::nullopt;
  plan.meta = old->meta();
  const store::IndexMeta& meta = plan.meta;
  // The whole indexed prefix, not the samples a query checks: the index is extended only over the very bytes
  // it describes.
  auto freshness = check_freshness_in_full(meta, pgn_path, &why);
  if (!freshness) return fail(error, why), std::nullopt;
  if (*freshness == Freshness::Stale)
    return fail(error, pgn_path + " has changed, not only grown, since it was indexed: build without --append"),
           std::nullopt;
  // A problem file's index is extended in the same layout, the yacpdb family included; one without it (or of
  // an older layout) cannot gain it for the entries already indexed.
  const bool has_yacpdb = meta.build_options.find(kYacpdbBuildMarker) != std::string::npos;
  if (meta.build_options.find(kYacpdbBuildMarkerPrefix) != std::string::npos && !has_yacpdb)
    return fail(error, "the index of " + pgn_path + " holds the YACPDB instances in an older layout: build without "
                                                    "--append"), std::nullopt;
  if ((yaml_only || options.yacpdb) && !has_yacpdb)
    return fail(error, "the index of " + pgn_path + " holds no YACPDB instances: build without --append (with "
                                                    "--yacpdb) to add them"), std::nullopt;
  plan.extend_yacpdb = has_yacpdb;
  // the explore family covers every game or none: an --append goes on as the index was built
  const bool has_explore = store::keys::files_explore(meta.build_options);
  if (options.explore && !has_explore)
    return fail(error, "the index of " + pgn_path + " has no explore family: build without --append (with "
                                                    "--explore) to add it"), std::nullopt;
  plan.explore = has_explore;
  plan.base_offset = meta.pgn_size;
  plan.first_id = meta.game_count;
  out.appended = true;
  // (YAML entries are checked otherwise: the indexed ones must read as they did, same_indexed_entries.)
  if (!yaml_only && plan.base_offset < all.size()) {
    auto start = find_append_start(*old, all, &why);
    if (!start) return fail(error, why + ": build without --append"), std::nullopt;
    if (start->last_game_changed) {
      // The index must hold the games a read of the whole file sees: the old last game is not one of them.
      rebuild_whole(plan, out, "the last game indexed was incomplete (" + pgn_path +
                                   " was still being written) and the appended bytes continue it: the whole index "
                                   "is rebuilt");
    } else {
      plan.base_offset = start->offset;
      if (auto record = old->game(plan.first_id - 1, &why); record && record->length != start->last_length) {
        record->length = start->last_length;
        plan.last_record.emplace(plan.first_id - 1, *record);
      }
    }
  }
  if (plan.append && !yaml_only && similar_buckets_outgrown(plan.meta, all.size(), bucket_bytes))
    rebuild_whole(plan, out, "the appended games would make the similar family's buckets more than twice their "
                             "planned size: the whole index is rebuilt with more buckets");
  return plan;
}

// Where the indexed tail starts in the file, as the game records count lines and columns from the file's start.
struct TailStart {
  uint32_t lines_before = 0;  // line ends before the tail
  uint32_t col_shift = 0;     // columns before the tail's first byte on its line
};

// Returns where the tail at `base_offset` starts; hands the prefix's pages of `file` back as they are counted.
TailStart tail_start(pgn::PgnFile& file, std::string_view all, uint64_t base_offset) {
  TailStart tail;
  // The reader counts columns from the tail's start, which may be mid-line (once: a scan back to the line start
  // for every game made a file without line ends quadratic).
  tail.col_shift = column_at(all, base_offset) - 1;
  // The reader counts lines from the tail; the prefix's pages are handed back as they are counted (an append
  // to a large file must not keep it all resident). A CR at a chunk's end is counted with the next chunk.
  for (uint64_t at = 0, chunk = uint64_t{64} << 20; at < base_offset; at += chunk) {
    const uint64_t end = std::min<uint64_t>(base_offset, at + chunk);
    tail.lines_before += line_ends(all.substr(at, end - at));
    if (end < base_offset && all[end - 1] == '\r' && all[end] == '\n') --tail.lines_before;
    file.release_before(end);
  }
  return tail;
}

// What the steps of indexing the games share.
struct GamesStep {
  const BuildOptions& options;
  SourcePgn& source;
  BuildPlan& plan;
  store::IndexStore& store;
  std::string runs_dir;
  uint64_t bucket_bytes;
  BuildSummary& out;
  uint64_t games = 0;  // games read
};

// Parses the games after the plan's base offset on every core: each game's postings go to its worker's sorted
// runs and bitmaps (index_game, game_features.h: where a new family's per-game, per-position hook goes), its
// record to the games family in batches. Returns the workers' postings, or nullopt (with `error`).
std::optional<std::vector<std::unique_ptr<WorkerPostings>>> parse_games(GamesStep& step, const MemoryPlan& memory,
                                                                       double& busiest_thread, std::string* error) {
  const std::string_view text = step.source.all.substr(step.plan.base_offset);
  const TailStart tail = tail_start(*step.source.file, step.source.all, step.plan.base_offset);
  pgn::ReadOptions read;
  read.threads = memory.workers;
  // Memory independent of size: the parsed pages are handed back 32 MiB at a time (each madvise interrupts
  // every core to flush its TLB: once a batch of games, it took 3 % of a build).
  uint64_t released = 0;
  read.progress = [&](uint64_t done) {
    if (done < released + (uint64_t{32} << 20) && done < text.size()) return;
    step.source.file->release_before(step.plan.base_offset + done);
    released = done;
  };
  // Only mainline positions are indexed. A game cut short by an error inside a variation keeps its whole
  // mainline here: the index may then list a game for more positions than a query sees, never fewer.
  read.parse.mainline_only = true;
  std::vector<std::unique_ptr<WorkerPostings>> writers;
  for (unsigned w = 0; w < read.threads; ++w)
    writers.push_back(std::make_unique<WorkerPostings>(
        RunWriter(step.runs_dir, std::to_string(w), memory.limits.run_postings),
        BitmapSpill(step.runs_dir + "/bitmaps-" + std::to_string(w)), memory.limits.bitmap_games));
  for (auto& writer : writers) writer->explore = step.plan.explore;

  const uint32_t first_id = step.plan.first_id;
  // (CQLINDEX_BUILD_TIMES: each worker's CPU, read every few games; a clock read costs a system call)
  const bool timed = step_times_wanted();
  std::vector<double> worker_cpu(read.threads, 0.0);
  std::vector<std::pair<uint32_t, store::GameRecord>> records;
  bool write_ok = true;
  std::string write_error;
  step.out.read = pgn::for_each_game<IndexedGame>(
      text, read,
      [&](const pgn::Game& game, unsigned worker) {
        const uint32_t id = first_id + static_cast<uint32_t>(game.number - 1);
        if (has_pgn_problem(text, game)) writers[worker]->flags[size_t(GameFlag::PgnProblem)].add(id);
        IndexedGame indexed = index_game(game, id, step.plan.base_offset, *writers[worker]);
        if (timed && game.number % 16 == 0) worker_cpu[worker] = thread_cpu_seconds();
        return indexed;
      },
      [&](const pgn::GameInfo& info, IndexedGame&& indexed) {
        if (!info.errors.empty() && step.options.on_problem) step.options.on_problem(info);
        indexed.record.first_line = tail.lines_before + info.first_line;
        indexed.record.first_col = info.first_col + (info.first_line == 1 ? tail.col_shift : 0);
        records.emplace_back(first_id + static_cast<uint32_t>(info.number - 1), indexed.record);
        step.out.positions += indexed.positions;
        ++step.games;
        if (records.size() >= 8192) {
          write_ok = step.store.put_games(records, &write_error);
          records.clear();
        }
        if (step.options.progress && step.games % 4096 == 0)
          step.options.progress(info.offset + info.length, text.size());
        return write_ok;
      });
  if (write_ok && !records.empty()) write_ok = step.store.put_games(records, &write_error);
  if (!write_ok) return fail(error, write_error), std::nullopt;
  for (auto& w : writers)
    if (!w->spill_ok) return fail(error, w->spill_error), std::nullopt;
  busiest_thread = *std::max_element(worker_cpu.begin(), worker_cpu.end());
  return writers;
}

// Sorts and writes the workers' last runs on every core at once (one after the other, on one core, they were the
// longest serial stretch of a build). False (with `error`) when a run cannot be written.
bool finish_runs(const std::vector<std::unique_ptr<WorkerPostings>>& writers, double& busiest_thread,
                 std::string* error) {
  std::vector<std::string> why(writers.size());
  std::vector<char> finished(writers.size(), 0);
  std::vector<double> cpu(writers.size(), 0.0);
  auto finish = [&](size_t w) {
    const double start = thread_cpu_seconds();
    finished[w] = writers[w]->runs.finish(&why[w]);
    cpu[w] = thread_cpu_seconds() - start;
  };
  {
    std::vector<std::jthread> helpers;
    size_t w = 1;
    for (; w < writers.size(); ++w) {
      try {
        helpers.emplace_back(finish, w);
      } catch (const std::system_error&) {  // no more threads from the system (ulimit -v): this thread does it
        break;
      }
    }
    for (; w < writers.size(); ++w) finish(w);
    finish(0);
  }
  for (size_t w = 0; w < writers.size(); ++w)
    if (!finished[w]) return fail(error, why[w]);
  busiest_thread = *std::max_element(cpu.begin(), cpu.end());
  return true;
}

// Chooses the similar family's bucket count once, from the whole build's distinct positions (an --append keeps
// it), and records the merged sketch in the plan's meta.
void choose_buckets(GamesStep& step, const std::vector<std::unique_ptr<WorkerPostings>>& writers) {
  store::IndexMeta& meta = step.plan.meta;
  store::DistinctSketch sketch =
      store::DistinctSketch::from_text(meta.distinct_sketch).value_or(store::DistinctSketch{});
  for (auto& w : writers) sketch.merge(w->distinct);
  meta.distinct_sketch = sketch.to_text();
  if (!step.plan.append)
    meta.similar_bucket_bits =
        step.options.bucket_bits
            ? std::clamp(step.options.bucket_bits, store::kMinBucketBits, store::kMaxBucketBits)
            : store::similar_bucket_bits(sketch.estimate(), step.out.positions, step.bucket_bytes);
}

// Merges every key range's runs and writes the bitmap families, as SST files written on every core at once (the
// key ranges and the bitmap families are independent). Returns the files by family, each family's in key order,
// or nullopt (with `error`).
std::optional<FamilyFiles> write_families(GamesStep& step, const MemoryPlan& memory,
                                          const std::vector<std::unique_ptr<WorkerPostings>>& writers,
                                          double& busiest_thread, std::string* error) {
  const auto mode = step.plan.append ? store::IndexStore::Ingest::Merge : store::IndexStore::Ingest::Put;
  std::vector<FamilyFiles> task_files(kRunPartitions + 1);
  std::vector<std::string> task_errors(kRunPartitions + 1);
  std::atomic<size_t> next_task{0};
  std::atomic<bool> failed{false};
  std::mutex cpu_mutex;
  auto work = [&] {
    const double cpu_start = thread_cpu_seconds();
    struct Measure {  // the thread's CPU in this step, as it leaves
      std::mutex& m;
      double start;
      double& busiest;
      ~Measure() {
        std::lock_guard lock(m);
        busiest = std::max(busiest, thread_cpu_seconds() - start);
      }
    } measure{cpu_mutex, cpu_start, busiest_thread};
    while (!failed) {
      const size_t t = next_task++;
      if (t >= task_files.size()) return;
      bool ok;
      if (t < kRunPartitions) {
        std::vector<std::string> range_runs;
        for (auto& w : writers) range_runs.insert(range_runs.end(), w->runs.runs(t).begin(), w->runs.runs(t).end());
        ok = write_range(step.store, mode, step.plan.meta.similar_bucket_bits, memory.limits.merge_fan_in,
                         memory.merge_buffer_bytes, step.runs_dir, t, std::move(range_runs), task_files[t],
                         &task_errors[t]);
      } else {
        ok = write_bitmaps(step.store, mode, writers, task_files[t], &task_errors[t]);
      }
      if (!ok) failed = true;
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (unsigned i = 1; i < std::min<size_t>(writers.size(), task_files.size()); ++i) {
      try {
        helpers.emplace_back(work);
      } catch (const std::system_error&) {  // no more threads from the system (ulimit -v): fewer do it all
        break;
      }
    }
    work();
  }
  for (const std::string& e : task_errors)
    if (!e.empty()) return fail(error, e), std::nullopt;
  if (failed) return fail(error, "cannot write the index"), std::nullopt;
  FamilyFiles files;
  for (auto& task : task_files)
    for (auto& [family, paths] : task) files[family].insert(files[family].end(), paths.begin(), paths.end());
  return files;
}

// Indexes the games: parse into runs, merge into SST files, ingest them. Returns false (with `error`) on failure.
bool index_games(GamesStep& step, StepClock& clock, std::string* error) {
  const MemoryPlan memory = plan_memory(step.options.threads, step.options.limits, step.source.all.size());
  double busiest = 0;
  auto writers = parse_games(step, memory, busiest, error);
  if (!writers) return false;
  clock.lap("parse_games", busiest);
  if (!finish_runs(*writers, busiest, error)) return false;
  clock.lap("finish_runs", busiest);
  choose_buckets(step, *writers);
  clock.lap("choose_buckets");
  busiest = 0;
  auto files = write_families(step, memory, *writers, busiest, error);
  if (!files) return false;
  clock.lap("write_families", busiest);
  std::string why;
  const auto mode = step.plan.append ? store::IndexStore::Ingest::Merge : store::IndexStore::Ingest::Put;
  if (!step.store.ingest_files(*files, mode, &why)) return fail(error, why);
  clock.lap("ingest");
  return true;
}

// Problem files: stores the YACPDB predicate instances of every entry (--append: of the entries after the
// indexed ones, which must still read as they did; the file is read whole, only the new entries are analysed).
// `games` is the games read (set here for a YAML file, which has no game families). False (with `error`).
bool index_problems(const std::string& pgn_path, const BuildOptions& options, const BuildPlan& plan, bool yaml_only,
                    store::IndexStore& store, uint64_t& games, BuildSummary& out, std::string* error) {
  std::string why;
  yacpdb::ProblemFile problems = yacpdb::read_problem_file(pgn_path);
  if (options.on_problem_text)
    for (const std::string& e : problems.errors) options.on_problem_text(e);
  if (plan.append && !same_indexed_entries(store, problems, plan.first_id, &why))
    return fail(error, pgn_path + ": " + why + ": build without --append");
  const uint32_t entries = static_cast<uint32_t>(problems.problems.size());
  const auto instances = analyse_problems(problems, options.threads, plan.first_id);
  if (!(plan.append ? append_yacpdb_family(store, problems, plan.first_id, instances, &why)
                    : write_yacpdb_family(store, problems, instances, &why)))
    return fail(error, why);
  if (yaml_only) games = entries - plan.first_id;
  if (entries != plan.first_id + games)  // queries number entries as the game families number games
    return fail(error, pgn_path + ": " + std::to_string(entries) + " problems read, but " +
                           std::to_string(plan.first_id + games) +
                           " games: the file cannot be indexed as a problem file");
  out.entries = entries - plan.first_id;
  return true;
}

// Returns the phase of --phases a build step belongs to (0: parse and sort into runs, 1: merge and write SST
// files, 2: everything after), or nullopt for the steps before the parse, which no phase counts.
std::optional<size_t> phase_of(std::string_view step) {
  if (step == "open_source" || step == "plan_build") return std::nullopt;
  if (step == "parse_games" || step == "finish_runs" || step == "choose_buckets") return 0;
  if (step == "write_families") return 1;
  return 2;
}

// Returns the meta of the finished index: the plan's, with the PGN's facts and this build's counts.
store::IndexMeta final_meta(const std::string& pgn_path, const SourcePgn& source, uint64_t fingerprint,
                            const BuildPlan& plan, uint64_t games, uint64_t positions, bool with_yacpdb) {
  store::IndexMeta meta = plan.meta;
  std::error_code ec;
  meta.pgn_path = fs::absolute(pgn_path, ec).string();
  meta.pgn_size = source.all.size();
  meta.pgn_mtime_ns = source.identity.mtime_ns;
  meta.pgn_device = source.identity.device;
  meta.pgn_inode = source.identity.inode;
  meta.pgn_fingerprint = fingerprint;
  meta.pgn_sample_hash = source.sample_hash;
  meta.game_count = plan.first_id + static_cast<uint32_t>(games);
  meta.position_count += positions;
  if (meta.distinct_sketch.empty()) meta.distinct_sketch = store::DistinctSketch{}.to_text();  // problem files
  // (--append keeps an older index's lack of the mark: its first games were not marked)
  const bool problems_marked = !plan.append || plan.meta.build_options.find(kPgnProblemMarker) != std::string::npos;
  meta.build_options = "similarity-keys=v3";  // v3: as many position buckets of XXH3 hashes as the family needs
  if (problems_marked) meta.build_options += ";" + std::string(kPgnProblemMarker);
  if (with_yacpdb) meta.build_options += ";" + std::string(kYacpdbBuildMarker);
  if (plan.explore) meta.build_options += ";" + std::string(store::keys::kExploreBuildMarker);
  return meta;
}

}  // namespace

bool build_index(const std::string& pgn_path, const BuildOptions& options, BuildSummary* summary,
                 std::string* error) {
  std::string dir = options.index_dir.empty() ? default_index_dir(pgn_path) : options.index_dir;
  BuildSummary local;
  BuildSummary& out = summary ? *summary : local;
  out = BuildSummary{};
  out.index_dir = dir;
  const uint64_t bucket_bytes = options.bucket_bytes ? options.bucket_bytes : store::kBucketBytes;
  // Nothing but an index this tool built is ever replaced (a folder or file named by mistake stays as it is).
  if (std::string problem = index_target_problem(dir, pgn_path); !problem.empty()) return fail(error, problem);
  std::error_code ec;
  if (fs::is_symlink(dir, ec)) dir = fs::canonical(dir, ec).string();  // the link keeps pointing at the index

  std::string why;
  StepClock clock;
  auto source = open_source(pgn_path, error);
  if (!source) return false;
  clock.lap("open_source");
  auto workspace = BuildWorkspace::create(dir, &why);
  if (!workspace) return fail(error, why);
  start_fingerprint(*source, pgn_path);
  // A YAML problem file has only the yacpdb family (and meta); a PGN one (--yacpdb) the game families as well.
  const bool yaml_only = yacpdb::is_yaml_file(pgn_path);
  auto plan = plan_build(pgn_path, dir, options, source->all, yaml_only, bucket_bytes, out, error);
  if (!plan) return false;

  const std::string tmp = workspace->index_dir();
  std::unique_ptr<store::IndexStore> store;
  if (plan->append) {
    if (!link_copy(dir, tmp, error)) return false;
    store = store::IndexStore::open_for_writing(tmp, &why);
  } else {
    store = store::IndexStore::create(tmp, &why);
  }
  if (!store) return fail(error, why);
  if (plan->last_record && !store->put_games({*plan->last_record}, &why)) return fail(error, why);
  clock.lap("plan_build");

  GamesStep step{options, *source, *plan, *store, workspace->runs_dir(), bucket_bytes, out};
  if (!yaml_only && !index_games(step, clock, error)) return false;
  if (!yaml_only && !write_tag_key_directory(*store, plan->first_id + step.games, error)) return false;
  if (!yaml_only) clock.lap("tag_key_directory");
  const bool with_yacpdb = yaml_only || options.yacpdb || plan->extend_yacpdb;
  if (with_yacpdb && !index_problems(pgn_path, options, *plan, yaml_only, *store, step.games, out, error))
    return false;
  if (with_yacpdb) clock.lap("index_problems");

  const auto fingerprint = source_fingerprint(*source, error);
  if (!fingerprint) return false;
  const store::IndexMeta meta =
      final_meta(pgn_path, *source, *fingerprint, *plan, step.games, out.positions, with_yacpdb);
  if (!write_marker(tmp, error)) return false;
  // A write during the build gave the PGN another time stamp: what was indexed may not be what is there.
  const auto after = pgn_identity(pgn_path, &why);
  if (!after) return fail(error, why);
  if (after->size != source->identity.size || after->mtime_ns != source->identity.mtime_ns ||
      after->inode != source->identity.inode)
    return fail(error, pgn_path + " changed while it was being indexed: build again when it is written");
  if (!store->put_meta(meta, &why)) return fail(error, why);
  clock.lap("final_meta");
  if (!store->finish(&why)) return fail(error, why);
  store.reset();
  clock.lap("finish_store");  // flush, compaction of merged families, checksum manifest
  const uint64_t tail_bytes = source->all.size() - plan->base_offset;
  if (options.progress) options.progress(tail_bytes, tail_bytes);
  if (!workspace->publish(error)) return false;
  out.games = meta.game_count;
  out.new_games = step.games;
  clock.lap("publish");
  out.steps = clock.steps();
  for (const StepTime& t : out.steps)
    if (const auto phase = phase_of(t.name)) {
      out.phases[*phase].wall += t.wall;
      out.phases[*phase].cpu += t.cpu;
    }
  if (step_times_wanted()) std::fputs(format_step_times(out.steps, pgn::resolve_threads(options.threads)).c_str(), stderr);
  return true;
}

}  // namespace cqlindex::indexer
