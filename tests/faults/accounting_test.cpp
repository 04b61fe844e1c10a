// Issue 15, item 6: a run reports the same PGN errors and counts whether the index rules games out or not, and
// an index the system will not let us read (permissions, the limit of open files) is reported as such, not
// as damaged.
#include <sstream>
#include <vector>

#include "faults_support.h"

using namespace faults_test;

namespace {

// The lines of `out` that start with `prefix` (the PGN's error messages), in order.
std::vector<std::string> lines_starting(const std::string& out, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  return lines;
}

// The "(N games with errors" part of a run's summary.
std::string error_count(const std::string& out) {
  const size_t at = out.find(" games with errors");
  if (at == std::string::npos) return "";
  return out.substr(out.rfind('(', at), at - out.rfind('(', at));
}

}  // namespace

TEST_CASE("indexed and scanned runs report the same PGN errors, those of ruled-out games included",
          "[faults][accounting]") {
  Scratch dir("accounting");
  const std::string pgn = dir.write("g.pgn", small_pgn());
  REQUIRE(run_cqlindex("build " + shell_quote(pgn)).exit_code == 0);
  for (const char* body : {"mate", "check", "stalemate", "player white \"nobody\""}) {
    const std::string q = dir.write("q.cql", std::string("cql()\n") + body + "\n");
    const std::string run = "run " + shell_quote(q) + " -i " + shell_quote(pgn) + " -o " + shell_quote(dir.file("o.pgn"));
    auto indexed = run_cqlindex(run);
    auto scanned = run_cqlindex(run + " --no-index");
    INFO(body << "\nindexed:\n" << indexed.out << "\nscanned:\n" << scanned.out);
    CHECK(indexed.exit_code == 0);
    CHECK(scanned.exit_code == 0);
    const auto errors = lines_starting(scanned.out, pgn + ":");
    CHECK(errors.size() >= 2);  // the illegal move of game 2 and the one in game 3's variation
    CHECK(lines_starting(indexed.out, pgn + ":") == errors);
    CHECK(error_count(indexed.out) == "(2");
    CHECK(error_count(scanned.out) == "(2");
  }
  // build --append marks the appended games too
  std::ofstream(pgn, std::ios::app) << "[Event \"e\"]\n[Result \"*\"]\n\n1. e4 e5 2. Qe7 *\n\n";
  REQUIRE(run_cqlindex("build " + shell_quote(pgn) + " --append").exit_code == 0);
  const std::string q = dir.write("q.cql", "cql()\nmate\n");
  const std::string run = "run " + shell_quote(q) + " -i " + shell_quote(pgn) + " -o " + shell_quote(dir.file("o.pgn"));
  auto indexed = run_cqlindex(run);
  auto scanned = run_cqlindex(run + " --no-index");
  INFO(indexed.out << "\n" << scanned.out);
  CHECK(lines_starting(indexed.out, pgn + ":") == lines_starting(scanned.out, pgn + ":"));
  CHECK(error_count(indexed.out) == "(3");
}

TEST_CASE("an index the system will not let us read is reported with the system's reason, not as damaged",
          "[faults][accounting]") {
  Scratch dir("refused");
  const std::string pgn = dir.write("g.pgn", small_pgn());
  REQUIRE(run_cqlindex("build " + shell_quote(pgn)).exit_code == 0);
  const std::string q = dir.write("q.cql", "cql()\nmate\n");
  const std::string run = "run " + shell_quote(q) + " -i " + shell_quote(pgn) + " -o /dev/null";

  SECTION("the limit of open files") {
    auto r = run_cqlindex(run, "ulimit -n 12;");
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(has(r.out, "Too many open files"));
    CHECK_FALSE(has(r.out, "damaged"));
    CHECK_FALSE(has(r.out, "rebuild"));
  }
  SECTION("no permission to read the index") {
    if (::geteuid() == 0 && cqlindex::test::run_process("command -v setpriv").exit_code != 0) {
      WARN("skipped: running as root without setpriv, permissions cannot be denied");
      return;
    }
    // (as root the run drops to the user nobody, who may read the PGN and the query but not the index)
    const std::string as_user = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups" : "";
    fs::permissions(dir.path, fs::perms::all, fs::perm_options::add);
    fs::permissions(dir.file("g.pgn.cqlidx"), fs::perms::owner_all, fs::perm_options::replace);
    for (const auto& e : fs::directory_iterator(dir.file("g.pgn.cqlidx")))
      fs::permissions(e.path(), fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    if (::geteuid() != 0) fs::permissions(dir.file("g.pgn.cqlidx"), fs::perms::none, fs::perm_options::replace);
    for (const std::string& command : {run, "explain " + shell_quote(q) + " -i " + shell_quote(pgn)}) {
      auto r = run_cqlindex(command, as_user);
      INFO(command << "\n" << r.out);
      CHECK(r.exit_code == 2);
      CHECK(has(r.out, "Permission denied"));
      CHECK_FALSE(has(r.out, "damaged"));
    }
  }
}
