// Issue 15, item 4: input that crashed or aborted cqlindex now gets a clear message and an exit code (1 for a
// query or flag error, 2 for an input that cannot be used): absurd thread counts, deep CQL and YACPDB queries,
// a PGN truncated while it is read, an endless device, a small address space.
#include <regex>
#include <sstream>

#include "faults_support.h"
#include "support/parallel_runs.h"
#include "support/shared_data.h"

using namespace faults_test;

namespace {

std::string sample_pgn() { return cqlindex::test::shared_data("studies/cql-sample.pgn"); }

// `n` filters joined by `op`: "check and check and ...".
std::string chain(int n, const std::string& op) {
  std::string s = "check";
  for (int i = 1; i < n; ++i) s += " " + op + " check";
  return s;
}

// The output of a run as both paths must print it: the time taken out, the index's own notes dropped, and the
// games not matched counted together (a scan replays the games the index rules out).
std::string same_answer(const std::string& out) {
  std::string s;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.find("cqlindex run: the index ") == 0) continue;
    if (size_t at = line.find(" games in "); at != std::string::npos && line.find(" seconds using ") != std::string::npos)
      line = line.substr(0, at);
    const std::regex split("(\\d+) unmatched after a replay, (\\d+) ruled out by the index");
    std::smatch m;
    if (std::regex_search(line, m, split))
      line = m.prefix().str() + std::to_string(std::stoull(m[1]) + std::stoull(m[2])) + " not matched" +
             m.suffix().str();
    s += line + "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("a thread count below 0 or above 256 is a flag error on every command", "[faults][threads]") {
  Scratch dir("threads");
  const std::string pgn = dir.write("g.pgn", small_pgn());
  const std::string q = dir.write("q.cql", "cql()\ncheck\n");
  const std::string p = shell_quote(pgn);
  for (const std::string& args :
       {"check " + p + " --threads=-1", "check " + p + " --threads 100000", "build " + p + " --threads=-1",
        "build " + p + " --threads 257", "similar " + p + " -i " + p + " --threads=-1",
        "similar " + p + " -i " + p + " --threads 4294967295", "run " + shell_quote(q) + " -i " + p + " -threads 100000",
        "run " + shell_quote(q) + " -i " + p + " -threads -1", "run " + shell_quote(q) + " -i " + p +
        " -threads 99999999999999999999"}) {
    auto r = run_cqlindex(args);
    INFO(args << "\n" << r.out);
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "threads"));
    CHECK(has(r.out, "256"));
  }
  auto ok = run_cqlindex("check " + p + " --threads 256");
  INFO(ok.out);
  CHECK(ok.exit_code == 0);
}

TEST_CASE("a chain of 10,000 'and's is refused at its position, indexed, scanned, explained or parsed",
          "[faults][cql][depth]") {
  Scratch dir("and-chain");
  const std::string pgn = dir.write("g.pgn", small_pgn());
  REQUIRE(run_cqlindex("build " + shell_quote(pgn)).exit_code == 0);
  const std::string q = dir.write("q.cql", "cql()\n" + chain(10000, "and") + "\n");
  const std::string out = " -o " + shell_quote(dir.file("out.pgn"));
  for (const std::string& args : {"run " + shell_quote(q) + " -i " + shell_quote(pgn) + out,
                                  "run " + shell_quote(q) + " -i " + shell_quote(pgn) + " --no-index" + out,
                                  "run -parse " + shell_quote(q), "explain " + shell_quote(q) + " -i " + shell_quote(pgn)}) {
    auto r = run_cqlindex(args);
    INFO(args << "\n" << r.out.substr(0, 2000));
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "q.cql:2:"));
    CHECK(has(r.out, "nested too deeply"));
  }
}

TEST_CASE("a chain of 900 'and's and one of 900 'or's run the same indexed and scanned, and explain",
          "[faults][cql][depth]") {
  Scratch dir("long-chain");
  const std::string pgn = dir.write("g.pgn", small_pgn());
  REQUIRE(run_cqlindex("build " + shell_quote(pgn)).exit_code == 0);
  for (const std::string op : {"and", "or"}) {
    const std::string q = dir.write("q.cql", "cql()\n" + chain(900, op) + "\n");
    const std::string out = shell_quote(dir.file("out.pgn"));
    auto indexed = run_cqlindex("run " + shell_quote(q) + " -i " + shell_quote(pgn) + " -o " + out + " 2>/dev/null");
    auto scanned =
        run_cqlindex("run " + shell_quote(q) + " -i " + shell_quote(pgn) + " --no-index -o " + out + " 2>/dev/null");
    INFO(op << "\n" << indexed.out << "\n" << scanned.out);
    CHECK(indexed.exit_code == 0);
    CHECK(scanned.exit_code == 0);
    CHECK(has(indexed.out, "2 matches of 4 games"));
    CHECK(same_answer(indexed.out) == same_answer(scanned.out));
    auto plan = run_cqlindex("explain " + shell_quote(q) + " -i " + shell_quote(pgn));
    INFO(plan.out.substr(0, 2000));
    CHECK(plan.exit_code == 0);
    CHECK(has(plan.out, "candidates:"));
  }
}

TEST_CASE("20,000 nested braces, parentheses or 'not's in a CQL query are refused at their position",
          "[faults][cql][depth]") {
  Scratch dir("cql-nesting");
  const int n = 20000;
  for (const std::string& body : {std::string(n, '{') + "check" + std::string(n, '}'),
                                  std::string(n, '(') + "check" + std::string(n, ')'), [&] {
                                    std::string s;
                                    for (int i = 0; i < n; ++i) s += "not ";
                                    return s + "check";
                                  }()}) {
    const std::string q = dir.write("q.cql", "cql()\n" + body + "\n");
    auto r = run_cqlindex("run -parse " + shell_quote(q));
    INFO(r.out.substr(0, 500));
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "q.cql:2:"));
    CHECK(has(r.out, "nested too deeply"));
  }
}

