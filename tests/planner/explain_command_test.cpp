// `cqlindex explain` end to end: build an index with the binary, explain a query over it, and the exit codes
// of the ways it can fail (no index: 2, a query error or usage error: 1).
#include "planner_fixture.h"
#include "support/process.h"

using namespace planner_test;
using cqlindex::test::run_process;
using cqlindex::test::shell_quote;

TEST_CASE("explain prints the plan tree, the candidates and their share", "[planner][explain]") {
  TempDir dir("explain");
  const std::string pgn = (dir.path / "games.pgn").string();
  std::ofstream(pgn, std::ios::binary)
      << "[White \"Kasparov, Garry\"]\n[Black \"X\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
      << "[White \"Y\"]\n[Black \"Z\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n\n";
  const std::string bin = shell_quote(CQLINDEX_BINARY);
  const std::string query = (dir.path / "q.cql").string();
  std::ofstream(query) << "cql(input games.pgn)\nmate player white \"Kasparov\" not check\n";

  auto missing = run_process(bin + " explain " + shell_quote(query) + " -i " + shell_quote(pgn) + " 2>&1");
  CHECK(missing.exit_code == 2);  // no index yet

  REQUIRE(run_process(bin + " build " + shell_quote(pgn) + " 2>&1").exit_code == 0);
  auto r = run_process(bin + " explain " + shell_quote(query) + " -i " + shell_quote(pgn) + " 2>&1");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("game flag mate (flags)") != std::string::npos);
  CHECK(r.out.find("tag: White contains \"Kasparov\" (tags)") != std::string::npos);
  CHECK(r.out.find("negation") != std::string::npos);
  CHECK(r.out.find("candidates: 1 of 2 games (50.00%)") != std::string::npos);

  const std::string bad = (dir.path / "bad.cql").string();
  std::ofstream(bad) << "cql(input games.pgn)\nmate {\n";
  auto e = run_process(bin + " explain " + shell_quote(bad) + " -i " + shell_quote(pgn) + " 2>&1");
  CHECK(e.exit_code == 1);
  CHECK(e.out.find("bad.cql:") != std::string::npos);
  CHECK(run_process(bin + " explain 2>&1").exit_code == 1);

  // a query file that is missing or a folder: the message `run` gives, not a parse error about an empty query
  for (const std::string& q : {(dir.path / "absent.cql").string(), dir.path.string()}) {
    auto unreadable = run_process(bin + " explain " + shell_quote(q) + " -i " + shell_quote(pgn) + " 2>&1");
    INFO(unreadable.out);
    CHECK(unreadable.exit_code == 1);
    CHECK(unreadable.out == "cqlindex explain: cannot read query file '" + q + "'\n");
  }
}
