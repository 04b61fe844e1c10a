// Issue 15, classes B19 and C27-C31: filters CQL 6.2 answers (hascomment, ancestor, descendant, lastgamenumber,
// currenttransform, two `capture`s in move, `fen` inside comment(...), `tag "White"`, `persistent dictionary`)
// and CQL 6.2's run-time errors for a literal matched as a position filter, raised only where it is evaluated.
// The byte-for-byte comparisons with CQL's own outputs are in tests/conformance (repro cases).
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

namespace {

const std::string kPlain = "[Event \"p\"]\n[White \"Anderssen\"]\n\n1. e4 e5 2. Nf3 {a knight} Nc6 *\n\n";
const std::string kChecks = "[Event \"c\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n";
// 1. Qf7 stalemates the black king on h8
const std::string kStalemate = test::lang_game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "1. Qf7 *");

std::string run_error(const std::string& body, const std::string& pgn) {
  try {
    test::run_query("cql()\n" + body + "\n", pgn);
  } catch (const cql::CqlError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a literal matched as a position stops the run only where it is evaluated", "[eval][conformance][B19]") {
  // CQL 6.2: line --> stalemate {3 100} runs on an input without a stalemate (repro B19-6) ...
  CHECK(lang_matches("line --> stalemate {3 100}", kPlain) == 0);
  // ... and stops when it gets to the 3 (not-shown B19-5)
  CHECK_THAT(run_error("line --> stalemate {3 100}", kStalemate),
             Catch::StartsWith("An attempt to match a position against the number: 3 was made."));
  CHECK(lang_matches("check 3", kPlain) == 0);  // no check: the 3 is never reached
  CHECK_THAT(run_error("check 3", kChecks), Catch::Contains("against the number: 3"));
  CHECK_THAT(run_error("-5", kPlain), Catch::Contains("against the number: -5"));
  CHECK_THAT(run_error("check \"s\"", kChecks), Catch::Contains("inadvertent. The string literal is: s"));
  CHECK_THAT(run_error("fen", kPlain), Catch::Contains("'currentfen' matches the current position"));
  CHECK_THAT(run_error("sqrt ply", kPlain), Catch::Contains("an sqrt value node"));
  CHECK_THAT(run_error("{3 4}", kPlain), Catch::Contains("against the number: 3"));
  CHECK_THAT(run_error("check or 7", kPlain), Catch::Contains("against the number: 7"));
  // values are not matched: no error
  CHECK(lang_matches("x = {ply 3}  x == 3", kPlain) == 1);
  CHECK(lang_matches("comment(3 \"s\" fen)  ply == 3", kPlain) == 1);
  CHECK(lang_matches("sort \"d\" {check 3}", kPlain) == 0);
  CHECK(lang_matches("sqrt ply > 1", kPlain) == 1);
  // the position where it stops is named
  try {
    test::run_query("cql()\ncheck\n  3\n", kChecks);
    FAIL("ran");
  } catch (const cql::CqlError& e) {
    CHECK(e.line == 3);
    CHECK(e.column == 3);
  }
}

TEST_CASE("ancestor and descendant: strict, as the manual defines them", "[eval][conformance][C28]") {
  CHECK(lang_matches("ancestor(parent currentposition)", kPlain) == 1);
  CHECK(lang_matches("descendant(currentposition parent)", kPlain) == 1);
  CHECK(lang_matches("ancestor(currentposition currentposition)", kPlain) == 0);
  CHECK(lang_matches("descendant(currentposition currentposition)", kPlain) == 0);
  CHECK(lang_matches("ancestor(currentposition parent)", kPlain) == 0);
  CHECK(lang_matches("ply == 3 ancestor(initialposition currentposition)", kPlain) == 1);
  CHECK(lang_matches("ply == 3 descendant(initialposition currentposition)", kPlain) == 0);
}

TEST_CASE("hascomment is the comment of the input at the position", "[eval][conformance][C28]") {
  CHECK(lang_matches("hascomment", kPlain) == 1);
  CHECK(lang_matches("hascomment \"knight\"", kPlain) == 1);
  CHECK(lang_matches("hascomment \"bishop\"", kPlain) == 0);
  CHECK(lang_matches("hascomment", kChecks) == 0);
}

TEST_CASE("lastgamenumber estimates the games of the input as CQL 6.2 does", "[eval][conformance][C28]") {
  const auto dir = std::filesystem::temp_directory_path() / ("cqlindex-lgn-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "three.pgn";
  const std::string pgn = kPlain + kPlain + kPlain;
  std::ofstream(file, std::ios::binary) << pgn;
  cql::eval::EvalOptions o;
  o.input_path = file.string();
  // the count of "[White " in the file (lastgamenumbernode.cpp), at most the top of the gamenumber range
  CHECK(test::run_query("cql()\nlastgamenumber == 3\n", pgn, o).matches == 3);
  o.gamenumber = cql::Range{1, 2};
  CHECK(test::run_query("cql()\nlastgamenumber == 2\n", pgn, o).matches == 3);
  CHECK_THAT(run_error("lastgamenumber", pgn), Catch::Contains("Do not ignore its numeric value"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("currenttransform names the transform of each image", "[eval][conformance][C28]") {
  CHECK(lang_matches("currenttransform == \"<identity>\"", kPlain) == 1);
  CHECK(lang_matches("flipcolor {currenttransform == \"<reflect_v>\"}", kPlain) == 0);  // repro C28-5
  CHECK(lang_matches("flipvertical {currenttransform == \"<reflect_v>\"}", kPlain) == 1);
  CHECK(lang_matches("(rotate90 count {currenttransform ~~ \"clockwise90\"}) == 2", kPlain) == 1);
  CHECK(lang_matches("shifthorizontal {currenttransform == \"<right^2>\"}", kPlain) == 1);
}

TEST_CASE("the queries CQL 6.2 accepts: capture twice, fen in comment, tag \"White\", persistent dictionary",
          "[eval][conformance][C27][C29][C30][C31]") {
  // two captures in one move: the last one counts (repro C29-1)
  CHECK(lang_matches("move capture e5 capture a", kChecks) == lang_matches("move capture a", kChecks));
  CHECK(lang_matches("move capture a capture f7", kChecks) == 1);
  CHECK(lang_matches("move capture f7 capture e5", kChecks) == 0);
  // `fen "c4"` inside comment(...) is the position's FEN, then the string (repro C30-1)
  const auto r = test::run_query("cql()\ninitial comment(fen \"c4\")\n", kChecks);
  CHECK(r.output.find("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1c4") != std::string::npos);
  // a built-in tag name after `tag` (repro C31-1)
  CHECK(lang_matches("tag \"White\" == \"Anderssen\"", kPlain) == 1);
  // `persistent dictionary D` (repro C27-1) and `local dictionary D`; `dictionary local D` is refused (B18-1)
  cql::Query q = cql::parse_query("cql()\npersistent dictionary D  local dictionary L  D[1] = 1  L[1] = 1");
  CHECK(q.variables[0].persistent);
  CHECK_FALSE(q.variables[1].persistent);
  CHECK_THROWS_WITH(cql::parse_query("cql()\ndictionary local D D[1]=1"),
                    Catch::Contains("expected name after keyword 'dictionary'"));
}

TEST_CASE("a * or + at a path's top level is the path's wildcard only (B26-1)", "[eval][conformance][B26]") {
  // the line's `*` is lexed as the path's: the line stops before it and nothing takes it
  CHECK_THROWS_WITH(cql::parse_query("cql()\npath Q-- check\nline --> check* --> mate\n"),
                    Catch::Contains("Extra text following the filters"));
  // inside braces it is the line's again, and after a dash constituent the path's
  CHECK_NOTHROW(cql::parse_query("cql()\npath Q-- {line --> check* --> mate}\n"));
  CHECK_NOTHROW(cql::parse_query("cql()\npath (Q--)* check\n"));
  // an empty line ends the path: arithmetic again
  CHECK_NOTHROW(cql::parse_query("cql()\npath check\n\nply * 2 > 3\n"));
  CHECK_THROWS_WITH(cql::parse_query("cql()\npath check\nply * 2 > 3\n"), Catch::Contains("Extra text"));
  CHECK_THROWS_WITH(cql::parse_query("cql()\npath Q-- check\nmove legal .--\n"),
                    Catch::Contains("legal keyword is not allowed at the top level of path"));
}

TEST_CASE("a transform of a position is a filter (C32-1)", "[eval][conformance][C32]") {
  CHECK(lang_matches("flipcolor count {flipcolor (parent == child)} >= 1", kPlain) == 0);
  CHECK(lang_matches("flipcolor count {flipcolor (parent == parent)} >= 1", kPlain) == 1);
}
