// Queries that crashed the evaluator or ran without bound: an integer overflow (SIGFPE, or a wrapped number), a
// regular expression over a long text (a stack overflow in the regex library) or an exponential one, a line
// over a 20,000-ply game (a stack overflow of the search), nested echoes that exhaust the memory. Each is now
// answered, or stopped with a query error (exit 1) that says why.
#include <string>
#include <vector>

#include "faults_support.h"

using namespace faults_test;

namespace {

// The run of `cql` (a query body) over `pgn` with --no-index, the output written to out.pgn in `dir`.
ProcessResult run_query(const Scratch& dir, const std::string& cql, const std::string& pgn,
                        const std::string& flags = "", const std::string& prefix = "") {
  const std::string query = dir.write("q.cql", "cql()\n" + cql + "\n");
  return run_cqlindex("run " + shell_quote(query) + " -i " + shell_quote(pgn) + " -o " +
                          shell_quote(dir.file("out.pgn")) + " --no-index " + flags,
                      prefix);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// One game of `plies` plies (the knights going out and back).
std::string knights_game(int plies, const std::string& tags = "[Event \"k\"]\n") {
  static const char* const moves[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
  std::string s = tags + "[Result \"*\"]\n\n";
  for (int i = 0; i < plies; ++i) {
    if (i % 2 == 0) s += std::to_string(i / 2 + 1) + ". ";
    s += moves[i % 4];
    s += ' ';
  }
  return s + "*\n";
}

}  // namespace

TEST_CASE("an integer overflow is a query error naming the operation, never a wrapped number or a crash",
          "[faults][overflow]") {
  Scratch dir("overflow");
  const std::string pgn = dir.write("g.pgn", small_pgn());
  struct Case {
    std::string cql, message;
  };
  const std::vector<Case> cases{
      {"initial va = 65536 * 32768 vb = va * va * 2 vc = vb / -1", "65536 * 32768"},
      {"initial va = 2147483647 vb = va + 1", "2147483647 + 1"},
      {"initial va = -2147483647 vb = va - 2", "-2147483647 - 2"},
      {"initial va = -2147483647 - 1 vb = va / -1", "-2147483648 / -1"},
      {"initial va = -2147483647 - 1 vb = -va", "-(-2147483648)"},
      {"initial va = -2147483647 - 1 vb = abs va", "abs(-2147483648)"},
      {"initial va = 2147483647 va += 1", "2147483647 + 1"},
      {"initial va = -2147483647 va -= 2", "-2147483647 - 2"},
      {"initial va = 65536 va *= 65536", "65536 * 65536"},
      {"initial va = -2147483647 - 1 va /= -1", "-2147483648 / -1"},
  };
  for (const Case& c : cases) {
    auto r = run_query(dir, c.cql, pgn);
    INFO(c.cql << "\n" << r.out.substr(0, 1000));
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "q.cql:2:"));
    CHECK(has(r.out, "integer overflow: " + c.message + " is outside CQL's integer range"));
  }
  // the edges of the range are CQL 6.2's answers
  auto r = run_query(dir,
                     "initial va = 2147483646 + 1 vb = -2147483647 - 1 vc = vb % -1 vd = 46340 * 46340 "
                     "comment(va \" \" vb \" \" vc \" \" vd)",
                     pgn);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(has(read_file(dir.file("out.pgn")), "{Game number 1 2147483647 -2147483648 0 2147395600 CQL}"));
}

