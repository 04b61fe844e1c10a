// Issue 15, item 5: input that took quadratic time (or hung) now costs linear time or is refused. No timed
// assertion: each input is large enough that the quadratic version runs for minutes, past the suite's ctest
// TIMEOUT, while the linear one takes a second or two.
#include <iterator>
#include <sys/stat.h>

#include "faults_support.h"

using namespace faults_test;

namespace {

// `games` short games on one line, without a single line end.
std::string one_line_games(size_t bytes) {
  const std::string game = "[Event \"x\"] [Result \"1-0\"] 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0 ";
  std::string s;
  s.reserve(bytes + game.size());
  while (s.size() < bytes) s += game;
  return s;
}

}  // namespace

TEST_CASE("build of 16 MB of games without a line end is linear (it scanned back to the line start per game)",
          "[faults][cost]") {
  Scratch dir("one-line");
  const std::string pgn = dir.write("g.pgn", one_line_games(16 << 20));
  auto r = run_cqlindex("build " + shell_quote(pgn));
  INFO(r.out.substr(0, 2000));
  CHECK(r.exit_code == 0);
  // the games' columns in the index are the columns a scan sees: same answers and messages both ways
  const std::string q = dir.write("q.cql", "cql()\nmate\n");
  const std::string run = "run " + shell_quote(q) + " -i " + shell_quote(pgn) + " -gamenumber 100000 100002 -o ";
  auto indexed = run_cqlindex(run + shell_quote(dir.file("a.pgn")) + " 2>/dev/null");
  auto scanned = run_cqlindex(run + shell_quote(dir.file("b.pgn")) + " --no-index 2>/dev/null");
  CHECK(indexed.exit_code == 0);
  CHECK(has(indexed.out, "3 matches of 100003 games"));
  CHECK(has(scanned.out, "3 matches of 100003 games"));
}

TEST_CASE("check of 10 MB of stray tag brackets on one movetext line is linear (each scanned back to the line start)",
          "[faults][cost]") {
  Scratch dir("stray-brackets");
  std::string text = "1. e4 e5 ";
  text.reserve(10 << 20);
  while (text.size() < (10 << 20)) text += "[x] ";
  text += "*\n";
  const std::string pgn = dir.write("g.pgn", text);
  auto r = run_cqlindex("check " + shell_quote(pgn) + " 2>&1 | tail -1");
  INFO(r.out);
  CHECK(has(r.out, "1 game"));
}

TEST_CASE("build of a named pipe is refused at once (it hung reading the pipe a second time)", "[faults][cost]") {
  Scratch dir("fifo");
  const std::string fifo = dir.file("g.pgn");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // (a writer keeps the pipe open so that the old behaviour hangs rather than reads an empty file)
  auto r = run_cqlindex("build " + shell_quote(fifo), "exec 9<>" + shell_quote(fifo) + ";");
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(has(r.out, "is not a regular file"));
  CHECK_FALSE(fs::exists(dir.file("g.pgn.cqlidx")));
}

TEST_CASE("similar with a million empty games as submissions is linear", "[faults][cost]") {
  Scratch dir("empty-submissions");
  std::string text;
  for (int i = 0; i < 1000000; ++i) text += "*\n";
  const std::string subs = dir.write("s.pgn", text);
  const std::string repo = dir.write("r.pgn", small_pgn());
  auto r = run_cqlindex("similar " + shell_quote(subs) + " -i " + shell_quote(repo) + " -o " +
                    shell_quote(dir.file("o.pgn")) + " 2>&1 | tail -3");
  INFO(r.out);
  CHECK(has(r.out, "matches"));
}

TEST_CASE("run -parse of 20,000 chained 'and's is refused at once (its tree dump took 8 GB and 45 s)", "[faults][cost]") {
  Scratch dir("parse-chain");
  std::string chain = "check";
  for (int i = 1; i < 20000; ++i) chain += " and check";
  const std::string q = dir.write("q.cql", "cql()\n" + chain + "\n");
  auto r = run_cqlindex("run -parse " + shell_quote(q));
  INFO(r.out.substr(0, 300));
  CHECK(r.exit_code == 1);
  CHECK(has(r.out, "nested too deeply"));
}

// (every tag is placed before the game's text is cut at CQL's cap, so all 300,000 are looked up)
TEST_CASE("a game of 300,000 tags is written in linear time, a repeated name in its first place with its last value",
          "[faults][cost]") {
  Scratch dir("many-tags");
  std::string text = "[Event \"x\"]\n";
  text.reserve(8 << 20);
  for (int i = 0; i < 300000; ++i) {
    // every 1,000th tag repeats the name of the one 500 before it (it searched the tags written so far per tag)
    const int name = i % 1000 == 999 ? i - 500 : i;
    text += "[T" + std::to_string(name) + " \"v" + std::to_string(i) + "\"]\n";
  }
  text += "\n1. e4 e5 *\n";
  const std::string pgn = dir.write("g.pgn", text);
  const std::string q = dir.write("q.cql", "cql() true\n");
  const std::string out = dir.file("out.pgn");
  auto r = run_cqlindex("run " + shell_quote(q) + " -i " + shell_quote(pgn) + " --no-index -o " + shell_quote(out));
  INFO(r.out.substr(0, 2000));
  CHECK(r.exit_code == 0);
  std::ifstream in(out, std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(has(written, "[T498 \"v498\"]\n[T499 \"v999\"]\n[T500 \"v500\"]\n"));  // T499 again at 999: its first place
  CHECK(!has(written, "\"v1999\"]\n[T1000 "));  // nothing written where the repeat came
  CHECK(has(written, "[T998 \"v998\"]\n[T1000 \"v1000\"]\n"));
  CHECK(has(written, "game truncated by CQL"));  // CQL's cap on a game's text: the tags past it are not written
}
