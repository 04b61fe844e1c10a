// CQL 6.2's random-differential cases where the index answered differently from the scan (repro-2, the rows of
// class E in its index.tsv): `cqlindex run --no-index` must answer as CQL 6.2 did (exit status, match line,
// output bytes), and the run with the input's index as --no-index does. Each input is copied into a folder of
// its own, under its own name, as CQL 6.2 ran it, and indexed there.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "planner_fixture.h"
#include "support/cqlindex_run.h"
#include "support/shared_data.h"

using namespace planner_test;
using cqlindex::test::RunOutcome;
using cqlindex::test::shell_quote;

namespace {

// The cells of each line of a tab-separated file (the header line included).
std::vector<std::vector<std::string>> tsv_rows(const std::string& path) {
  std::istringstream in(read_text(path));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::vector<std::string>& cells = rows.emplace_back();
    std::istringstream s(line);
    for (std::string cell; std::getline(s, cell, '\t');) cells.push_back(cell);
  }
  return rows;
}

}  // namespace

TEST_CASE("repro-2's index cases: the indexed run answers as --no-index and CQL 6.2", "[planner][indexed]") {
  const std::string repro =
      cqlindex::test::shared_data("cql-examples/expected-output/random-differential/repro-2");
  const auto rows = tsv_rows(repro + "/index.tsv");
  REQUIRE(rows.size() > 1);
  const std::vector<std::string>& head = rows[0];
  auto column = [&](const std::string& name) {
    const size_t at = size_t(std::find(head.begin(), head.end(), name) - head.begin());
    REQUIRE(at < head.size());
    return at;
  };
  const size_t id_at = column("case"), class_at = column("class"), input_at = column("input"),
               exit_at = column("cql_exit"), match_at = column("cql_match_line");
  int cases = 0;
  for (size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string>& row = rows[r];
    if (row.size() <= match_at || row[class_at] != "E") continue;
    ++cases;
    const std::string dir = repro + "/" + row[id_at];
    INFO("case " << row[id_at] << ": " << read_text(dir + "/query.cql"));
    TempDir work("repro-" + row[id_at]);
    fs::copy_file(repro + "/inputs/" + row[input_at], work.path / row[input_at]);
    const std::string input = (work.path / row[input_at]).string();
    auto build = cqlindex::test::run_process("cd " + shell_quote(work.path.string()) + " && " +
                                             shell_quote(CQLINDEX_BINARY) + " build " + shell_quote(input) + " 2>&1");
    INFO(build.out);
    REQUIRE(build.exit_code == 0);
    const RunOutcome scan = cqlindex::test::run_cqlindex(work.path, "scan", "--no-index", input, dir + "/query.cql");
    const RunOutcome indexed = cqlindex::test::run_cqlindex(work.path, "indexed", "", input, dir + "/query.cql");
    CHECK(scan.exit_code == std::stoi(row[exit_at]));
    CHECK(scan.match_line == row[match_at]);
    bool ok = true;
    const std::string golden = fs::exists(dir + "/cql.pgn.xz")
                                   ? cqlindex::test::golden_bytes(dir + "/cql.pgn.xz", &ok)
                                   : cqlindex::test::golden_bytes(dir + "/cql.pgn", &ok);
    REQUIRE(ok);
    CHECK(scan.output == golden);
    CHECK(cqlindex::test::same_answer(scan, indexed) == "");
  }
  CHECK(cases >= 1);  // X01: year != 2000 over a game without a year
}
