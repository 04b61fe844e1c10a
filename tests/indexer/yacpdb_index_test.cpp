// The yacpdb family: `cqlindex build` on every problem collection (and study file) of ../shared/data stores the
// predicate instances; answers read back from the index equal direct evaluation, query by query, entry by entry.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/yacpdb/evaluator.h"
#include "engine/yacpdb/instance_index.h"
#include "indexer/index_builder.h"
#include "indexer/yacpdb_index.h"
#include "store/index_store.h"
#include "support/shared_data.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

// Metadata, analysis and mixed queries, with every comparison and connective.
const char* kQueries[] = {
    "Fairy",
    "NOT Fairy",
    "Phases > 1",
    "Phases = 1",
    "Twins > 1",
    "Twins = 1",
    "ClosedWalk(*, *, *)",
    "TraceBack(*, *, *) OR LinearCycle(*, *, *) OR ArealCycle(*, *, *)",
    "ArealCycle(wR, *, true) AND TraceBack(wR, 1, *)",
    "TraceBack(wB, *, *) = 0",
    "Star(*) OR Cross(*) OR BigStar(*) OR BigCross(*) OR Wheel(*)",
    "Albino(wP) > 1",
    "Pickaninny(bP)",
    "CornerToCorner(*) > 1",
    "FourCorners(*)",
    "Excelsior(*, *) > 0",
    "Excelsior(wS, 5) AND NOT Excelsior(wQ, 5)",
    "PW(*)",
    "PWPiece(wK) AND PWPiece(wR)",
    "Zilahi(*)",
    "ZilahiPiece(*, true) > 1",
    "Models(*, true)",
    "Models(0, false) > 0",
    "Models(*, *) = 0",
    "HundredDollar",
    "With('wR wR') AND Stip('h#.*')",
    "Stip('#2') OR Stip('s#.*')",
    "PCount(b) < 5 AND Phases < 3",
    "Author('*a*') AND NOT Keyword(*)",
    "Option(*) = 0 AND Models(*, *) > 0",
    "Keyword('Zilahi') OR Keyword('Model mates')",
    "Matrix('wKa1 wRc1') OR MatrixExtended('wKh1 wRf1', false, false, Mirror)",
    "PublishedAfter(2000) OR ClosedWalk(*, 4, *)",
    "Text('%mate%') AND Phases = 1",
    "NOT (Zilahi(2) OR Models(*, *)) AND ClosedWalk(*, *, false) = 0",
};

// Every problem collection under problems/ and the study files.
std::vector<std::string> collections() {
  std::vector<std::string> out;
  for (const char* folder : {"problems", "studies"})
    for (const auto& entry : fs::recursive_directory_iterator(cqlindex::test::shared_data(folder))) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".pgn" || ext == ".olv")) out.push_back(entry.path().string());
    }
  std::sort(out.begin(), out.end());
  return out;
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("cqlindex-yacpdb-index-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("yacpdb: answers from the index equal direct evaluation on every collection", "[indexer][yacpdb]") {
  TempDir tmp;
  const auto files = collections();
  REQUIRE(files.size() >= 9);
  size_t informative = 0;  // (file, query) pairs where some but not all entries match
  for (const std::string& file : files) {
    INFO(file);
    indexer::BuildOptions options;
    options.index_dir = (tmp.path / fs::path(file).filename()).string() + ".cqlidx";
    options.yacpdb = true;
    options.threads = 2;
    indexer::BuildSummary summary;
    std::string error;
    const bool built = indexer::build_index(file, options, &summary, &error);
    INFO(error);
    REQUIRE(built);

    const yacpdb::ProblemFile problems = yacpdb::read_problem_file(file);
    REQUIRE(summary.entries == problems.problems.size());
    std::vector<yacpdb::Analysis> analyses;
    for (const auto& p : problems.problems) analyses.push_back(yacpdb::analyse(p));
    auto store = store::IndexStore::open_for_reading(options.index_dir, &error);
    REQUIRE(store);
    REQUIRE(store->meta().game_count == problems.problems.size());
    REQUIRE(store->meta().build_options.find(indexer::kYacpdbBuildMarker) != std::string::npos);
    // The metadata stored in the index stands in for the file's entries.
    auto stored = indexer::read_yacpdb_entries(*store, store->meta().game_count, &error);
    REQUIRE(stored);
    REQUIRE(stored->size() == problems.problems.size());

    for (const char* text : kQueries) {
      INFO(text);
      const yacpdb::Query q = yacpdb::parse_query(text);
      yacpdb::QueryEvaluator direct(q);
      std::vector<uint32_t> expected, expected_unknown;
      for (uint32_t i = 0; i < problems.problems.size(); ++i) {
        bool unknown = false;
        if (direct.matches(problems.problems[i], analyses[i], &unknown)) expected.push_back(i);
        if (unknown) expected_unknown.push_back(i);
      }
      auto instances = indexer::read_yacpdb_instances(*store, yacpdb::analysis_predicates(q),
                                                      store->meta().game_count, &error);
      REQUIRE(instances);
      std::vector<uint32_t> unknown, unknown_stored;
      CHECK(yacpdb::indexed_matches(q, *instances, problems.problems, &unknown) == expected);
      CHECK(unknown == expected_unknown);
      CHECK(yacpdb::indexed_matches(q, *instances, *stored, &unknown_stored) == expected);
      CHECK(unknown_stored == expected_unknown);
      if (!yacpdb::needs_entries(q)) {  // the index alone answers
        std::vector<uint32_t> unknown_alone;
        CHECK(yacpdb::indexed_matches(q, *instances, {}, &unknown_alone) == expected);
        CHECK(unknown_alone == expected_unknown);
      }
      informative += !expected.empty() && expected.size() < problems.problems.size();
    }
  }
  CHECK(informative >= 60);
}

