// cqlindex build on real files: contents, determinism across thread counts, append, staleness, refusal of
// interrupted builds.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "indexer/canonical_key.h"
#include "indexer/index_builder.h"
#include "indexer/index_location.h"
#include "store/index_store.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

const std::string kSample = std::string(CQLINDEX_SHARED_DATA) + "/gnuchess-book/book_1.02.small-1005.pgn";

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

indexer::BuildSummary build(const std::string& pgn, unsigned threads = 2, bool append = false) {
  indexer::BuildOptions options;
  options.threads = threads;
  options.append = append;
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
  fs::copy_file(kSample, pgn);
  auto summary = build(pgn);
  REQUIRE(summary.games == 1005);
  REQUIRE(summary.positions == 74874 + 1005);  // plies (as check counts them) + one start position per game

  std::string error;
  auto store = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  REQUIRE(store);
  REQUIRE(store->meta().game_count == 1005);
  REQUIRE(store->meta().position_count == summary.positions);
  // The start position is in every game; records point at the games' bytes.
  auto start = store->position_games(indexer::canonical_key(chess::Position::start()), &error);
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
  fs::copy_file(kSample, pgn);
  build(pgn, 1);
  std::string one = dump(indexer::default_index_dir(pgn));
  build(pgn, 2);  // rebuilding replaces the index
  std::string two = dump(indexer::default_index_dir(pgn));
  REQUIRE(one.size() > 100000);
  REQUIRE(one == two);
}

TEST_CASE("append indexes only the new games and equals a full build", "[indexer]") {
  TempDir tmp;
  const std::string text = read_file(kSample);
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
  std::string text = read_file(kSample);
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
  std::string text = read_file(kSample);
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
  fs::copy_file(kSample, pgn);
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
