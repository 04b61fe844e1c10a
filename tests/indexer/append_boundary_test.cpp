// build --append after the PGN was cut anywhere (a file still being written): the index must then describe
// exactly the games a read of the whole file sees (count, numbers, offsets), as a full rebuild does.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/pgn/game_splitter.h"
#include "indexer/index_builder.h"
#include "indexer/index_location.h"
#include "store/index_store.h"
#include "support/shared_data.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

// Returns the path of gnuchess-book/book_1.02.small-1005.pgn (a test fails, naming it, when it is missing).
std::string book_pgn() { return cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn"); }
// Returns the path of jvanreek-annotated/dortmund1928.train.pgn (a test fails, naming it, when it is missing).
std::string annotated_pgn() { return cqlindex::test::shared_data("jvanreek-annotated/dortmund1928.train.pgn"); }

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("cqlindex-append-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
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

// Returns the first `games` games of `text` (up to the start of the next one).
std::string first_games(const std::string& text, int games) {
  size_t at = 0;
  for (int i = 0; i < games; ++i) {
    at = text.find("[Event ", at + 1);
    if (at == std::string::npos) return text;
  }
  return text.substr(0, at);
}

std::string to_crlf(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// Every (family, key, value) of an index but the meta (which names the PGN).
std::string dump(const std::string& dir) {
  std::string error;
  auto store = store::IndexStore::open_for_reading(dir, &error);
  INFO(error);
  REQUIRE(store);
  std::string out;
  for (size_t f = 0; f < store::kFamilyCount; ++f) {
    auto family = static_cast<store::Family>(f);
    if (family == store::Family::Meta) continue;
    REQUIRE(store->for_each(family, "", [&](std::string_view k, std::string_view v) {
      out += std::to_string(f) + ":" + std::string(k) + "=" + std::string(v) + "\n";
      return true;
    }, &error));
  }
  return out;
}

bool build(const std::string& pgn, bool append, indexer::BuildSummary* summary = nullptr) {
  indexer::BuildOptions options;
  options.threads = 1;
  options.append = append;
  std::string error;
  const bool ok = indexer::build_index(pgn, options, summary, &error);
  INFO(error);
  CHECK(ok);
  return ok;
}

// Indexes `text` cut at `cut`, appends the rest, and checks the extended index against a read of the whole file
// (game count, numbers, offsets) and against a full build of it (every family).
void check_append_after_cut(const fs::path& folder, const std::string& text, size_t cut) {
  INFO("cut at byte " << cut << ": ..." << text.substr(cut > 40 ? cut - 40 : 0, std::min<size_t>(cut, 40)) << "|"
                      << text.substr(cut, 20) << "...");
  const std::string pgn = (folder / "growing.pgn").string();
  const std::string whole = (folder / "whole.pgn").string();
  fs::remove_all(indexer::default_index_dir(pgn));
  write_file(pgn, text.substr(0, cut));
  if (!build(pgn, false)) return;
  write_file(pgn, text);
  if (!build(pgn, true)) return;

  std::string error;
  auto index = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  REQUIRE(index);
  pgn::GameSplitter splitter(text);
  pgn::GameSpan span;
  uint32_t games = 0;
  while (splitter.next(span)) {
    auto record = index->game(games++, &error);
    REQUIRE(record);
    CHECK(record->offset == span.offset);
    CHECK(record->length == span.length);
  }
  CHECK(index->meta().game_count == games);
  CHECK(index->meta().pgn_size == text.size());
  index.reset();

  write_file(whole, text);
  if (!build(whole, false)) return;
  CHECK(dump(indexer::default_index_dir(pgn)) == dump(indexer::default_index_dir(whole)));
}

// With CQLINDEX_LONG_TESTS=1: many more cut points (every line end of the tag sections, more of each kind).
bool long_run() {
  const char* env = std::getenv("CQLINDEX_LONG_TESTS");
  return env && std::string(env) == "1";
}

// Byte offsets just after the n-th occurrence of `what` (plus `shift`) in `text`, for the first `count` ones.
std::vector<size_t> cuts_after(const std::string& text, const std::string& what, size_t count, long shift = 0) {
  std::vector<size_t> cuts;
  for (size_t at = text.find(what); at != std::string::npos && cuts.size() < count; at = text.find(what, at + 1))
    cuts.push_back(size_t(long(at + what.size()) + shift));
  return cuts;
}

}  // namespace

TEST_CASE("append after a cut inside a tag section indexes no phantom game (the issue's repro)", "[indexer][append]") {
  TempDir tmp;
  const std::string text = first_games(read_file(book_pgn()), 12);
  // The second game's [Event line and the two tag lines after it, as `head -n L` cuts (issue 15, item 3).
  size_t second = text.find("\n[Event ", text.find("[Event ") + 1) + 1;
  size_t cut = second;
  for (int line = 0; line < 3; ++line) cut = text.find('\n', cut) + 1;
  check_append_after_cut(tmp.path, text, cut);
  // Line ends inside the tag sections of a few games.
  const size_t sections = long_run() ? 12 : 2;
  for (size_t game = text.find("[Event "), n = 0; game != std::string::npos && n < sections;
       game = text.find("\n[Event ", game + 1), ++n)
    for (size_t at = text.find('\n', game + 1), lines = 0; lines < 8; at = text.find('\n', at + 1), ++lines)
      if (long_run() || lines % 3 == 1) check_append_after_cut(tmp.path, text, at + 1);
}

TEST_CASE("append after a cut in movetext, a token, a comment or after a result equals a full build",
          "[indexer][append]") {
  TempDir tmp;
  const std::string text = first_games(read_file(annotated_pgn()), 6);
  const size_t n = long_run() ? 6 : 1;
  std::vector<size_t> cuts;
  for (const auto& more : {cuts_after(text, "1/2-1/2", n), cuts_after(text, "1/2-1/2", n, 1),  // result; its line end
                           cuts_after(text, "1/2-1/2", n, -3),                                  // inside the result
                           cuts_after(text, " {", n), cuts_after(text, "moves", n),             // inside comments
                           cuts_after(text, " N", n), cuts_after(text, ". ", n),                // a move cut short
                           cuts_after(text, "\n[Ev", n), cuts_after(text, "\"]\n", n)})
    cuts.insert(cuts.end(), more.begin(), more.end());
  const size_t anywhere = long_run() ? 60 : 6;
  for (size_t i = 1; i < anywhere; ++i) cuts.push_back(text.size() * i / anywhere);
  for (size_t cut : cuts) check_append_after_cut(tmp.path, text, cut);
}

TEST_CASE("append after a cut in a CRLF file (also between CR and LF) equals a full build", "[indexer][append]") {
  TempDir tmp;
  const std::string text = to_crlf(first_games(read_file(annotated_pgn()), 4));
  const size_t n = long_run() ? 6 : 1;
  std::vector<size_t> cuts;
  for (const auto& more : {cuts_after(text, "\r", n), cuts_after(text, "1/2-1/2", n), cuts_after(text, "\r\n\r\n", n),
                           cuts_after(text, "\r\n[Event", n, -6), cuts_after(text, " {", n)})
    cuts.insert(cuts.end(), more.begin(), more.end());
  const size_t anywhere = long_run() ? 30 : 3;
  for (size_t i = 1; i < anywhere; ++i) cuts.push_back(text.size() * i / anywhere);
  for (size_t cut : cuts) check_append_after_cut(tmp.path, text, cut);
}

TEST_CASE("append that continues the last game says that it rebuilt the index", "[indexer][append]") {
  TempDir tmp;
  const std::string text = first_games(read_file(book_pgn()), 5);
  const std::string pgn = (tmp.path / "g.pgn").string();
  const size_t cut = text.find("\n[Event ", text.find("[Event ") + 1) + 20;  // inside the second game's tags
  write_file(pgn, text.substr(0, cut));
  build(pgn, false);
  write_file(pgn, text);
  indexer::BuildSummary summary;
  build(pgn, true, &summary);
  CHECK_FALSE(summary.appended);
  CHECK(summary.note.find("rebuilt") != std::string::npos);
  CHECK(summary.games == 5);
  // A clean cut between two games is a real append.
  const size_t clean = text.find("\n[Event ", cut) + 1;
  write_file(pgn, text.substr(0, clean));
  build(pgn, false);
  write_file(pgn, text);
  build(pgn, true, &summary);
  CHECK(summary.appended);
  CHECK(summary.note.empty());
  CHECK(summary.games == 5);
}
