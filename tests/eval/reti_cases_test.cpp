// reti's own test cases (tests_cql/fixtures/cases.json): 144 expected match counts that the upstream runner got
// from a real CQL binary. Each FEN list becomes one game per FEN line (reti/SOURCE.md).
#include <catch2/catch.hpp>

#include <regex>

#include "engine/cql/error.h"
#include "eval/eval_support.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using namespace cqlindex;

TEST_CASE("reti cases.json: every expected match count", "[eval][reti]") {
  const fs::path root = cqlindex::test::shared_data("cql-examples/reti");
  const fs::path fixtures = root / "tests_cql" / "fixtures";
  const std::string json = test::slurp(fixtures / "cases.json");
  REQUIRE(!json.empty());
  // datasets: "name": { "fen"|"pgn": "path" }
  std::map<std::string, std::pair<std::string, std::string>> datasets;
  std::regex ds_re(R"re("([^"]+)":\s*\{\s*"(fen|pgn)":\s*"([^"]+)"\s*\})re");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), ds_re); it != std::sregex_iterator(); ++it)
    datasets[(*it)[1]] = {(*it)[2], (*it)[3]};
  std::regex case_re(R"re(\{\s*"cql":\s*"([^"]+)",\s*"dataset":\s*"([^"]+)",\s*"expected":\s*(\d+),\s*"id":\s*"([^"]+)"\s*\})re");
  int cases = 0;
  std::vector<std::string> failures;
  for (auto it = std::sregex_iterator(json.begin(), json.end(), case_re); it != std::sregex_iterator(); ++it) {
    ++cases;
    const std::string query = (*it)[1], dataset = (*it)[2], id = (*it)[4];
    const uint64_t expected = std::stoull((*it)[3]);
    REQUIRE(datasets.count(dataset));
    const auto& [kind, path] = datasets[dataset];
    const std::string pgn = kind == "pgn" ? test::slurp(fixtures / path) : test::games_from_fens(test::slurp(fixtures / path));
    try {
      uint64_t got = test::run_query(test::slurp(root / query), pgn).matches;
      if (got != expected) failures.push_back(id + ": expected " + std::to_string(expected) + ", got " + std::to_string(got));
    } catch (const cql::CqlError& e) {
      failures.push_back(id + ": rejected: " + e.what());
    }
  }
  CHECK(cases == 144);
  std::string list;
  for (const std::string& f : failures) list += "  " + f + "\n";
  INFO("failing cases:\n" << list);
  CHECK(failures.empty());
}
