// The planner's promise, end to end: for every corpus query (cql-examples, 406 files) `cqlindex run` with an
// index writes the same output file, byte for byte, and the same match line as a full scan (--no-index), or
// refuses the query the same way, on each of the four shared inputs.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

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

// Runs every .cql under `corpus` on `input` with and without its index; returns the queries that differ.
std::vector<std::string> compare_corpus(const fs::path& input, const std::string& corpus) {
  const fs::path dir = fs::temp_directory_path() /
                       ("cqlindex-indexed-" + std::to_string(::getpid()) + "-" + input.stem().string() + "-" + corpus);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(input, dir / "in.pgn");
  const std::string bin = shell_quote(CQLINDEX_BINARY);
  const std::string cd = "cd " + shell_quote(dir.string()) + " && ";
  REQUIRE(run_process(cd + bin + " build in.pgn >/dev/null 2>&1").exit_code == 0);
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
    auto indexed = run_process(cd + bin + " run -i in.pgn -o indexed.pgn query.cql 2>/dev/null");
    bool same = scan.exit_code == indexed.exit_code && match_line(scan.out) == match_line(indexed.out) &&
                slurp(dir / "scan.pgn") == slurp(dir / "indexed.pgn");
    if (!same)
      differ.push_back(fs::relative(q, data_dir() / "cql-examples").string() + " (exit " + std::to_string(scan.exit_code) +
                       " vs " + std::to_string(indexed.exit_code) + ", '" + match_line(scan.out) + "' vs '" +
                       match_line(indexed.out) + "')");
  }
  fs::remove_all(dir);
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
