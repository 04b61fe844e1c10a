// `cqlindex run` over a repository of several PGN files (issue 18): the shared data cut into 3-5 files at game
// boundaries (the pieces concatenated are the original bytes), and every answer compared byte for byte with
// the run over the whole file: the output file ({Game number N} comments, sort order), CQL's summary line and
// standard output (persistent variables, `message` lines), with and without indexes, from repeated -i and from
// a .cqlrepo list; -gamenumber ranges that cross the cuts. A stale index in the middle file and a list with a
// bad line are refused by name.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

#include "multi/multi_test_util.h"
#include "support/file_bytes.h"
#include "support/process.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using namespace multi_test;

namespace {


// Runs `cqlindex run ARGS -o DIR/out.pgn QUERY` in `dir` as one process.
Answer run(const fs::path& dir, const std::string& args, const std::string& query) {
  return run_in(dir, 0, args, query);
}

// Returns what the accounting line of a run's standard error says whether an index ruled games out or not
// ("N games, M evaluated: K matched" and the games with errors), else "".
std::string accounting(const std::string& err) {
  static const std::regex line(
      "cqlindex run: ([0-9]+ games, [0-9]+ evaluated: [0-9]+ matched), .*(\\([0-9]+ games with errors)");
  std::smatch m;
  return std::regex_search(err, m, line) ? m.str(1) + " " + m.str(2) : "";
}

// Compares the runs of `query` (with `extra` flags) over the whole file and over its parts, given as -i flags
// and as a .cqlrepo list.
void check_same(const fs::path& dir, const std::vector<std::string>& parts, const std::string& query,
                const std::string& extra) {
  INFO("query " << query << " " << extra);
  const Answer whole = run(dir, extra + " -i whole.pgn", query);
  REQUIRE(whole.exit_code == 0);
  CHECK(whole.out.find(" matches of ") != std::string::npos);
  std::string list = "# the parts of whole.pgn, in order\n\n";
  for (const std::string& p : parts) list += fs::path(p).filename().string() + "\n";
  write(dir / "parts.cqlrepo", list);
  for (const std::string& args : {inputs(parts), std::string(" -i parts.cqlrepo")}) {
    INFO("repository" << args);
    const Answer repo = run(dir, extra + args, query);
    INFO(repo.err);
    CHECK(repo.exit_code == whole.exit_code);
    CHECK(without_timing(repo.out) == without_timing(whole.out));
    CHECK_FALSE(accounting(whole.err).empty());
    CHECK(accounting(repo.err) == accounting(whole.err));  // every game accounted for as over one file
    CHECK(repo.output.size() == whole.output.size());
    CHECK(repo.output == whole.output);
  }
}

// The corpus queries run over every split: plain, sorted, persistent (cross-game state), dictionary.
const std::vector<std::string> kQueries = {
    exalpha("smotheredmate.cql"), exalpha("passers.cql"),      exalpha("staircase-sort.cql"),
    exalpha("persistent.cql"),    exalpha("gameinfo2.cql"),    exalpha("followpath.cql"),
};

}  // namespace

TEST_CASE("run over the studies file cut into four equals the run over the whole file", "[multi][run]") {
  const fs::path dir = scratch("studies");
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {60, 61, 190});
  REQUIRE(parts.size() == 4);
  // a query that keeps a dictionary and prints a message from game to game
  write(dir / "dictionary.cql",
        "cql()\ndictionary Seen\nif initial {\n  persistent Games += 1\n  Seen[player white] = Games\n"
        "  message (\"game \" Games)\n}\ncheck\n");
  // lastgamenumber: CQL's estimate counts "[White " over every file, as over the concatenation
  write(dir / "lastgamenumber.cql", "cql()\ngamenumber > lastgamenumber - 3\n");
  std::vector<std::string> queries = kQueries;
  queries.push_back((dir / "dictionary.cql").string());
  queries.push_back((dir / "lastgamenumber.cql").string());
  SECTION("without indexes") {
    for (const std::string& q : queries) check_same(dir, parts, q, "");
    check_same(dir, parts, exalpha("passers.cql"), "-gamenumber 50 200");  // from part 1 into part 4
    check_same(dir, parts, exalpha("passers.cql"), "-gamenumber 60 60");   // the one game of part 2
    check_same(dir, parts, exalpha("passers.cql"), "-gamenumber 59 59");   // ends with part 1: reads game 60
    check_same(dir, parts, exalpha("staircase-sort.cql"), "-gamenumber 100 260");
  }
  SECTION("with indexes") {
    build(parts);
    build({(dir / "whole.pgn").string()});
    for (const std::string& q : queries) check_same(dir, parts, q, "");
    check_same(dir, parts, exalpha("passers.cql"), "-gamenumber 50 200");
    check_same(dir, parts, exalpha("passers.cql"), "-gamenumber 60 60");
    check_same(dir, parts, exalpha("passers.cql"), "-gamenumber 59 59");
    check_same(dir, parts, exalpha("smotheredmate.cql"), "-gamenumber 2 300");
    check_same(dir, parts, exalpha("staircase-sort.cql"), "-gamenumber 100 260");
    // --no-index over indexed files answers the same
    check_same(dir, parts, exalpha("staircase-sort.cql"), "--no-index");
  }
}

