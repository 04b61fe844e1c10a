// The planner's soundness on queries nobody wrote by hand: a seeded generator (support/random_cql.h) combines
// the constructs the planner has rules for (piece designators, counts, mate/stalemate/check, moves, tags, game filters) with
// and/or/not, transforms and header parameters. For each query, every game the evaluator matches (a full
// scan, in-process) must be among the planner's candidates; for a sample, `cqlindex run` with the index
// writes the same bytes as `--no-index`. A failure prints the seed and the query.
#include <iostream>

#include "engine/cql/eval/evaluator.h"
#include "engine/pgn/reader.h"
#include "planner_fixture.h"
#include "support/process.h"
#include "support/random_cql.h"
#include "support/shared_data.h"

using namespace planner_test;
namespace eval = cqlindex::cql::eval;

namespace {

std::string data_dir() { return cqlindex::test::shared_data(""); }

// The games of a PGN, parsed once.
const std::vector<cqlindex::pgn::Game>& games_of(const std::string& pgn) {
  static auto* cache = new std::map<std::string, std::vector<cqlindex::pgn::Game>>;
  auto& games = (*cache)[pgn];
  if (games.empty()) {
    static auto* texts = new std::map<std::string, std::string>;
    const std::string& text = (*texts)[pgn] = read_text(pgn);
    cqlindex::pgn::GameReader reader(text);
    while (reader.next(games.emplace_back())) {
    }
    games.pop_back();
  }
  return games;
}

// 0-based ids of the games the evaluator matches (the header's game filters applied as `run` does).
std::vector<uint32_t> scan_matches(const cqlindex::cql::Query& q, const std::vector<cqlindex::pgn::Game>& games) {
  eval::EvalOptions options;
  options.variations = q.header.variations;
  options.matchcount = q.header.matchcount;
  options.result = q.header.result;
  eval::Program program = eval::compile(q, options);
  eval::GameScanner scanner(program);
  std::vector<uint32_t> matched;
  for (size_t i = 0; i < games.size(); ++i) {
    if (q.header.gamenumber && (int64_t(i + 1) < q.header.gamenumber->min || int64_t(i + 1) > q.header.gamenumber->max))
      continue;
    if (scanner.scan(games[i]).matched) matched.push_back(uint32_t(i));
  }
  return matched;
}

struct Tally {
  int generated = 0, rejected = 0, bounded = 0, with_matches = 0;
};

void check_random_queries(const std::string& pgn, uint32_t first_seed, int count, Tally& tally) {
  const auto& store = index_of(pgn);
  const auto& games = games_of(pgn);
  REQUIRE(games.size() == store.meta().game_count);
  for (int i = 0; i < count; ++i) {
    const uint32_t seed = first_seed + uint32_t(i);
    const std::string text = cqlindex::test::RandomCql(seed).planner_query();
    ++tally.generated;
    cqlindex::cql::Query q;
    std::vector<uint32_t> matched;
    try {
      q = cqlindex::cql::parse_query(text);
      matched = scan_matches(q, games);
    } catch (const std::exception&) {
      ++tally.rejected;  // a generated combination CQL rejects (e.g. a type error): nothing to plan
      continue;
    }
    cqlindex::planner::PlanReport report;
    auto candidates = cqlindex::planner::plan_candidates(q, store, &report);
    INFO("seed " << seed << " on " << pgn << ":\n" << text << cqlindex::planner::format_plan(report));
    REQUIRE(report.error.empty());
    if (!matched.empty()) ++tally.with_matches;
    if (!candidates) continue;
    ++tally.bounded;
    for (uint32_t id : matched) {
      INFO("game " << id + 1 << " (number " << games[id].number << ") matches but is not a candidate");
      REQUIRE(candidates->contains(id));
    }
  }
}

}  // namespace

TEST_CASE("randomised queries: every matching game is a candidate on the gnuchess sample and mate_in_2", "[planner][random]") {
  Tally tally;
  check_random_queries(data_dir() + "/gnuchess-book/book_1.02.small-1005.pgn", 1000, 400, tally);
  check_random_queries(data_dir() + "/problems/mate-in-n-from-games/mate_in_2.pgn", 5000, 400, tally);
  std::cout << "randomised planner queries: " << tally.generated << " generated, " << tally.rejected << " rejected, "
            << tally.bounded << " bounded, " << tally.with_matches << " with matches\n";
  // the generator must exercise the planner, not just produce rejected or unbounded queries
  CHECK(tally.rejected < tally.generated / 4);
  CHECK(tally.bounded > tally.generated / 3);
  CHECK(tally.with_matches > tally.generated / 5);
}

TEST_CASE("randomised queries: `run` with the index writes what --no-index writes", "[planner][random]") {
  namespace fs = std::filesystem;
  TempDir dir("random-run");
  const std::string input = data_dir() + "/problems/mate-in-n-from-games/mate_in_2.pgn";
  fs::copy_file(input, dir.path / "in.pgn");
  const std::string bin = cqlindex::test::shell_quote(CQLINDEX_BINARY);
  const std::string cd = "cd " + cqlindex::test::shell_quote(dir.path.string()) + " && ";
  REQUIRE(cqlindex::test::run_process(cd + bin + " build in.pgn >/dev/null 2>&1").exit_code == 0);
  int compared = 0;
  for (uint32_t seed = 9000; seed < 9060; ++seed) {
    const std::string text = cqlindex::test::RandomCql(seed).planner_query();
    std::ofstream(dir.path / "q.cql") << text;
    fs::remove(dir.path / "scan.pgn");
    fs::remove(dir.path / "indexed.pgn");
    auto scan = cqlindex::test::run_process(cd + bin + " run -i in.pgn -o scan.pgn --no-index q.cql 2>/dev/null");
    auto indexed = cqlindex::test::run_process(cd + bin + " run -i in.pgn -o indexed.pgn q.cql 2>/dev/null");
    INFO("seed " << seed << ":\n" << text);
    REQUIRE(scan.exit_code == indexed.exit_code);
    if (scan.exit_code != 0) continue;
    ++compared;
    auto matches = [](const std::string& out) { return out.substr(0, out.find(" games")); };
    CHECK(matches(scan.out) == matches(indexed.out));
    CHECK(read_text((dir.path / "scan.pgn").string()) == read_text((dir.path / "indexed.pgn").string()));
  }
  CHECK(compared > 40);
}
