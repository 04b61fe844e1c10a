// `path` with `focus` on hand-made games: repetition counts, groups, focus and its first-move rule,
// captures of focused pieces, nestban, max, verbose/title/piecepath, the value and the comments CQL writes.
#include <catch2/catch.hpp>

#include <string>

#include "eval/eval_support.h"

using namespace cqlindex;

namespace {

// The spec's fianchetto game: knight and bishop moves are out of focus of the white pawns.
const std::string kFianchetto = "[Event \"f\"]\n\n1. d4 d5 2. Nf3 Nf6 3. g3 g6 4. Bg2 Bg7 *\n\n";

// Four white rook checks in a row, then the black king takes the rook that started on a1.
const std::string kRookChecks =
    "[Event \"r\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K2R w - - 0 1\"]\n\n"
    "1. Ra8+ Kd7 2. Rh7+ Kc6 3. Ra6+ Kb5 4. Rb7+ Kxa6 *\n\n";

// Runs the query; `output` holds the comments CQL adds as "node:text" lines (node = ply on a main line),
// which does not depend on line wrapping.
test::QueryRun run(const std::string& body, const std::string& pgn, const std::string& header = "cql()") {
  cql::Query q = cql::parse_query(header + "\n" + body + "\n");
  cql::eval::EvalOptions options;
  options.variations = q.header.variations;
  cql::eval::Program program = cql::eval::compile(q, options);
  cql::eval::GameScanner scanner(program);
  pgn::GameReader reader(pgn);
  pgn::Game game;
  test::QueryRun r;
  while (reader.next(game)) {
    ++r.games;
    cql::eval::GameOutcome o = scanner.scan(game);
    if (!o.matched) continue;
    ++r.matches;
    for (const auto& c : o.comments) r.output += std::to_string(c.node) + ":" + c.text + "\n";
  }
  return r;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("path focus skips out-of-focus moves (the spec's fianchetto)", "[eval][path]") {
  auto r = run("initial path focus P -- -- comment(\"fianchetto\")", kFianchetto);
  REQUIRE(r.matches == 1);
  CHECK(has(r.output, "5:fianchetto\n5:End path of length 2 that starts at move 1(wtm)\n"));
  CHECK(has(r.output, "0:Start path that ends at move 3(btm)\n"));
  CHECK(has(r.output, "End path of length 2 that starts at move 1(wtm)"));
  // the value of the path is the number of focused moves it matched
  CHECK(run("initial (path quiet focus P -- --) == 2", kFianchetto).matches == 1);
}

TEST_CASE("path: the first move must be in focus", "[eval][path]") {
  CHECK(run("initial path focus N --", kFianchetto).matches == 0);
  // from the position before 2.Nf3 the knight move is in focus
  CHECK(run("initial path focus P -- --", kFianchetto).matches == 1);
  CHECK(run("ply == 2 path focus N --", kFianchetto).matches == 1);
  // Nf3 is the white knights' only move: a second focused move is never found
  CHECK(run("ply == 2 path focus N -- --", kFianchetto).matches == 0);
}

TEST_CASE("path repetition counts", "[eval][path]") {
  // without focus each move must give check: only 1.Ra8+ does before a black move
  CHECK(has(run("initial path -- check+", kRookChecks).output, "End path of length 1 "));
  // with the white pieces in focus, the black replies are skipped
  CHECK(has(run("initial path focus A -- check+", kRookChecks).output, "End path of length 4 "));
  CHECK(has(run("initial path focus A -- check{2,3}", kRookChecks).output, "End path of length 3 "));
  CHECK(run("initial path focus A -- check{5,}", kRookChecks).matches == 0);
  CHECK(run("initial path focus A -- check{4}", kRookChecks).matches == 1);
  // a group repeated, an optional tail
  CHECK(has(run("initial path focus A (-- check -- check)+ -- check ?", kRookChecks).output, "End path of length 4 "));
  CHECK(has(run("initial path focus A (-- check -- check)+", kRookChecks).output, "End path of length 4 "));
  CHECK(has(run("initial path focus A (-- check -- check -- check)+ -- ?", kRookChecks).output, "End path of length 4 "));
  // a range on the path's value
  CHECK(run("initial path 2 3 focus A -- check+", kRookChecks).matches == 0);
  CHECK(run("initial path 4 focus A -- check+", kRookChecks).matches == 1);
  // a path that consumes no move never matches
  CHECK(run("path check", kRookChecks).matches == 0);
}

TEST_CASE("path nestban: no match starts inside an earlier match", "[eval][path]") {
  auto all = run("path focus A -- check+", kRookChecks);
  CHECK(occurrences(all.output, "Start path that ends") == 4);
  auto banned = run("path focus A nestban -- check+", kRookChecks);
  CHECK(occurrences(banned.output, "Start path that ends") == 1);
  CHECK(has(banned.output, "End path of length 4 that starts at move 1(wtm)"));
}

TEST_CASE("path focus capture admits captures of focused pieces", "[eval][path]") {
  CHECK(run("initial path focus a1 -- -- --", kRookChecks).matches == 0);
  auto r = run("initial path focus capture a1 piecepath -- -- --", kRookChecks);
  REQUIRE(r.matches == 1);
  CHECK(has(r.output, "Focus path: Ra1-a8-a6(xa6)"));
  CHECK(has(r.output, "End path of length 3 that starts at move 1(wtm)"));
}

TEST_CASE("path title, verbose, piecepath and quiet comments", "[eval][path]") {
  auto r = run("initial path focus a1 title \"rook\" verbose piecepath quiet -- --", kRookChecks);
  REQUIRE(r.matches == 1);
  CHECK(has(r.output, "0:rook\n0:Focus path: Ra1-a8-a6\n"));
  CHECK(has(r.output, "1:rook: move 1 of 2\n"));
  CHECK(has(r.output, "5:rook: move 2 of 2\n"));
  CHECK_FALSE(has(r.output, "Start path"));
  // two focused pieces: each route, in square order
  auto two = run("initial path focus R piecepath -- -- --", kRookChecks);
  CHECK(has(two.output, "Focus path: Ra1-a8-a6 Rh1-h7\n"));
}

TEST_CASE("pathcount, pathcountunfocused, pathstart and max", "[eval][path]") {
  auto r = run("initial path focus A (-- check comment(\"n=\" pathcount))+", kRookChecks);
  CHECK(has(r.output, "1:n=1\n"));
  CHECK(has(r.output, "7:n=4\n"));
  // max: the path whose end has the most unfocused moves behind it (3 black replies after 4 checks)
  auto m = run("initial path focus A max pathcountunfocused -- check+", kRookChecks);
  CHECK(has(m.output, "End path of length 4 that starts at move 1(wtm) Max value: 3"));
  CHECK(run("initial (path quiet focus A max pathcountunfocused -- check+) == 3", kRookChecks).matches == 1);
  // pathstart inside the path is the position it started from
  CHECK(run("initial path focus A -- check pathstart:initial", kRookChecks).matches == 1);
  CHECK(run("initial path focus A -- check -- pathstart:ply == 0 ply == 3", kRookChecks).matches == 1);
}

TEST_CASE("path primary follows only main-line moves", "[eval][path]") {
  const std::string g = "[Event \"v\"]\n\n1. e4 (1. d4 d5) 1... e5 *\n\n";
  CHECK(run("initial path primary --d4", g, "cql(variations)").matches == 0);
  CHECK(run("initial path --d4", g, "cql(variations)").matches == 1);
}

TEST_CASE("path: the spec's rook leaping the corners", "[eval][path]") {
  const std::string g = "[Event \"c\"]\n[SetUp \"1\"]\n[FEN \"8/8/1k6/8/8/8/4K3/R7 w - - 0 1\"]\n\n"
                        "1. Rh1 Kb5 2. Rh8 Kb4 3. Ra8 Kb3 *\n\n";
  auto r = run("T∊♖ ⊢◎T a1――h1 ――h8 ――a8", g);
  REQUIRE(r.matches == 1);
  CHECK(has(r.output, "5:End path of length 3 that starts at move 1(wtm)\n"));
  CHECK(run("T∊♖ ⊢◎T a1――h1 ――a8", g).matches == 0);
}

TEST_CASE("path: a castling is in focus when its rook is, and moves only that rook", "[eval][path]") {
  const std::string g = "[Event \"k\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 *\n\n";
  auto r = run("ply == 6 path focus h1 piecepath -- --", g);
  REQUIRE(r.matches == 1);
  CHECK(has(r.output, "6:Focus path: Rh1-f1-e1\n"));
  // `to` after the castling: the focused rook's square only; without focus the king's too
  CHECK(run("ply == 6 path focus h1 -- to == f1", g).matches == 1);
  CHECK(run("ply == 6 path -- #to == 2", g).matches == 1);
  // the first move (the castling) is out of focus of the knight
  CHECK(run("ply == 6 path focus f3 --", g).matches == 0);
}