TEST_CASE("run over gnuchess games cut into three equals the run over the whole file", "[multi][run]") {
  const fs::path dir = scratch("gnuchess");
  const auto parts = split(dir, file_bytes(shared_data("gnuchess-book/book_1.02.small-1005.pgn")), {400, 700});
  REQUIRE(parts.size() == 3);
  const std::vector<std::string> queries = {
      exalpha("smotheredmate.cql"), exalpha("persistent.cql"), exalpha("staircase-sort.cql"),
      shared_data("cql-examples/opening-tactics-frequency/bishop_sac_h7.cql")};
  SECTION("without indexes") {
    for (const std::string& q : queries) check_same(dir, parts, q, "");
    check_same(dir, parts, exalpha("smotheredmate.cql"), "-gamenumber 390 710");
  }
  SECTION("with indexes, only the middle file indexed (the others scanned)") {
    build({parts[1]});
    const Answer partial = run(dir, inputs(parts), exalpha("smotheredmate.cql"));
    CHECK(partial.exit_code == 0);
    CHECK(partial.err.find("no index for " + parts[0] + ", " + parts[2]) != std::string::npos);
    check_same(dir, parts, exalpha("smotheredmate.cql"), "");
    build({parts[0], parts[2], (dir / "whole.pgn").string()});
    for (const std::string& q : queries) check_same(dir, parts, q, "");
    check_same(dir, parts, exalpha("smotheredmate.cql"), "-gamenumber 390 710");
  }
}

TEST_CASE("run over 3,000 games of the gnuchess train file cut into five equals the run over them whole",
          "[multi][run]") {
  const fs::path dir = scratch("train");
  auto unpacked = run_process("xz -dc " + shell_quote(shared_data("gnuchess-book/book_1.02.train-116573.pgn.xz")) +
                              " 2>/dev/null | head -c 2000000");
  std::string text = unpacked.out;
  cqlindex::pgn::GameSplitter splitter(text);
  cqlindex::pgn::GameSpan span;
  while (splitter.next(span) && span.number < 3001) {
  }
  REQUIRE(span.number == 3001);
  text.resize(span.offset);  // the first 3,000 games
  const auto parts = split(dir, text, {500, 1200, 1201, 2400});
  REQUIRE(parts.size() == 5);
  for (const std::string& q : {exalpha("persistent.cql"), exalpha("staircase-sort.cql")})
    check_same(dir, parts, q, "");
  check_same(dir, parts, exalpha("smotheredmate.cql"), "-gamenumber 1000 2500");
  build(parts);
  build({(dir / "whole.pgn").string()});
  for (const std::string& q : {exalpha("persistent.cql"), exalpha("staircase-sort.cql"),
                               exalpha("smotheredmate.cql")})
    check_same(dir, parts, q, "");
  check_same(dir, parts, exalpha("smotheredmate.cql"), "-gamenumber 1000 2500");
}