TEST_CASE("20,000 nested parentheses or NOTs in a YACPDB query are a query error", "[faults][yacpdb][depth]") {
  const std::string olive = cqlindex::test::shared_data("problems/yacpdb-olive/chest_test.olv");
  const int n = 20000;
  std::string nots;
  for (int i = 0; i < n; ++i) nots += "NOT ";
  for (const std::string& query : {std::string(n, '(') + "Fairy" + std::string(n, ')'), nots + "Fairy"}) {
    auto r = run_cqlindex("yacpdb " + shell_quote(query) + " -i " + shell_quote(olive) + " --count");
    INFO(r.out.substr(0, 500));
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "nested more than 200 deep"));
  }
  auto fine = run_cqlindex("yacpdb " + shell_quote(std::string(100, '(') + "NOT Fairy" + std::string(100, ')')) + " -i " +
                       shell_quote(olive) + " --count");
  INFO(fine.out);
  CHECK(fine.exit_code == 0);
}

TEST_CASE("a PGN truncated between its opening and its reading ends every command with a message and exit 2",
          "[faults][truncated]") {
  Scratch dir("truncated");
  const std::string q = dir.write("q.cql", "cql()\ncheck\n");
  const std::string hook = "CQLINDEX_TEST_SHRINK_AFTER_OPEN=" + shell_quote(dir.file("g.pgn"));
  auto fresh = [&] {
    const std::string pgn = dir.file("g.pgn");
    fs::remove(pgn);
    fs::copy_file(sample_pgn(), pgn);
    fs::permissions(pgn, fs::perms::owner_read | fs::perms::owner_write);
    return shell_quote(pgn);
  };
  for (const std::string command : {"check", "run", "similar", "build"}) {
    const std::string pgn = fresh();
    std::string args = command == "check"   ? "check " + pgn
                       : command == "run"     ? "run " + shell_quote(q) + " -i " + pgn + " --no-index -o " +
                                                  shell_quote(dir.file("out.pgn"))
                       : command == "similar" ? "similar " + pgn + " -i " + shell_quote(sample_pgn()) + " --no-index -o " +
                                                    shell_quote(dir.file("out.pgn"))
                                              : "build " + pgn;
    auto r = run_cqlindex(args, hook);
    INFO(args << "\n" << r.out.substr(0, 3000));
    CHECK(r.exit_code == 2);
    if (command != "build")  // (build sees the change when it fingerprints the file, before it reads the games)
      CHECK(has(r.out, "g.pgn changed while it was read"));
  }
}

TEST_CASE("check of an endless device stops with a message when memory runs out", "[faults][memory]") {
  auto r = run_cqlindex("check /dev/urandom", "ulimit -v 600000;");
  INFO(r.out.substr(0, 2000));
  CHECK(r.exit_code == 2);
  CHECK(has(r.out, "/dev/urandom: too large to hold in memory"));
}

TEST_CASE("build in a small address space fits or says it is out of memory", "[faults][memory]") {
  Scratch dir("small-memory");
  const std::string pgn = dir.file("g.pgn");
  fs::copy_file(sample_pgn(), pgn);
  for (const std::string limit : {"200000", "120000"}) {
    auto r = run_cqlindex("build " + shell_quote(pgn), "ulimit -v " + limit + ";");
    INFO("ulimit -v " << limit << "\n" << r.out.substr(0, 3000));
    CHECK((r.exit_code == 0 || r.exit_code == 2));
    if (r.exit_code == 2) CHECK(has(r.out, "out of memory"));
    CHECK_FALSE(has(r.out, "terminate"));
  }
  // 200 MB is enough for the sample on any number of cores
  auto r = run_cqlindex("build " + shell_quote(pgn) + " --threads 8", "ulimit -v 200000;");
  INFO(r.out.substr(0, 3000));
  CHECK(r.exit_code == 0);
}

TEST_CASE("build of the 116,573-game PGN in 200 MB of address space fits (long)", "[faults][memory][long]") {
  if (!cqlindex::test::long_tests_enabled()) {
    WARN("skipped: a long test (CQLINDEX_LONG_TESTS=1)");
    return;
  }
  Scratch dir("large-small-memory");
  const std::string pgn = dir.file("g.pgn");
  const std::string xz = cqlindex::test::shared_data("gnuchess-book/book_1.02.train-116573.pgn.xz");
  REQUIRE(cqlindex::test::run_process("xz -dc " + shell_quote(xz) + " > " + shell_quote(pgn)).exit_code == 0);
  auto r = run_cqlindex("build " + shell_quote(pgn), "ulimit -v 200000;");
  INFO(r.out);
  CHECK(has(r.out, "116573 games"));
  const std::string q = dir.write("q.cql", "cql()\nmate\n");
  const std::string run = "run " + shell_quote(q) + " -i " + shell_quote(pgn) + " -o " + shell_quote(dir.file("o.pgn"));
  auto indexed = run_cqlindex(run + " 2>/dev/null", "ulimit -v 200000;");
  auto scanned = run_cqlindex(run + " --no-index 2>/dev/null");
  CHECK(indexed.exit_code == 0);
  CHECK(same_answer(indexed.out) == same_answer(scanned.out));
}
