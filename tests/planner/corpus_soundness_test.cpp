// Soundness on CQL 6.2's own results: for every corpus query (cql-examples, 406 files) on the four shared
// inputs, every game CQL 6.2 matched (the `{Game number N}` comments of its golden output) must be among the
// planner's candidates. Also reports the pruning (median candidate share) for the queries that parse.
#include <algorithm>
#include <iostream>
#include <regex>
#include <set>

#include "planner_fixture.h"
#include "support/shared_data.h"

using namespace planner_test;

namespace {

std::string data_dir() { return cqlindex::test::shared_data(""); }
const std::string kRuns = data_dir() + "/cql-examples/expected-output/corpus-runs";

std::string input_pgn(const std::string& input) {
  if (input == "book_1.02.small-1005") return data_dir() + "/gnuchess-book/book_1.02.small-1005.pgn";
  if (input == "world_matches.train") return data_dir() + "/jvanreek-annotated/world_matches.train.pgn";
  if (input == "dortmund1928.train") return data_dir() + "/jvanreek-annotated/dortmund1928.train.pgn";
  if (input == "mate_in_2") return data_dir() + "/problems/mate-in-n-from-games/mate_in_2.pgn";
  return {};
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("every game CQL 6.2 matched is a candidate (406 corpus queries x 4 inputs)", "[planner][corpus]") {
  std::istringstream summary(read_text(kRuns + "/summary.tsv"));
  std::string line;
  std::getline(summary, line);  // header
  int rows = 0, runs = 0, checked = 0, unparsed = 0, unchecked_big = 0, bounded_runs = 0;
  std::vector<double> shares;
  const std::regex game_number(R"(Game\s+number\s+(\d+))");
  while (std::getline(summary, line)) {
    const auto f = split_tabs(line);
    REQUIRE(f.size() >= 8);
    ++rows;
    const std::string& input = f[0];
    const std::string query_path = data_dir() + "/cql-examples/" + f[2];
    if (f[3] != "0") continue;  // CQL 6.2 refused the query
    ++runs;
    cqlindex::cql::Query q;
    try {
      q = cqlindex::cql::parse_query(read_text(query_path));
    } catch (const std::exception&) {
      ++unparsed;
      continue;
    }
    const std::string pgn = input_pgn(input);
    REQUIRE(!pgn.empty());
    const auto& store = index_of(pgn);
    cqlindex::planner::PlanReport report;
    auto set = cqlindex::planner::plan_candidates(q, store, &report);
    INFO(input << " " << f[2] << "\n" << cqlindex::planner::format_plan(report));
    REQUIRE(report.error.empty());
    const double total = double(store.meta().game_count);
    shares.push_back(set ? double(set->cardinality()) / total : 1.0);
    if (set) ++bounded_runs;
    const int matches = std::stoi(f[4]);
    if (matches == 0) continue;
    if (f[7] == "-") {  // the golden output was too big to keep: only its count is known
      ++unchecked_big;
      if (set) CHECK(set->cardinality() >= uint64_t(matches));
      continue;
    }
    const std::string golden = read_text(kRuns + "/" + f[7]);
    std::set<uint32_t> matched;
    for (std::sregex_iterator it(golden.begin(), golden.end(), game_number), end; it != end; ++it)
      matched.insert(uint32_t(std::stoul((*it)[1])));
    REQUIRE(matched.size() == size_t(matches));
    ++checked;
    if (!set) continue;
    for (uint32_t n : matched) {
      INFO("game " << n << " matched by CQL 6.2 is not a candidate");
      CHECK(set->contains(n - 1));
    }
  }
  std::sort(shares.begin(), shares.end());
  const double median = shares.empty() ? 1.0 : shares[shares.size() / 2];
  double mean = 0;
  for (double s : shares) mean += s;
  mean = shares.empty() ? 1.0 : mean / double(shares.size());
  std::cout << "planner corpus soundness: " << runs << " runs, " << checked << " with matched games checked, "
            << unparsed << " not parsed by our front end, " << unchecked_big << " golden outputs too big to check; "
            << bounded_runs << " runs bounded; candidate share median " << median * 100 << "%, mean " << mean * 100
            << "%\n";
  CHECK(rows == 1624);  // 406 queries x 4 inputs
  CHECK(checked > 0);
}