namespace {

// Returns the number of rows of the yacpdb family of `store` (REQUIREs that they can be read).
size_t yacpdb_row_count(const store::IndexStore& store) {
  std::string error;
  size_t rows = 0;
  const bool read = store.for_each(store::Family::Yacpdb, "", [&](std::string_view, std::string_view) {
    ++rows;
    return true;
  }, &error);
  INFO(error);
  REQUIRE(read);
  return rows;
}

}  // namespace

// (The name has no ';': ctest splits test names there, and each half then ran no test at all.)
TEST_CASE("yacpdb: a YAML collection's index holds only meta and instances, and appends nothing when unchanged",
          "[indexer][yacpdb]") {
  TempDir tmp;
  const std::string olv = (tmp.path / "b.olv").string();
  fs::copy_file(cqlindex::test::shared_data("problems/yacpdb-olive/Broodings-50.olv"), olv);
  indexer::BuildOptions options;  // a YAML file needs no --yacpdb
  indexer::BuildSummary summary;
  std::string error;
  REQUIRE(indexer::build_index(olv, options, &summary, &error));
  CHECK(summary.games == 12);
  CHECK(summary.entries == 12);
  auto store = store::IndexStore::open_for_reading(olv + ".cqlidx", &error);
  REQUIRE(store);
  CHECK(store->family_keys(store::Family::Similar) == 0);
  const size_t instances = yacpdb_row_count(*store);
  CHECK(instances > 20);
  store.reset();
  // --append of the unchanged file: no entry is new, the family stays as it was
  options.append = true;
  INFO(error);
  REQUIRE(indexer::build_index(olv, options, &summary, &error));
  CHECK(summary.appended);
  CHECK(summary.new_games == 0);
  CHECK(summary.games == 12);
  store = store::IndexStore::open_for_reading(olv + ".cqlidx", &error);
  REQUIRE(store);
  CHECK(yacpdb_row_count(*store) == instances);
}

namespace {

std::string slurp_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const fs::path& path, const std::string& text, bool append = false) {
  std::ofstream out(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  out << text;
}

// Every row of the yacpdb family, and the entry count, of the index in `dir`.
std::pair<std::vector<std::pair<std::string, std::string>>, uint32_t> yacpdb_rows(const std::string& dir) {
  std::string error;
  auto store = store::IndexStore::open_for_reading(dir, &error);
  INFO(error);
  REQUIRE(store);
  std::vector<std::pair<std::string, std::string>> rows;
  REQUIRE(store->for_each(store::Family::Yacpdb, "", [&](std::string_view k, std::string_view v) {
    rows.emplace_back(k, v);
    return true;
  }, &error));
  return {rows, store->meta().game_count};
}

bool build(const std::string& file, const std::string& dir, bool append, indexer::BuildSummary* summary,
           std::string* error) {
  indexer::BuildOptions options;
  options.index_dir = dir;
  options.yacpdb = true;
  options.append = append;
  options.threads = 2;
  return indexer::build_index(file, options, summary, error);
}

// Builds `head` then appends `tail` with --append, and checks that the yacpdb family then holds exactly what a
// fresh build of head + tail writes (every instance, posting, count, entry and text), and that queries agree.
void check_append_equals_rebuild(const fs::path& dir, const std::string& name, const std::string& head,
                                 const std::string& tail, size_t tail_entries) {
  const fs::path grown = dir / name, whole = dir / ("whole-" + name);
  write_file(grown, head);
  write_file(whole, head + tail);
  indexer::BuildSummary summary;
  std::string error;
  REQUIRE(build(grown.string(), grown.string() + ".cqlidx", false, &summary, &error));
  const uint32_t head_entries = static_cast<uint32_t>(summary.games);
  write_file(grown, tail, true);
  INFO(error);
  REQUIRE(build(grown.string(), grown.string() + ".cqlidx", true, &summary, &error));
  CHECK(summary.appended);
  CHECK(summary.new_games == tail_entries);
  CHECK(summary.entries == tail_entries);
  REQUIRE(build(whole.string(), whole.string() + ".cqlidx", false, &summary, &error));
  const auto appended = yacpdb_rows(grown.string() + ".cqlidx");
  const auto rebuilt = yacpdb_rows(whole.string() + ".cqlidx");
  CHECK(appended.second == head_entries + tail_entries);
  CHECK(appended.second == rebuilt.second);
  REQUIRE(appended.first.size() == rebuilt.first.size());
  CHECK(appended.first == rebuilt.first);
  // the answers through the appended index are those of direct evaluation
  auto store = store::IndexStore::open_for_reading(grown.string() + ".cqlidx", &error);
  REQUIRE(store);
  const yacpdb::ProblemFile problems = yacpdb::read_problem_file(grown.string());
  for (const char* text : {"ClosedWalk(*, *, *) OR Phases > 1", "Zilahi(*) OR Models(*, *) > 0", "NOT Fairy",
                           "Text('%mate%') OR Author('%a%')"}) {
    INFO(text);
    const yacpdb::Query q = yacpdb::parse_query(text);
    auto instances = indexer::read_yacpdb_instances(*store, yacpdb::analysis_predicates(q), appended.second, &error);
    REQUIRE(instances);
    auto entries = indexer::read_yacpdb_entries(*store, appended.second, &error);
    REQUIRE(entries);
    std::vector<uint32_t> direct;
    yacpdb::QueryEvaluator evaluator(q);
    for (uint32_t i = 0; i < problems.problems.size(); ++i) {
      const auto analysis = yacpdb::analyse(problems.problems[i]);
      if (evaluator.matches(problems.problems[i], analysis)) direct.push_back(i);
    }
    CHECK(yacpdb::indexed_matches(q, *instances, *entries) == direct);
  }
}

// The offset of the `n`-th (0-based) occurrence of `marker` at a line start in `text`.
size_t nth_line_start(const std::string& text, const std::string& marker, int n) {
  size_t at = text.rfind(marker, 0) == 0 ? 0 : text.find("\n" + marker) + 1;
  for (int i = 0; i < n && at != std::string::npos; ++i) at = text.find("\n" + marker, at) + 1;
  return at;
}

}  // namespace

