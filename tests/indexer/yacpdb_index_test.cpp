// The yacpdb family: `cqlindex build` on every problem collection (and study file) of ../shared/data stores the
// predicate instances; answers read back from the index equal direct evaluation, query by query, entry by entry.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "engine/yacpdb/evaluator.h"
#include "engine/yacpdb/instance_index.h"
#include "indexer/index_builder.h"
#include "indexer/yacpdb_index.h"
#include "store/index_store.h"

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
  for (const char* folder : {"/problems", "/studies"})
    for (const auto& entry : fs::recursive_directory_iterator(std::string(CQLINDEX_SHARED_DATA) + folder)) {
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

TEST_CASE("yacpdb: a YAML collection's index holds only meta and instances; append is refused", "[indexer][yacpdb]") {
  TempDir tmp;
  const std::string olv = (tmp.path / "b.olv").string();
  fs::copy_file(std::string(CQLINDEX_SHARED_DATA) + "/problems/yacpdb-olive/Broodings-50.olv", olv);
  indexer::BuildOptions options;  // a YAML file needs no --yacpdb
  indexer::BuildSummary summary;
  std::string error;
  REQUIRE(indexer::build_index(olv, options, &summary, &error));
  CHECK(summary.games == 12);
  CHECK(summary.entries == 12);
  auto store = store::IndexStore::open_for_reading(olv + ".cqlidx", &error);
  REQUIRE(store);
  CHECK(store->family_keys(store::Family::Similar) == 0);
  size_t instances = 0;
  REQUIRE(store->for_each(store::Family::Yacpdb, "", [&](std::string_view, std::string_view) {
    ++instances;
    return true;
  }, &error));
  CHECK(instances > 20);
  store.reset();
  options.append = true;
  CHECK_FALSE(indexer::build_index(olv, options, &summary, &error));
  CHECK(error.find("build without --append") != std::string::npos);
}
