#pragma once
// Shared helpers of the planner tests: an index built once per PGN in a temporary folder, queries planned
// against it.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "engine/cql/query.h"
#include "indexer/index_builder.h"
#include "planner/plan.h"
#include "store/index_store.h"
#include "store/keys/tag_key.h"

namespace planner_test {

namespace fs = std::filesystem;

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A folder removed at exit.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    static int n = 0;
    path = fs::temp_directory_path() / ("cqlindex-planner-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

// An index of one PGN, built on first use.
struct Indexed {
  std::unique_ptr<TempDir> dir;
  std::unique_ptr<cqlindex::store::IndexStore> store;
};

// Returns the store of `pgn`'s index (built once per test process).
inline const cqlindex::store::IndexStore& index_of(const std::string& pgn) {
  // Never destroyed: RocksDB must not be closed during static destruction; the folders go at exit.
  static auto* cache = new std::map<std::string, Indexed>;
  static const int cleanup = std::atexit([] {
    for (auto& [name, ix] : *cache)
      if (ix.dir) {
        std::error_code ec;
        fs::remove_all(ix.dir->path, ec);
      }
  });
  (void)cleanup;
  Indexed& ix = (*cache)[pgn];
  if (!ix.store) {
    ix.dir = std::make_unique<TempDir>("ix");
    cqlindex::indexer::BuildOptions options;
    options.index_dir = (ix.dir->path / "idx").string();
    options.threads = 2;
    std::string error;
    cqlindex::indexer::BuildSummary summary;
    REQUIRE(cqlindex::indexer::build_index(pgn, options, &summary, &error));
    ix.store = cqlindex::store::IndexStore::open_for_reading(options.index_dir, &error);
    REQUIRE(ix.store);
  }
  return *ix.store;
}

// Writes `text` to a fresh PGN file and returns its path (kept for the test process's life).
inline std::string pgn_file(const std::string& text) {
  static TempDir dir("pgn");
  static int n = 0;
  std::string name = std::to_string(n++);
  name.append(".pgn");
  std::string path = (dir.path / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Returns the candidate game numbers (1-based) of `cql` over `pgn`; empty optional: all games.
inline std::optional<std::vector<uint32_t>> candidates(const std::string& pgn, const std::string& cql,
                                                       cqlindex::planner::PlanReport* report = nullptr) {
  cqlindex::cql::Query q = cqlindex::cql::parse_query(cql);
  auto set = cqlindex::planner::plan_candidates(q, index_of(pgn), report);
  if (!set) return std::nullopt;
  std::vector<uint32_t> numbers;
  for (uint32_t id : *set) numbers.push_back(id + 1);
  return numbers;
}

}  // namespace planner_test
