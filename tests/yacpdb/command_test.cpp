// `cqlindex yacpdb`: summary line, PGN output that reads back, exit codes; and the PGN export itself.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/yacpdb/pgn_export.h"
#include "engine/yacpdb/problem.h"
#include "support/shared_data.h"

using namespace cqlindex::yacpdb;
namespace fs = std::filesystem;

namespace {

std::string olive_dir() { return cqlindex::test::shared_data("problems/yacpdb-olive") + "/"; }

struct Run {
  int exit_code = -1;
  std::string out;
};

// Runs the binary with a shell command line tail; stdout captured, stderr to the given file.
Run run(const std::string& args, const std::string& stderr_file = "/dev/null") {
  std::string cmd = std::string("'") + CQLINDEX_BINARY + "' " + args + " 2>" + stderr_file;
  Run r;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("cqlindex-yacpdb-cmd-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

TEST_CASE("yacpdb export: replayed YAML entries read back as the same PGN trees", "[yacpdb][command]") {
  ProblemFile f = read_problem_file(olive_dir() + "Broodings-50.olv");
  int checked = 0;
  for (const Problem& p : f.problems) {
    if (!p.tree.complete) continue;
    std::string pgn = problem_to_pgn(p);
    ProblemFile back = read_pgn_problems(pgn, "export.pgn");
    INFO(pgn);
    CHECK(back.errors.empty());
    REQUIRE(static_cast<int>(back.problems.size()) == p.tree.twin_count());
    size_t nodes = 0;
    for (const Problem& b : back.problems) {
      CHECK(b.tree.complete);
      CHECK(b.entry.stipulation == p.entry.stipulation);
      CHECK(b.entry.authors == p.entry.authors);
      nodes += b.tree.nodes.size() - 2;  // root and twin
    }
    CHECK(nodes + 1 + p.tree.twin_count() == p.tree.nodes.size());
    ++checked;
  }
  CHECK(checked == 5);
  // PGN entries are written as they were read
  ProblemFile pgn = read_pgn_problems("[Event \"x\"]\n\n1. e4 {hi} *\n", "t.pgn");
  CHECK(problem_to_pgn(pgn.problems[0]) == "[Event \"x\"]\n\n1. e4 {hi} *\n\n");
  // an entry that was not replayed keeps its solution as a comment
  const Problem& fairy = f.problems[6];
  REQUIRE_FALSE(fairy.tree.complete);
  std::string text = problem_to_pgn(fairy);
  CHECK(text.find("{solution not replayed: diagram: fairy piece") != std::string::npos);
  CHECK(read_pgn_problems(text, "x.pgn").problems.size() == 1);
}

TEST_CASE("yacpdb command: summary, output file, exit codes", "[yacpdb][command]") {
  TempDir tmp;
  fs::path out = tmp.path / "out.pgn";
  Run r = run("yacpdb 'Zilahi(*) AND NOT Fairy' -i '" + olive_dir() + "Broodings-50.olv' -o '" + out.string() + "'");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("2 matches of 12 entries in ", 0) == 0);
  ProblemFile back = read_pgn_problems(slurp(out), "out.pgn");
  CHECK(back.problems.size() == 5);  // entry 1 (s#3, one twin) and entry 3 (four twins)
  r = run("yacpdb 'Stip(\"h#2\")' -i '" + olive_dir() + "Broodings-50.olv' --count");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("2 matches of 12 entries in ", 0) == 0);  // entries 3 and 9 (9 is fairy)
  // without -o the games go to stdout
  r = run("yacpdb 'Id(1)' -i '" + olive_dir() + "chest_test.olv'");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("[Stipulation \"#2\"]") != std::string::npos);
  // a query error names the column; an unreadable file is exit 2
  fs::path err = tmp.path / "err.txt";
  r = run("yacpdb 'Stip(\"#2\") AND' -i '" + olive_dir() + "chest_test.olv'", err.string());
  CHECK(r.exit_code == 1);
  CHECK(slurp(err).find("query:1:15: expected a predicate") != std::string::npos);
  r = run("yacpdb 'Fairy' -i /nonexistent.pgn");
  CHECK(r.exit_code == 2);
  r = run("yacpdb 'Fairy'");
  CHECK(r.exit_code == 1);
}