TEST_CASE("a regular expression over a long text is answered, an exponential one is a query error",
          "[faults][regex]") {
  Scratch dir("regex");
  const std::string pgn = dir.write("g.pgn", small_pgn());
  const std::string long_a(131072, 'a');
  SECTION("a string of 131,072 letters") {
    auto r = run_query(dir, "initial s = \"" + long_a + "\" s ~~ \"^(a|b)*c\"", pgn);
    INFO(r.out.substr(0, 1000));
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "0 matches of 4 games"));
    r = run_query(dir, "initial s = \"" + long_a + "\" s ~~ \"^(a|b)*$\"", pgn);
    INFO(r.out.substr(0, 1000));
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "4 matches of 4 games"));
  }
  SECTION("a tag of 20,000 bytes, through ~~ and -player") {
    const std::string tag(20000, 'a');
    const std::string big = dir.write("big.pgn", knights_game(4, "[Event \"" + tag + "\"]\n[White \"" + tag + "\"]\n"));
    auto r = run_query(dir, "event ~~ \"^(a|b)*$\"", big);
    INFO(r.out.substr(0, 1000));
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "1 matches of 1 games"));
    r = run_query(dir, "true", big, "-player '^(a|b)*$'");
    INFO(r.out.substr(0, 1000));
    CHECK(r.exit_code == 0);
    CHECK(has(r.out, "1 matches of 1 games"));
  }
  SECTION("exponential backtracking stops with an error at the pattern") {
    const std::string text = std::string(40, 'a') + "b";
    for (const std::string& cql : {"initial s = \"" + text + "\" s ~~ \"^(a|aa)+$\"",
                                   "initial s = \"" + text + "\" while (s ~~ \"^(a|aa)+$\") true"}) {
      auto r = run_query(dir, cql, pgn);
      INFO(cql << "\n" << r.out.substr(0, 1000));
      CHECK(r.exit_code == 1);
      CHECK(has(r.out, "q.cql:2:"));
      CHECK(has(r.out, "the regular expression needs more work than a match may take"));
    }
    auto r = run_query(dir, "true", dir.write("p.pgn", knights_game(4, "[White \"" + text + "\"]\n")),
                       "-player '^(a|aa)+$'");
    INFO(r.out.substr(0, 1000));
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "-player: the regular expression needs more work than a match may take"));
  }
}

TEST_CASE("YACPDB's Stip over a 30,000-character stipulation is answered, an exponential one is a query error",
          "[faults][regex][yacpdb]") {
  Scratch dir("stip");
  const std::string olive = dir.write("p.olv", "---\nalgebraic:\n  white: [Kb7]\n  black: [Ke4]\nstipulation: '" +
                                                   std::string(30000, '#') + "a'\n");
  auto r = run_cqlindex("yacpdb " + shell_quote("Stip(\"^(#|a)*$\")") + " -i " + shell_quote(olive) + " --count");
  INFO(r.out.substr(0, 1000));
  CHECK(r.exit_code == 0);
  CHECK(has(r.out, "1 matches"));
  const std::string slow = dir.write("s.olv", "---\nalgebraic:\n  white: [Kb7]\n  black: [Ke4]\nstipulation: '" +
                                                  std::string(40, '#') + "b'\n");
  r = run_cqlindex("yacpdb " + shell_quote("Stip(\"^(#|##)+$\")") + " -i " + shell_quote(slow) + " --count");
  INFO(r.out.substr(0, 1000));
  CHECK(r.exit_code == 1);
  CHECK(has(r.out, "query:1:6: Stip: the regular expression needs more work than a match may take"));
}

TEST_CASE("line over a game of 20,000 plies is answered", "[faults][line]") {
  Scratch dir("line");
  const std::string pgn = dir.write("long.pgn", knights_game(20000));
  auto r = run_query(dir, "initial line --> .{0,} --> terminal", pgn);
  INFO(r.out.substr(0, 1000));
  REQUIRE(r.exit_code == 0);
  CHECK(has(r.out, "1 matches of 1 games"));
  CHECK(has(read_file(dir.file("out.pgn")), "Start line that ends at move 10001(wtm)"));  // its last position
  r = run_query(dir, "initial line --> .{0,} --> ply == 1000000", pgn);
  INFO(r.out.substr(0, 1000));
  CHECK(r.exit_code == 0);
  CHECK(has(r.out, "0 matches of 1 games"));
}

TEST_CASE("nested echoes stop with a query error before they exhaust the memory", "[faults][memory][echo]") {
  Scratch dir("echo");
  const std::string pgn = dir.write("g.pgn", knights_game(30));
  const std::string echoes = "echo (s1 t1) echo (s2 t2) echo (s3 t3) echo (s4 t4) true";
  SECTION("the comments a game's evaluation may hold") {
    auto r = run_query(dir, echoes, pgn, "", "ulimit -v 3000000;");
    INFO(r.out.substr(0, 1000));
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "the query holds more than 4194304 comments at game number 1"));
  }
  SECTION("the memory of the process") {
    auto r = run_query(dir, echoes, pgn, "", "ulimit -v 250000;");
    INFO(r.out.substr(0, 1000));
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "the query needs more memory than is available (at game number 1)"));
  }
}