TEST_CASE("yacpdb: build --append of a grown YAML collection equals a rebuild", "[indexer][yacpdb][append]") {
  TempDir tmp;
  const std::string text = slurp_file(cqlindex::test::shared_data("problems/yacpdb-olive/Broodings-50.olv"));
  const size_t cut = nth_line_start(text, "---", 7);  // 7 documents, then 5 more
  REQUIRE(cut != std::string::npos);
  REQUIRE(cut > 0);
  check_append_equals_rebuild(tmp.path, "b.olv", text.substr(0, cut), text.substr(cut), 5);
}

TEST_CASE("yacpdb: build --append of a grown PGN problem file equals a rebuild", "[indexer][yacpdb][append]") {
  TempDir tmp;
  const std::string text =
      slurp_file(cqlindex::test::shared_data("problems/lichess-checkmate-puzzles/lichess-beautiful-checkmate-puzzles.pgn"));
  const size_t cut = nth_line_start(text, "[Event ", 20);  // 20 games, then 7 more
  REQUIRE(cut != std::string::npos);
  check_append_equals_rebuild(tmp.path, "p.pgn", text.substr(0, cut), text.substr(cut), 7);
}

TEST_CASE("yacpdb: build --append refuses a problem file whose last indexed entry reads differently now",
          "[indexer][yacpdb][append]") {
  TempDir tmp;
  const std::string text = slurp_file(cqlindex::test::shared_data("problems/yacpdb-olive/Broodings-50.olv"));
  const size_t cut = nth_line_start(text, "---", 3);
  const fs::path file = tmp.path / "c.olv";
  write_file(file, text.substr(0, cut));
  indexer::BuildSummary summary;
  std::string error;
  REQUIRE(build(file.string(), file.string() + ".cqlidx", false, &summary, &error));
  const auto before = yacpdb_rows(file.string() + ".cqlidx");
  // No document separator: the bytes continue the last entry (a keyword more), they do not add one.
  write_file(file, "keywords:\n- Appended\n", true);
  CHECK_FALSE(build(file.string(), file.string() + ".cqlidx", true, &summary, &error));
  CHECK(error.find("no longer reads as it did") != std::string::npos);
  CHECK(error.find("build without --append") != std::string::npos);
  // the index is left as it was (and is now stale: a query refuses it, a full build replaces it)
  CHECK(yacpdb_rows(file.string() + ".cqlidx") == before);
  // an index without the yacpdb family cannot gain it by --append
  const fs::path games = tmp.path / "g.pgn";
  write_file(games,
             slurp_file(cqlindex::test::shared_data("problems/lichess-checkmate-puzzles/lichess-beautiful-checkmate-puzzles.pgn")));
  indexer::BuildOptions plain;
  plain.index_dir = games.string() + ".cqlidx";
  REQUIRE(indexer::build_index(games.string(), plain, &summary, &error));
  write_file(games, "\n[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"7k/8/6K1/8/8/8/R7/8 w - - 0 1\"]\n\n1. Ra8# 1-0\n", true);
  CHECK_FALSE(build(games.string(), games.string() + ".cqlidx", true, &summary, &error));
  CHECK(error.find("holds no YACPDB instances") != std::string::npos);
}
