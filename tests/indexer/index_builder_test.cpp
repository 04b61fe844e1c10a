// cqlindex build on real files: contents, determinism across thread counts, append, staleness, refusal of
// interrupted builds.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "store/keys/canonical_key.h"
#include "indexer/index_builder.h"
#include "indexer/index_location.h"
#include "engine/pgn/reader.h"
#include "store/distinct_sketch.h"
#include "store/index_store.h"
#include "support/shared_data.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

// Returns the path of gnuchess-book/book_1.02.small-1005.pgn (a test fails, naming it, when it is missing).
std::string sample_pgn() { return cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn"); }

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("cqlindex-build-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Every (family, key, value) of an index, for comparisons.
std::string dump(const std::string& dir) {
  std::string error;
  auto store = store::IndexStore::open_for_reading(dir, &error);
  INFO(error);
  REQUIRE(store);
  std::string out;
  for (size_t f = 0; f < store::kFamilyCount; ++f) {
    auto family = static_cast<store::Family>(f);
    if (family == store::Family::Meta) continue;  // holds the path and time of the PGN
    REQUIRE(store->for_each(family, "", [&](std::string_view k, std::string_view v) {
      out += std::to_string(f) + ":" + std::string(k) + "=" + std::string(v) + "\n";
      return true;
    }, &error));
  }
  return out;
}

indexer::BuildSummary build(const std::string& pgn, unsigned threads = 2, bool append = false,
                            indexer::BuildLimits limits = {}) {
  indexer::BuildOptions options;
  options.threads = threads;
  options.append = append;
  options.limits = limits;
  indexer::BuildSummary summary;
  std::string error;
  bool ok = indexer::build_index(pgn, options, &summary, &error);
  INFO(error);
  REQUIRE(ok);
  return summary;
}

}  // namespace

TEST_CASE("build indexes every mainline position of every game", "[indexer]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  fs::copy_file(sample_pgn(), pgn);
  auto summary = build(pgn);
  REQUIRE(summary.games == 1005);
  REQUIRE(summary.positions == 74874 + 1005);  // plies (as check counts them) + one start position per game

  std::string error;
  auto store = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  REQUIRE(store);
  REQUIRE(store->meta().game_count == 1005);
  REQUIRE(store->meta().position_count == summary.positions);
  // The start position is in every game; records point at the games' bytes.
  auto start = store->position_games(store::keys::canonical_key(chess::Position::start()), &error);
  REQUIRE(start);
  REQUIRE(start->size() == 1005);
  auto first = store->game(0, &error);
  REQUIRE(first);
  REQUIRE(first->offset == 0);
  REQUIRE(read_file(pgn).substr(first->offset, 7) == "[Event ");
  auto last = store->game(1004, &error);
  REQUIRE(last);
  REQUIRE(last->offset + last->length == fs::file_size(pgn));
}

TEST_CASE("an index built with 1 and 2 threads is the same", "[indexer]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  fs::copy_file(sample_pgn(), pgn);
  build(pgn, 1);
  std::string one = dump(indexer::default_index_dir(pgn));
  build(pgn, 2);  // rebuilding replaces the index
  std::string two = dump(indexer::default_index_dir(pgn));
  REQUIRE(one.size() > 100000);
  REQUIRE(one == two);
}

TEST_CASE("append indexes only the new games and equals a full build", "[indexer]") {
  TempDir tmp;
  const std::string text = read_file(sample_pgn());
  size_t cut = text.find("\n[Event ", text.size() / 2) + 1;
  const std::string pgn = (tmp.path / "games.pgn").string();
  write_file(pgn, text.substr(0, cut));
  auto first = build(pgn);
  REQUIRE(first.games > 400);

  std::string error;
  auto store = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  REQUIRE(store);
  REQUIRE(indexer::check_freshness(store->meta(), pgn, &error) == indexer::Freshness::Fresh);
  write_file(pgn, text);  // games appended
  REQUIRE(indexer::check_freshness(store->meta(), pgn, &error) == indexer::Freshness::Appended);
  store.reset();

  auto appended = build(pgn, 2, true);
  REQUIRE(appended.appended);
  REQUIRE(appended.games == 1005);
  REQUIRE(appended.new_games == 1005 - first.games);
  std::string extended = dump(indexer::default_index_dir(pgn));

  const std::string whole = (tmp.path / "whole.pgn").string();
  write_file(whole, text);
  build(whole);
  REQUIRE(extended == dump(indexer::default_index_dir(whole)));
}

TEST_CASE("a PGN changed other than by appending makes the index stale, and append refuses it", "[indexer]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  std::string text = read_file(sample_pgn());
  write_file(pgn, text);
  build(pgn);
  std::string error;
  auto store = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  REQUIRE(store);
  text[text.size() / 2] = text[text.size() / 2] == 'a' ? 'b' : 'a';  // same size, one byte changed
  write_file(pgn, text);
  REQUIRE(indexer::check_freshness(store->meta(), pgn, &error) == indexer::Freshness::Stale);
  write_file(pgn, text.substr(0, text.size() - 10));  // shorter
  REQUIRE(indexer::check_freshness(store->meta(), pgn, &error) == indexer::Freshness::Stale);
  REQUIRE(indexer::refusal_message(indexer::Freshness::Stale, pgn, "X").find("rebuild") != std::string::npos);
  store.reset();

  indexer::BuildOptions options;
  options.append = true;
  REQUIRE_FALSE(indexer::build_index(pgn, options, nullptr, &error));
  REQUIRE(error.find("has changed, not only grown") != std::string::npos);
}

TEST_CASE("append of movetext after a finished game indexes the tagless game a whole read sees", "[indexer]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  std::string text = read_file(sample_pgn());
  write_file(pgn, text);
  build(pgn);
  write_file(pgn, text + "1. e4 e5 *\n");  // after the last game's result: a game of its own (no tags)
  auto appended = build(pgn, 2, true);
  REQUIRE(appended.appended);
  REQUIRE(appended.games == 1006);
  const std::string whole = (tmp.path / "whole.pgn").string();
  write_file(whole, text + "1. e4 e5 *\n");
  build(whole);
  REQUIRE(dump(indexer::default_index_dir(pgn)) == dump(indexer::default_index_dir(whole)));
}

TEST_CASE("a build that fails leaves the previous index in place and no partial one", "[indexer]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  fs::copy_file(sample_pgn(), pgn);
  build(pgn);
  std::string before = dump(indexer::default_index_dir(pgn));
  indexer::BuildOptions options;
  options.index_dir = indexer::default_index_dir(pgn);
  std::string error;
  REQUIRE_FALSE(indexer::build_index((tmp.path / "missing.pgn").string(), options, nullptr, &error));
  REQUIRE(dump(indexer::default_index_dir(pgn)) == before);
  for (const auto& entry : fs::directory_iterator(tmp.path))
    REQUIRE(entry.path().filename().string().find(".cqlindex-build-") == std::string::npos);
}

// Limits far below the sample's size: runs of 300 postings, merged 2 at a time in rounds, bitmaps spilled every
// 7 games: what a repository larger than memory does at the default limits.
indexer::BuildLimits tiny_limits() {
  indexer::BuildLimits limits;
  limits.run_postings = 300;
  limits.merge_fan_in = 2;
  limits.bitmap_games = 7;
  return limits;
}

TEST_CASE("a build on a tiny memory budget (spilled runs, merges in rounds, spilled bitmaps) equals the default",
          "[indexer][memory]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  fs::copy_file(sample_pgn(), pgn);
  build(pgn, 2);
  const std::string unbounded = dump(indexer::default_index_dir(pgn));
  for (unsigned threads : {1u, 2u}) {
    INFO(threads << " threads");
    auto summary = build(pgn, threads, false, tiny_limits());
    CHECK(summary.games == 1005);
    CHECK(dump(indexer::default_index_dir(pgn)) == unbounded);
  }
  // Nothing of the spill is left behind.
  for (const auto& entry : fs::directory_iterator(tmp.path))
    CHECK((entry.path().filename() == "games.pgn" || entry.path().filename() == "games.pgn.cqlidx"));
}

TEST_CASE("an append on a tiny memory budget equals a full build", "[indexer][memory][append]") {
  TempDir tmp;
  const std::string text = read_file(sample_pgn());
  const size_t cut = text.find("\n[Event ", text.size() / 3) + 1;
  const std::string pgn = (tmp.path / "games.pgn").string();
  write_file(pgn, text.substr(0, cut));
  build(pgn, 2, false, tiny_limits());
  write_file(pgn, text);
  auto appended = build(pgn, 2, true, tiny_limits());
  REQUIRE(appended.appended);
  const std::string whole = (tmp.path / "whole.pgn").string();
  write_file(whole, text);
  build(whole);
  CHECK(dump(indexer::default_index_dir(pgn)) == dump(indexer::default_index_dir(whole)));
}

// The canonical keys of every mainline position of the sample's first `games` games.
std::vector<std::string> sample_position_keys(size_t games) {
  std::vector<std::string> keys;
  const std::string text = read_file(sample_pgn());
  pgn::GameReader reader(text, pgn::ParseOptions{});
  pgn::Game g;
  for (size_t n = 0; n < games && reader.next(g); ++n) {
    chess::Position pos = g.start;
    keys.push_back(store::keys::canonical_key(pos));
    for (pgn::NodeIndex i = g.root().first_child; i != pgn::kNoNode; i = g.nodes[i].first_child) {
      pos.do_move(g.nodes[i].move);
      keys.push_back(store::keys::canonical_key(pos));
    }
  }
  return keys;
}

// The sample `copies` times, each copy's games under its own Event tags (distinct games, the same positions).
std::string repeated_sample(int copies) {
  const std::string text = read_file(sample_pgn());
  std::string repeated;
  for (int copy = 0; copy < copies; ++copy) {
    std::string event = "[Event \"copy " + std::to_string(copy) + " ";
    for (size_t at = 0, next; at < text.size(); at = next) {
      next = text.find("[Event \"", at + 1);
      if (next == std::string::npos) next = text.size();
      std::string_view game(text.data() + at, next - at);
      if (game.substr(0, 8) == "[Event \"") repeated.append(event).append(game.substr(8));
      else repeated.append(game);
    }
  }
  return repeated;
}

TEST_CASE("the similar family answers the same at every bucket count, and a look-up reads one data block",
          "[indexer][layout]") {
  TempDir tmp;
  // The sample 6 times (under 6 Event tags): tables larger than the 512 KiB RocksDB reads at open, so that
  // look-ups read from the files.
  const std::string pgn = (tmp.path / "games.pgn").string();
  write_file(pgn, repeated_sample(6));
  const std::string fine_dir = (tmp.path / "fine.cqlidx").string();
  build(pgn);
  {
    indexer::BuildOptions options;
    options.index_dir = fine_dir;
    options.bucket_bits = 22;  // as a repository of some 40 million distinct positions gets
    std::string error;
    INFO(error);
    REQUIRE(indexer::build_index(pgn, options, nullptr, &error));
  }
  std::string error;
  auto chosen = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  auto fine = store::IndexStore::open_for_reading(fine_dir, &error);
  REQUIRE(chosen);
  REQUIRE(fine);
  CHECK(chosen->meta().game_count == 6 * 1005);
  CHECK(chosen->meta().similar_bucket_bits == 16);  // 6,030 games: the fewest buckets
  CHECK(fine->meta().similar_bucket_bits == 22);
  CHECK(fine->family_keys(store::Family::Similar) > chosen->family_keys(store::Family::Similar));
  // The sketch's estimate of the distinct positions is within a few percent of the count.
  const auto counted = chosen->position_count(&error);
  REQUIRE(counted);
  const auto sketch = store::DistinctSketch::from_text(chosen->meta().distinct_sketch);
  REQUIRE(sketch);
  CHECK(double(sketch->estimate()) > 0.95 * double(*counted));
  CHECK(double(sketch->estimate()) < 1.05 * double(*counted));
  CHECK(fine->position_count(&error) == counted);

  const auto keys = sample_position_keys(60);
  REQUIRE(keys.size() > 3000);
  // A query's first look-up in a table also reads the table's index block (an open reads none): once a query.
  // The first 32 keys (hashes: in both of the family's tables) are looked up first; the others are measured.
  constexpr size_t kWarmUp = 32;
  for (size_t i = 0; i < kWarmUp; ++i) {
    REQUIRE(fine->position_games(keys[i], &error));
    REQUIRE(chosen->position_games(keys[i], &error));
  }
  uint64_t most_blocks = 0, most_bytes = 0, fewest_blocks = 99;
  for (const std::string& key : std::vector<std::string>(keys.begin() + kWarmUp, keys.end())) {
    store::IndexStore::start_counting_reads();
    auto a = fine->position_games(key, &error);
    const auto cost = store::IndexStore::reads_counted();
    most_blocks = std::max(most_blocks, cost.blocks + cost.cached_blocks);
    fewest_blocks = std::min(fewest_blocks, cost.blocks + cost.cached_blocks);
    most_bytes = std::max(most_bytes, cost.bytes);
    auto b = chosen->position_games(key, &error);
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(!a->empty());
    REQUIRE(*a == *b);
  }
  // One point read: one data block of the similar family (from the file or the block cache; at most 4 KiB plus
  // the bucket that crosses its end, from the file), never a scan.
  CHECK(most_blocks == 1);
  CHECK(fewest_blocks == 1);
  CHECK(most_bytes <= 4 * 1024 + 1024);
}

TEST_CASE("an append that outgrows the similar family's buckets rebuilds with more, on a tiny memory budget, and "
          "equals a full build",
          "[indexer][memory][append][layout]") {
  // Buckets aimed at 1 byte each, so that 3 copies of the sample need 4 times the buckets of their first 335
  // games: what an append does to a repository of millions of games at the default aim.
  TempDir tmp;
  const std::string text = repeated_sample(3);
  const size_t cut = text.find("\n[Event ", text.size() / 9) + 1;
  const std::string pgn = (tmp.path / "games.pgn").string();
  write_file(pgn, text.substr(0, cut));
  auto tiny = [&](bool append) {
    indexer::BuildOptions options;
    options.threads = 2;
    options.append = append;
    options.limits = tiny_limits();
    options.bucket_bytes = 1;
    indexer::BuildSummary summary;
    std::string error;
    const bool ok = indexer::build_index(pgn, options, &summary, &error);
    INFO(error);
    REQUIRE(ok);
    return summary;
  };
  tiny(false);
  std::string error;
  unsigned first_bits = 0;
  {
    auto first = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
    REQUIRE(first);
    first_bits = first->meta().similar_bucket_bits;
  }
  write_file(pgn, text);
  const auto appended = tiny(true);
  CHECK_FALSE(appended.appended);  // rebuilt whole, and it says why
  CHECK(appended.note.find("more buckets") != std::string::npos);
  CHECK(appended.games == 3 * 1005);

  const std::string whole = (tmp.path / "whole.pgn").string();
  write_file(whole, text);
  {
    indexer::BuildOptions options;
    options.bucket_bytes = 1;
    REQUIRE(indexer::build_index(whole, options, nullptr, &error));
  }
  auto rebuilt = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  auto full = store::IndexStore::open_for_reading(indexer::default_index_dir(whole), &error);
  REQUIRE(rebuilt);
  REQUIRE(full);
  CHECK(rebuilt->meta().similar_bucket_bits > first_bits + 1);
  CHECK(rebuilt->meta().similar_bucket_bits == full->meta().similar_bucket_bits);
  CHECK(rebuilt->meta().game_count == full->meta().game_count);
  CHECK(rebuilt->meta().build_options == full->meta().build_options);  // the PGN-problem mark included
  CHECK(rebuilt->meta().build_options.find(indexer::kPgnProblemMarker) != std::string::npos);
  // Every family's keys and values, and the answers of look-ups by position, are a full build's.
  CHECK(dump(indexer::default_index_dir(pgn)) == dump(indexer::default_index_dir(whole)));
  for (const std::string& key : sample_position_keys(40)) {
    auto a = rebuilt->position_games(key, &error);
    auto b = full->position_games(key, &error);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->size() % 3 == 0);  // a game's positions are in each of its 3 copies
    REQUIRE(*a == *b);
  }
}
