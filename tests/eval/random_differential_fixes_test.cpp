// The random-differential reproductions of classes A1-A17 (CQL 6.2 and cqlindex both answer, differently): each
// case's query run by `cqlindex run --no-index` on its shared input must give CQL 6.2's exit status, match line and
// output file byte for byte (expected-output/random-differential/repro/<case>/). One test per fixed class.
#include <catch2/catch.hpp>

#include <regex>
#include <unistd.h>

#include "eval/eval_support.h"
#include "support/process.h"

namespace fs = std::filesystem;
using namespace cqlindex;

namespace {

const fs::path kDifferential = fs::path(CQLINDEX_SHARED_DATA) / "cql-examples" / "expected-output" / "random-differential";

struct Outcome {
  int exit_code = -1;
  std::string match_line, output;
};

std::string match_line(const std::string& console) {
  std::smatch m;
  return std::regex_search(console, m, std::regex(R"((\d+) matches of (\d+) games)")) ? m[0].str() : "";
}

// The input a case names in input.txt ("NAME<TAB>inputs/..." or "NAME<TAB>shared/data/...").
fs::path case_input(const fs::path& dir) {
  std::string text = test::slurp(dir / "input.txt");
  std::string rel = text.substr(text.find('\t') + 1);
  rel = rel.substr(0, rel.find_first_of("\r\n"));
  const std::string shared = "shared/data/";
  if (rel.rfind(shared, 0) == 0) return fs::path(CQLINDEX_SHARED_DATA) / rel.substr(shared.size());
  return kDifferential / rel;
}

// What CQL 6.2 answered on the case.
Outcome cql_outcome(const fs::path& dir) {
  Outcome o;
  o.exit_code = std::stoi(test::slurp(dir / "cql.exit"));
  o.match_line = match_line(test::slurp(dir / "cql.out"));
  if (fs::exists(dir / "cql.pgn")) o.output = test::slurp(dir / "cql.pgn");
  else if (fs::exists(dir / "cql.pgn.xz"))
    o.output = test::run_process("xz -dc " + test::shell_quote((dir / "cql.pgn.xz").string())).out;
  return o;
}

// What cqlindex answers on the case.
Outcome our_outcome(const fs::path& dir, const std::string& name) {
  const fs::path work = fs::temp_directory_path() / ("cqlindex-randdiff-" + std::to_string(::getpid()));
  fs::create_directories(work);
  const fs::path out = work / (name + ".pgn");
  fs::remove(out);
  auto r = test::run_process("cd " + test::shell_quote(work.string()) + " && " + std::string(CQLINDEX_BINARY) +
                             " run --no-index -i " + test::shell_quote(case_input(dir).string()) + " -o " +
                             test::shell_quote(out.string()) + " " + test::shell_quote((dir / "query.cql").string()) +
                             " 2>&1");
  Outcome o;
  o.exit_code = r.exit_code;
  o.match_line = match_line(r.out);
  o.output = test::slurp(out);
  fs::remove(out);
  return o;
}

void check_case(const std::string& name) {
  const fs::path dir = kDifferential / "repro" / name;
  REQUIRE(fs::exists(dir / "query.cql"));
  const Outcome want = cql_outcome(dir), got = our_outcome(dir, name);
  INFO("case " << name << ": " << test::slurp(dir / "query.cql"));
  CHECK(got.exit_code == want.exit_code);
  CHECK(got.match_line == want.match_line);
  CHECK(got.output.size() == want.output.size());
  CHECK((got.output == want.output));
}

}  // namespace

TEST_CASE("A1: a != b is not (a == b): true when a side has no value", "[eval][random-differential]") {
  check_case("A1-1");
  check_case("A1-2");
}

TEST_CASE("A2: pieceid numbers the pieces from 0", "[eval][random-differential]") {
  check_case("A2-1");
  check_case("A2-2");
}

TEST_CASE("A4: the fen string has the e.p. square after every double step, clocks 0 1", "[eval][random-differential]") {
  check_case("A4-1");
}

TEST_CASE("A5: line comments inside variations carry id:N labels", "[eval][random-differential]") {
  check_case("A5-1");
}

TEST_CASE("A6: a gamenumber range counts the game read after it", "[eval][random-differential]") {
  check_case("A6-1");
}

TEST_CASE("A7: over-long game output is truncated as CQL's 105,000-byte buffer does", "[eval][random-differential]") {
  check_case("A7-1");
}

TEST_CASE("A9: move o-o pseudolegal never matches while in check", "[eval][random-differential]") {
  check_case("A9-1");
}

TEST_CASE("A10: a shift image goes when a square designator leaves the board", "[eval][random-differential]") {
  check_case("A10-1");
}

TEST_CASE("A11: a wildcard after --(target) in a path repeats the whole dash", "[eval][random-differential]") {
  check_case("A11-1");
}

TEST_CASE("A12: pin to an empty square", "[eval][random-differential]") {
  check_case("A12-1");
}

TEST_CASE("A13: the header's sort matchcount is labelled after the query's sorts", "[eval][random-differential]") {
  check_case("A13-1");
}

TEST_CASE("A14: cql(quiet silent) is quiet: the first comment level named wins", "[eval][random-differential]") {
  check_case("A14-1");
}

TEST_CASE("A15: uppercase used as a filter matches an unchanged string only", "[eval][random-differential]") {
  check_case("A15-1");
}

TEST_CASE("A16: move ... legal count with an empty from-set is 0", "[eval][random-differential]") {
  check_case("A16-1");
}

TEST_CASE("A17: a numeric echo keeps the comments of every target tying for the best value",
          "[eval][random-differential]") {
  check_case("A17-1");
}