TEST_CASE("yacpdb command: answers through the index equal --no-index, and a stale index is refused", "[yacpdb][command]") {
  TempDir tmp;
  const fs::path olv = tmp.path / "b.olv";
  fs::copy_file(olive_dir() + "Broodings-50.olv", olv);
  const std::string in = " -i '" + olv.string() + "'";
  // No index yet: direct evaluation.
  Run direct = run("yacpdb 'Zilahi(*) AND NOT Fairy'" + in + " -o '" + (tmp.path / "direct.pgn").string() + "'");
  REQUIRE(direct.exit_code == 0);
  REQUIRE(run("build '" + olv.string() + "'").exit_code == 0);
  REQUIRE(fs::is_directory(olv.string() + ".cqlidx"));
  Run indexed = run("yacpdb 'Zilahi(*) AND NOT Fairy'" + in + " -o '" + (tmp.path / "indexed.pgn").string() + "'");
  REQUIRE(indexed.exit_code == 0);
  CHECK(slurp(tmp.path / "indexed.pgn") == slurp(tmp.path / "direct.pgn"));
  auto summary = [](const std::string& line) { return line.substr(0, line.find(" in ")); };
  CHECK(summary(indexed.out) == summary(direct.out));
  // Text() reads the entries' texts, which the index keeps apart from their metadata; the diagram predicates
  // read the pieces, which the other metadata queries leave undecoded.
  for (const char* q : {"'ClosedWalk(*, *, *) OR Phases > 1'", "'Stip(\"h#2\") AND Twins > 1'", "'NOT Models(*, *)'",
                        "'Text(\"%Kd2%\")'", "'Text(\"%zilahi%\") OR Author(\"%a%\")'",
                        "'PCount(w) > 8 AND NOT Keyword(\"%Zilahi%\")'", "'With(\"wK wQ\") OR Fairy'"}) {
    INFO(q);
    Run a = run(std::string("yacpdb ") + q + in + " --count");
    Run b = run(std::string("yacpdb ") + q + in + " --count --no-index");
    CHECK(a.exit_code == 0);
    CHECK(summary(a.out) == summary(b.out));
    CHECK(a.out.rfind("0 matches", 0) != 0);  // every one of these finds something in the collection
  }
  // The file grows (its first entry once more): the index is refused (exit 2) with the way out (build --append),
  // never used for an answer.
  {
    const std::string text = slurp(olv);
    const std::string first = text.substr(0, text.find("\n---", 1) + 1);
    std::ofstream(olv, std::ios::app) << first;
  }
  fs::path err = tmp.path / "err.txt";
  Run grown = run("yacpdb 'Fairy'" + in + " --count", err.string());
  CHECK(grown.exit_code == 2);
  CHECK(slurp(err).find("does not cover the games appended") != std::string::npos);
  CHECK(slurp(err).find("cqlindex build --append") != std::string::npos);
  CHECK(run("yacpdb 'Fairy'" + in + " --count --no-index").exit_code == 0);
  REQUIRE(run("build --append '" + olv.string() + "'").exit_code == 0);
  for (const char* q : {"'Fairy'", "'Zilahi(*) OR ClosedWalk(*, *, *)'"}) {
    INFO(q);
    Run a = run(std::string("yacpdb ") + q + in + " --count");
    CHECK(a.out.find(" of 13 entries") != std::string::npos);
    CHECK(summary(a.out) == summary(run(std::string("yacpdb ") + q + in + " --count --no-index").out));
  }
  // The file changes otherwise: refused as stale, to be rebuilt.
  {
    std::string text = slurp(olv);
    text[text.find("Kc5")] = 'Q';
    std::ofstream(olv, std::ios::binary | std::ios::trunc) << text;
  }
  Run stale = run("yacpdb 'Fairy'" + in + " --count", err.string());
  CHECK(stale.exit_code == 2);
  CHECK(slurp(err).find("has changed since it was indexed") != std::string::npos);
  CHECK(slurp(err).find("cqlindex build") != std::string::npos);
  CHECK(run("yacpdb 'Fairy'" + in + " --count --no-index").exit_code == 0);
}
