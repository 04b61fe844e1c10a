// The planner's promise, end to end: for every corpus query (cql-examples, 406 files) `cqlindex run` with an
// index writes the same output file, byte for byte, and the same match line as a full scan (--no-index), or
// refuses the query the same way, on each of the four shared inputs. And the index is used: where the plan
// narrows a query to fewer games than the file holds, the indexed run replays only those (its accounting line
// says how many the index ruled out), so a run that ignored its index would fail here too.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "engine/cql/query.h"
#include "planner/plan.h"
#include "store/index_store.h"
#include "support/process.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using cqlindex::test::run_process;
using cqlindex::test::shell_quote;

namespace {

fs::path data_dir() { return cqlindex::test::shared_data(""); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The match line without its timing ("N matches of M games").
std::string match_line(const std::string& out) {
  size_t at = out.find(" matches of ");
  if (at == std::string::npos) return "";
  size_t begin = out.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  size_t end = out.find(" games", at);
  return out.substr(begin, end - begin);
}

// Returns the count the run's accounting line (stderr) gives of the games the index ruled out; -1 when absent.
int64_t ruled_out(const std::string& messages) {
  const std::string marker = " ruled out by the index";
  const size_t at = messages.find(marker);
  if (at == std::string::npos) return -1;
  const size_t begin = messages.rfind(' ', at - 1);
  return std::stoll(messages.substr(begin + 1, at - begin - 1));
}

// Returns the number of games the plan of `query_text` rules out over `store`; 0 when it narrows nothing, or
// when the query does not parse or is not answered by the scan plan.
uint64_t planned_ruled_out(const cqlindex::store::IndexStore& store, const std::string& query_text) {
  try {
    const cqlindex::cql::Query q = cqlindex::cql::parse_query(query_text);
    cqlindex::planner::PlanReport report;
    const auto candidates = cqlindex::planner::plan_candidates(q, store, &report);
    if (!candidates || !report.error.empty() || report.strategy.similar_search()) return 0;
    return store.meta().game_count - candidates->cardinality();
  } catch (const std::exception&) {
    return 0;
  }
}

// Runs every .cql under `corpus` on `input` with and without its index; returns the queries that differ, or
// whose indexed run replayed other games than the plan's candidates.
std::vector<std::string> compare_corpus(const fs::path& input, const std::string& corpus) {
  const fs::path dir = fs::temp_directory_path() /
                       ("cqlindex-indexed-" + std::to_string(::getpid()) + "-" + input.stem().string() + "-" + corpus);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(input, dir / "in.pgn");
  const std::string bin = shell_quote(CQLINDEX_BINARY);
  const std::string cd = "cd " + shell_quote(dir.string()) + " && ";
  REQUIRE(run_process(cd + bin + " build in.pgn >/dev/null 2>&1").exit_code == 0);
  std::string error;
  auto store = cqlindex::store::IndexStore::open_for_reading((dir / "in.pgn.cqlidx").string(), &error);
  INFO(error);
  REQUIRE(store);
  uint64_t narrowed = 0;
  std::vector<fs::path> queries;
  for (const auto& e : fs::recursive_directory_iterator(data_dir() / "cql-examples" / corpus))
    if (e.path().extension() == ".cql") queries.push_back(e.path());
  std::sort(queries.begin(), queries.end());
  REQUIRE(!queries.empty());
  std::vector<std::string> differ;
  for (const fs::path& q : queries) {
    fs::copy_file(q, dir / "query.cql", fs::copy_options::overwrite_existing);
    fs::remove(dir / "scan.pgn");
    fs::remove(dir / "indexed.pgn");
    auto scan = run_process(cd + bin + " run -i in.pgn -o scan.pgn --no-index query.cql 2>/dev/null");
    auto indexed = run_process(cd + bin + " run -i in.pgn -o indexed.pgn query.cql 2>indexed.err");
    bool same = scan.exit_code == indexed.exit_code && match_line(scan.out) == match_line(indexed.out) &&
                slurp(dir / "scan.pgn") == slurp(dir / "indexed.pgn");
    const std::string name = fs::relative(q, data_dir() / "cql-examples").string();
    if (!same)
      differ.push_back(name + " (exit " + std::to_string(scan.exit_code) + " vs " + std::to_string(indexed.exit_code) +
                       ", '" + match_line(scan.out) + "' vs '" + match_line(indexed.out) + "')");
    const uint64_t planned = indexed.exit_code == 0 ? planned_ruled_out(*store, slurp(q)) : 0;
    if (planned > 0) {
      ++narrowed;
      const int64_t replay_skipped = ruled_out(slurp(dir / "indexed.err"));
      if (replay_skipped != int64_t(planned))
        differ.push_back(name + " (the plan rules out " + std::to_string(planned) + " games, the indexed run " +
                         std::to_string(replay_skipped) + ")");
    }
  }
  store.reset();
  fs::remove_all(dir);
  // the corpus has queries the index narrows on every input: the check above must have run
  if (narrowed == 0) differ.push_back("no query of " + corpus + " was narrowed by the index");
  return differ;
}

void require_same(const fs::path& input, const std::string& corpus) {
  std::vector<std::string> differ = compare_corpus(input, corpus);
  std::string list;
  for (const std::string& d : differ) list += "\n  " + d;
  INFO(input.filename().string() << " x " << corpus << ": indexed != full scan for:" << list);
  REQUIRE(differ.empty());
}

}  // namespace

TEST_CASE("indexed run == full scan: reti queries on the gnuchess 1,005-game sample", "[planner][indexed]") {
  require_same(data_dir() / "gnuchess-book" / "book_1.02.small-1005.pgn", "reti");
}
TEST_CASE("indexed run == full scan: distribution and opening-tactics queries on the gnuchess sample",
          "[planner][indexed]") {
  require_same(data_dir() / "gnuchess-book" / "book_1.02.small-1005.pgn", "cql62-distribution-examples");
  require_same(data_dir() / "gnuchess-book" / "book_1.02.small-1005.pgn", "opening-tactics-frequency");
}
TEST_CASE("indexed run == full scan: every corpus query on mate_in_2 (FEN starts)", "[planner][indexed]") {
  for (const char* corpus : {"reti", "cql62-distribution-examples", "opening-tactics-frequency"})
    require_same(data_dir() / "problems" / "mate-in-n-from-games" / "mate_in_2.pgn", corpus);
}
TEST_CASE("indexed run == full scan: every corpus query on world_matches (annotated, variations)", "[planner][indexed]") {
  for (const char* corpus : {"reti", "cql62-distribution-examples", "opening-tactics-frequency"})
    require_same(data_dir() / "jvanreek-annotated" / "world_matches.train.pgn", corpus);
}
TEST_CASE("indexed run == full scan: every corpus query on dortmund1928 (annotated, variations)", "[planner][indexed]") {
  for (const char* corpus : {"reti", "cql62-distribution-examples", "opening-tactics-frequency"})
    require_same(data_dir() / "jvanreek-annotated" / "dortmund1928.train.pgn", corpus);
}
