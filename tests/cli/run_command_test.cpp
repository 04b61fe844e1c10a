// `cqlindex run`: -parse prints the bound tree (exit 0); query errors print FILE:LINE:COL, the line and a
// caret (exit 1); unknown options / missing query exit 1; a missing input exits 2; evaluation is not there yet.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "support/shared_data.h"

namespace fs = std::filesystem;

namespace {

struct Result {
  int exit_code;
  std::string out;  // stdout and stderr
};

Result run(const std::string& args) {
  std::string cmd = std::string(CQLINDEX_BINARY) + " run " + args + " 2>&1";
  Result r{-1, ""};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

fs::path write_query(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / "cqlindex-run-test";
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string examples_dir() { return cqlindex::test::shared_data("cql-examples"); }

}  // namespace

TEST_CASE("run -parse prints the canonical tree and exits 0", "[cli][run]") {
  auto q = write_query("ok.cql", "cql(quiet)\nA | ~B&Q | q\n");
  Result r = run("-parse " + q.string());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("(Header [quiet])") != std::string::npos);
  CHECK(r.out.find("(Union:set") != std::string::npos);
  CHECK(r.out.find("(Complement:set") != std::string::npos);
  // double dash and upper case work as in CQL 6.2
  CHECK(run("--PARSE " + q.string()).exit_code == 0);
  Result smotheredmate = run("-parse " + examples_dir() + "/cql62-distribution-examples/exalpha/smotheredmate.cql");
  CHECK(smotheredmate.exit_code == 0);
  CHECK(smotheredmate.out.find("(Predicate:logical \"mate\")") != std::string::npos);
}

TEST_CASE("run -parse reports a syntax error with position, line and caret, exit 1", "[cli][run]") {
  std::string file = examples_dir() + "/opening-tactics-frequency/double_bishop_sac_h7_g7.cql";
  Result r = run("-parse " + file);
  CHECK(r.exit_code == 1);
  CHECK(r.out.rfind(file + ":8:35: ", 0) == 0);
  CHECK(r.out.find("\n    } --> Bh7 --> kh7 --> . {1 5} --> {wtm pg7} --> {\n") != std::string::npos);
  CHECK(r.out.find("\n" + std::string(34, ' ') + "^\n") != std::string::npos);
}

TEST_CASE("run: preamble options are parsed as CQL and joined to the body", "[cli][run]") {
  auto q = write_query("body.cql", "cql()\ncheck\n");
  Result r = run("-parse -cql \"wtm\" -similarposition nosort notransform sub.pgn -gamenumber 5 10 -flipcolor " +
                 q.string());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("(Predicate:logical \"wtm\")") != std::string::npos);
  CHECK(r.out.find("(SimilarPosition:logical \"sub.pgn\" [nosort] [notransform])") != std::string::npos);
  CHECK(r.out.find("(Transform:logical \"flipcolor\"") != std::string::npos);
  Result bad = run("-parse -cql \"move from\" " + q.string());
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.find("command line:1:10:") != std::string::npos);
}

TEST_CASE("run: usage errors and missing files", "[cli][run]") {
  auto q = write_query("usage.cql", "cql()\ncheck\n");
  Result unknown = run("-frobnicate " + q.string());
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.out.find("invalid option: -frobnicate") != std::string::npos);
  Result missing = run("-parse /nonexistent/q.cql");
  CHECK(missing.exit_code == 1);
  CHECK(missing.out.find("cannot read query file") != std::string::npos);
  Result none = run("-parse");
  CHECK(none.exit_code == 1);
  Result input = run("-i /nonexistent/in.pgn " + q.string());
  CHECK(input.exit_code == 2);
  CHECK(input.out.find("cannot read input") != std::string::npos);
  Result range = run("-gamenumber x " + q.string());
  CHECK(range.exit_code == 1);
}

// A run without -parse evaluates: CQL's console line, the output file, exit 0.
TEST_CASE("run without -parse evaluates and prints the match line", "[cli][run]") {
  auto q = write_query("eval.cql", "cql()\ncheck\n");
  auto pgn = write_query("in.pgn", "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ *\n\n[Event \"y\"]\n\n1. d4 *\n");
  auto out = q.parent_path() / "eval-result.pgn";
  Result r = run("-i " + pgn.string() + " -o " + out.string() + " " + q.string());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("1 matches of 2 games in ") != std::string::npos);
  CHECK(r.out.find(" to " + out.string()) != std::string::npos);
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str().find("{Game number 1}") != std::string::npos);
  CHECK(ss.str().find("3.Qxf7+ {CQL}") != std::string::npos);
}