TEST_CASE("a stale index in the middle file is refused by name before any output", "[multi][run]") {
  const fs::path dir = scratch("stale");
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {80, 160});
  build(parts);
  // the middle file changes after its build: same size, other bytes
  std::string middle = file_bytes(parts[1]);
  const size_t at = middle.find("[Event \"");
  REQUIRE(at != std::string::npos);
  middle[at + 8] = middle[at + 8] == 'X' ? 'Y' : 'X';
  write(parts[1], middle);
  const Answer refused = run(dir, inputs(parts), exalpha("smotheredmate.cql"));
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find(parts[1]) != std::string::npos);
  CHECK(refused.err.find(parts[0]) == std::string::npos);
  CHECK(refused.out.find(" matches of ") == std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out.pgn"));
  // --no-index reads it anyway
  CHECK(run(dir, "--no-index" + inputs(parts), exalpha("smotheredmate.cql")).exit_code == 0);
}

TEST_CASE("a .cqlrepo list: paths relative to its folder, comments, and a bad line refused by file:line:col",
          "[multi][run]") {
  const fs::path dir = scratch("list");
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {100});
  fs::create_directories(dir / "lists");
  write(dir / "lists" / "good.cqlrepo", "# two parts\n../part1.pgn\n\n  # indented comment\n" +
                                            fs::absolute(parts[1]).string() + "\r\n");
  const Answer good = run(dir, "-i lists/good.cqlrepo", exalpha("smotheredmate.cql"));
  const Answer whole = run(dir, "-i whole.pgn", exalpha("smotheredmate.cql"));
  CHECK(good.exit_code == 0);
  CHECK(good.output == whole.output);

  write(dir / "lists" / "bad.cqlrepo", "../part1.pgn\n# next: missing\n  ../missing.pgn\n");
  const Answer bad = run(dir, "-i lists/bad.cqlrepo", exalpha("smotheredmate.cql"));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("lists/bad.cqlrepo:3:3: cannot read 'lists/../missing.pgn'") != std::string::npos);

  write(dir / "lists" / "nested.cqlrepo", "good.cqlrepo\n");
  const Answer nested = run(dir, "-i lists/nested.cqlrepo", exalpha("smotheredmate.cql"));
  CHECK(nested.exit_code == 2);
  CHECK(nested.err.find("lists/nested.cqlrepo:1:1: 'good.cqlrepo' is a repository list") != std::string::npos);

  write(dir / "lists" / "empty.cqlrepo", "# nothing\n");
  const Answer empty = run(dir, "-i lists/empty.cqlrepo", exalpha("smotheredmate.cql"));
  CHECK(empty.exit_code == 2);
  CHECK(empty.err.find("names no PGN file") != std::string::npos);

  // the output may not be one of the repository's files
  const std::string before = file_bytes(parts[0]);
  auto onto = run_process("cd " + shell_quote(dir.string()) + " && " + shell_quote(CQLINDEX_BINARY) +
                          " run -i lists/good.cqlrepo -o part1.pgn " + shell_quote(exalpha("smotheredmate.cql")) +
                          " 2>&1");
  CHECK(onto.exit_code == 1);
  CHECK(file_bytes(parts[0]) == before);
}

TEST_CASE("a repository with a dirty file in the middle counts and reports its games as the concatenation does",
          "[multi][run]") {
  const fs::path dir = scratch("dirty");
  const std::string studies = file_bytes(shared_data("studies/cql-sample.pgn"));
  const std::string dirty =
      "[Event \"illegal\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n"
      "[Event \"fine\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
      "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
  // the studies cut in two, the dirty file between the halves
  const auto halves = split(dir, studies, {120});
  write(dir / "dirty.pgn", dirty);
  const std::vector<std::string> parts = {halves[0], (dir / "dirty.pgn").string(), halves[1]};
  write(dir / "whole.pgn", file_bytes(parts[0]) + dirty + file_bytes(parts[2]));
  write(dir / "mate.cql", "cql()\nmate\n");
  for (const std::string& q : {(dir / "mate.cql").string(), exalpha("passers.cql")}) check_same(dir, parts, q, "");
  // its error is reported where it is, with the game's number in the repository
  const Answer repo = run(dir, inputs(parts), (dir / "mate.cql").string());
  CHECK(repo.err.find((dir / "dirty.pgn").string() + ":6:") != std::string::npos);
  CHECK(repo.err.find(": game 120: ") != std::string::npos);
  build(parts);
  build({(dir / "whole.pgn").string()});
  for (const std::string& q : {(dir / "mate.cql").string(), exalpha("passers.cql")}) check_same(dir, parts, q, "");
  check_same(dir, parts, (dir / "mate.cql").string(), "-gamenumber 110 130");
}
