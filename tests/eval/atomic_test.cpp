// atomic variables in a path: assignments undone on backtracking, the best path's values kept; pathdebug.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "eval/eval_support.h"

using namespace cqlindex;

namespace {

// From the start: 1.e4 e5 is the main line, 1.d4 d5 the variation tried after it.
const std::string kTwoLines = "[Event \"a\"]\n\n1. e4 (1. d4 d5) e5 *\n\n";
// 1.d4 d5 first (main line), then 1.e4 e5.
const std::string kTwoLinesSwapped = "[Event \"a\"]\n\n1. d4 (1. e4 e5) d5 *\n\n";

uint64_t matches(const std::string& body, const std::string& pgn) {
  return test::run_query("cql(variations)\n" + body + "\n", pgn).matches;
}

}  // namespace

TEST_CASE("an atomic variable keeps the values of the best path", "[eval][atomic][path]") {
  // the path tries 1.e4 e5 (matches: black pawn on e5) then 1.d4 d5 (fails at the end): the plain variable
  // keeps the last assignment, the atomic one what the matching path assigned
  const std::string q =
      "initial\natomic X = 0\nY = 0\npath -- {X += 1 Y += 1 X += ply} -- pe5\n\n";  // a blank line ends the path
  CHECK(matches(q + "X == 2\nY == 2", kTwoLines) == 1);
  CHECK(matches(q + "X == 2\nY == 2", kTwoLinesSwapped) == 1);  // the failing line first: same outcome
  // the best path is the longest (1.d4 d5 2.c4, tried after 1.e4 e5): only its assignments are kept
  const std::string longer = "[Event \"a\"]\n\n1. e4 (1. d4 d5 2. c4) e5 *\n\n";
  CHECK(matches("initial\natomic L = \"\"\npath (-- L += str ply)+\n\nL == \"123\"", longer) == 1);
  CHECK(matches("initial\nL = \"\"\npath (-- L += str ply)+\n\nL == \"12123\"", longer) == 1);
}

TEST_CASE("an atomic variable is back to its value when no path matches", "[eval][atomic][path]") {
  CHECK(matches("initial\natomic X = 7\nnot path -- {X = 100} -- qh4\n\nX == 7", kTwoLines) == 1);
  // a plain variable keeps what the failed search assigned
  CHECK(matches("initial\nX = 7\nnot path -- {X = 100} -- qh4\n\nX == 100", kTwoLines) == 1);
}

TEST_CASE("atomic is said at the first assignment", "[eval][atomic][errors]") {
  try {
    cql::parse_query("cql()\nX = 1\natomic X = 2");
    FAIL("accepted");
  } catch (const cql::CqlError& e) {
    CHECK(e.line == 3);
    CHECK(e.column == 1);
  }
  CHECK_NOTHROW(cql::parse_query("cql()\natomic X = 1\nX = 2\natomic X = 3"));
}

TEST_CASE("pathdebug writes the path search's state as a message line", "[eval][path]") {
  cql::Query q = cql::parse_query("cql(variations)\ninitial\npath -- pathdebug -- pe5\n");
  cql::eval::EvalOptions o;
  o.variations = true;
  cql::eval::Program program = cql::eval::compile(q, o);
  cql::eval::GameScanner scanner(program);
  pgn::GameReader reader(kTwoLines);
  pgn::Game game;
  REQUIRE(reader.next(game));
  cql::eval::GameOutcome r = scanner.scan(game);
  CHECK(r.matched);
  // once per 1.e4 and 1.d4 (a target of the first dash): no best path yet, then the one through 1...e5
  REQUIRE(r.messages.size() == 2);
  CHECK(r.messages[0] == "PathDebug: path from move 1(wtm): best so far: none bestLength: 0 bestCount: 0 "
                         "path currentPosition: move 1(wtm) actual currpos: move 1(btm)");
  CHECK(r.messages[1] == "PathDebug: path from move 1(wtm): best so far: move 2(wtm) bestLength: 2 bestCount: 2 "
                         "path currentPosition: move 1(wtm) actual currpos: move 1(btm)[3]");
  // outside a path it fails, as pathcount does
  CHECK(matches("pathdebug", kTwoLines) == 0);
}
