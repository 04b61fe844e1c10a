// A query's memory follows its answer, not the database (issue 20): planning a material query that matches
// every material signature holds far less at once than the material family's lists, which grow with the
// database (about 200 MB at 10 million games). Measured in bytes allocated through operator new (this test
// binary counts them: allocation_counter.h), so the figure is exact and the same on every machine.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "allocation_counter.h"
#include "engine/cql/query.h"
#include "indexer/index_builder.h"
#include "planner/plan.h"
#include "store/index_store.h"

namespace {

namespace fs = std::filesystem;

// A folder removed with its contents at the end of the test.
struct Scratch {
  fs::path path = fs::temp_directory_path() / ("cqlindex-memory-" + std::to_string(::getpid()));
  Scratch() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Returns the bytes of every value of `family`.
uint64_t family_value_bytes(const cqlindex::store::IndexStore& store, cqlindex::store::Family family) {
  uint64_t bytes = 0;
  std::string error;
  REQUIRE(store.for_each(family, "", [&](std::string_view, std::string_view value) {
    bytes += value.size();
    return true;
  }, &error));
  return bytes;
}

}  // namespace

TEST_CASE("planning a material query holds a fraction of the material family, not all of it", "[memory][planner]") {
  Scratch dir;
  // The 1,005 games of data/gnuchess-1005.pgn 10 times: 10,050 games, whose material lists take about 200 KB.
  const std::string pgn = (dir.path / "repeated.pgn").string();
  {
    std::ifstream in(std::string(CQLINDEX_SOURCE_DIR) + "/data/gnuchess-1005.pgn", std::ios::binary);
    REQUIRE(in);
    const std::string games((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream out(pgn, std::ios::binary);
    for (int copy = 0; copy < 10; ++copy) out << games << "\n";
  }
  cqlindex::indexer::BuildOptions options;
  options.index_dir = (dir.path / "idx").string();
  options.threads = 2;
  cqlindex::indexer::BuildSummary summary;
  std::string error;
  REQUIRE(cqlindex::indexer::build_index(pgn, options, &summary, &error));
  auto store = cqlindex::store::IndexStore::open_for_reading(options.index_dir, &error);
  REQUIRE(store);
  const uint64_t games = store->meta().game_count;
  const uint64_t family = family_value_bytes(*store, cqlindex::store::Family::Material);
  INFO("material family: " << family << " bytes of lists for " << games << " games");
  REQUIRE(family >= (uint64_t{128} << 10));  // large enough for the measure to mean something

  // Every position has at most 16 pawns: every signature matches, so every game is a candidate.
  const cqlindex::cql::Query query = cqlindex::cql::parse_query("cql()\n#[Pp] <= 16\n");
  memory_test::AllocationCounter counter;
  auto candidates = cqlindex::planner::plan_candidates(query, *store);
  const uint64_t peak = counter.peak_above_start();
  REQUIRE(candidates);
  CHECK(candidates->cardinality() == games);
  INFO("planning held at most " << peak << " bytes above what it started with");
  CHECK(peak < family / 4);
}
