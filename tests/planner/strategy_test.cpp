// The planner's strategy (planner/strategy.h): a lone similarposition is answered by the similar search,
// anything more (another filter, a header that selects or writes games otherwise, a run setting that does) by
// the scan plan; `explain` says so above the plan tree.
#include <catch2/catch.hpp>

#include "engine/cql/query.h"
#include "planner/strategy.h"
#include "planner_fixture.h"
#include "support/process.h"

using cqlindex::planner::choose_strategy;
using cqlindex::planner::Strategy;
using cqlindex::test::run_process;
using cqlindex::test::shell_quote;

namespace {

// Returns the strategy chosen for the query `text` (plain_output: no run setting changes the output).
Strategy strategy_of(const std::string& text, bool plain_output = true) {
  const cqlindex::cql::Query query = cqlindex::cql::parse_query(text);
  return choose_strategy(query, plain_output).kind;
}

}  // namespace

TEST_CASE("strategy: a lone similarposition is the similar search, anything more the scan", "[planner][strategy]") {
  CHECK(strategy_of("cql()\nsimilarposition \"subs.pgn\"\n") == Strategy::SimilarSearch);
  CHECK(strategy_of("cql()\nsimilarposition nosort notransform \"subs.pgn\"\n") == Strategy::SimilarSearch);
  CHECK(strategy_of("cql(input x.pgn output y.pgn)\nsimilarposition \"subs.pgn\"\n") == Strategy::SimilarSearch);
  // the node the similar search reads is the query's own
  const cqlindex::cql::Query query = cqlindex::cql::parse_query("cql()\nsimilarposition nosort \"subs.pgn\"\n");
  const auto chosen = choose_strategy(query);
  REQUIRE(chosen.similar);
  CHECK(chosen.similar->text == "subs.pgn");
  CHECK(chosen.similar->has(cqlindex::cql::Option::NoSort));

  CHECK(strategy_of("cql()\nsimilarposition \"subs.pgn\" btm\n") == Strategy::Scan);
  CHECK(strategy_of("cql()\nnot similarposition \"subs.pgn\"\n") == Strategy::Scan);
  CHECK(strategy_of("cql()\nmate\n") == Strategy::Scan);
  CHECK(strategy_of("cql(variations)\nsimilarposition \"subs.pgn\"\n") == Strategy::Scan);
  CHECK(strategy_of("cql(gamenumber 1 10)\nsimilarposition \"subs.pgn\"\n") == Strategy::Scan);
  CHECK(strategy_of("cql(matchcount 2 100)\nsimilarposition \"subs.pgn\"\n") == Strategy::Scan);
  CHECK(strategy_of("cql(result 1-0)\nsimilarposition \"subs.pgn\"\n") == Strategy::Scan);
  CHECK(strategy_of("cql(silent)\nsimilarposition \"subs.pgn\"\n") == Strategy::Scan);
  CHECK(strategy_of("cql()\nsimilarposition \"subs.pgn\"\n", false) == Strategy::Scan);  // e.g. -player, -year
}

TEST_CASE("strategy: explain names the similar search above the scan's plan", "[planner][strategy][explain]") {
  planner_test::TempDir dir("strategy");
  const std::string pgn = (dir.path / "games.pgn").string();
  std::ofstream(pgn, std::ios::binary)
      << "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
      << "[White \"C\"]\n[Black \"D\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n\n";
  const std::string subs = (dir.path / "subs.pgn").string();
  std::ofstream(subs, std::ios::binary) << "[White \"S\"]\n[Black \"T\"]\n[Result \"*\"]\n\n1. d4 d5 *\n\n";
  const std::string bin = shell_quote(CQLINDEX_BINARY);
  REQUIRE(run_process(bin + " build " + shell_quote(pgn) + " 2>&1").exit_code == 0);
  const std::string lone = (dir.path / "lone.cql").string(), more = (dir.path / "more.cql").string();
  std::ofstream(lone) << "cql()\nsimilarposition \"" << subs << "\"\n";
  std::ofstream(more) << "cql()\nsimilarposition \"" << subs << "\" btm\n";
  const std::string line = "strategy: similar search (a lone similarposition: the similar pipeline answers it; below, "
                           "the scan's plan)\n";

  auto r = run_process(bin + " explain " + shell_quote(lone) + " -i " + shell_quote(pgn) + " 2>&1");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find(line) != std::string::npos);
  CHECK(r.out.find("similar positions") != std::string::npos);  // the scan's plan follows
  r = run_process(bin + " explain " + shell_quote(more) + " -i " + shell_quote(pgn) + " 2>&1");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("strategy:") == std::string::npos);
}
