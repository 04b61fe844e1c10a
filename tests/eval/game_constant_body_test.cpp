// A body that reads only the game's tags is evaluated once per game and every position marked
// (Program::body_game_constant, count_matching_positions): the same matches and output as evaluating it at every
// position, which a position filter that always holds (`wtm or btm`) put first forces.
#include <catch2/catch.hpp>

#include "eval/eval_support.h"

using namespace cqlindex;

namespace {

// Games the short cut must treat as the loop does: a variation, an illegal move (replayed up to the last legal
// one), a FEN start, a game without moves, another player and result.
const std::string kGames =
    "[Event \"a\"]\n[White \"Kasparov, G\"]\n[Black \"Karpov, A\"]\n[Result \"1-0\"]\n[WhiteElo \"2800\"]\n\n"
    "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 {a comment} a6 1-0\n\n"
    "[Event \"b\"]\n[White \"Anand\"]\n[Black \"Kasparov\"]\n[Result \"0-1\"]\n\n"
    "1. d4 d5 2. c4 Kxh8 3. e3 0-1\n\n"
    "[Event \"c\"]\n[White \"Kasparov\"]\n[Black \"Topalov\"]\n[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n"
    "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n"
    "1. O-O-O Kf7 2. Rd7+ Ke6 1/2-1/2\n\n"
    "[Event \"d\"]\n[White \"Kasparov\"]\n[Black \"Short\"]\n[Result \"*\"]\n\n*\n\n"
    "[Event \"e\"]\n[White \"Short\"]\n[Black \"Timman\"]\n[Result \"1-0\"]\n\n1. c4 e5 2. Nc3 1-0\n\n";

const std::initializer_list<const char*> kBodies = {
    "{player \"Kasparov\"}",
    "{player white \"Kasparov\" result 1-0}",
    "{not player \"Kasparov\"}",
    "{elo white > 2700 or result 0-1}",
    "{event == \"c\" or event == \"d\"}",
    "{player \"Nobody\"}",
};

}  // namespace

TEST_CASE("a body of tag tests marks every position as the per-position loop does", "[eval][game_constant]") {
  for (const char* header : {"cql()", "cql(variations)", "cql(matchcount 3 100)", "cql(matchcount 0 2)",
                             "cql(quiet)", "cql(silent)", "cql(sort matchcount 1 100)", "cql(matchstring \"M\")",
                             // the root's marker repeats the header of game 1 (and 3): it is dropped there
                             "cql(matchstring \"Game number 1\")", "cql(matchstring \"Game number 3\")"})
    test::check_fast_path_agrees(header, kBodies, "(wtm or btm)", kGames);
}

TEST_CASE("a body of tag tests still counts its matches", "[eval][game_constant]") {
  CHECK(test::run_query("cql()\n{player \"Kasparov\"}\n", kGames).matches == 4);
  CHECK(test::run_query("cql()\n{player \"Nobody\"}\n", kGames).matches == 0);
  // variation positions count under `variations`: game a has 7 mainline positions and 2 in its variation
  CHECK(test::run_query("cql(matchcount 8 100)\n{event == \"a\"}\n", kGames).matches == 0);
  CHECK(test::run_query("cql(variations matchcount 8 100)\n{event == \"a\"}\n", kGames).matches == 1);
}

TEST_CASE("a marker that repeats the game's header is written once", "[eval][game_constant]") {
  const std::string out = test::run_query("cql(matchstring \"Game number 1\")\n{player \"Kasparov\"}\n", kGames).output;
  CHECK(out.find("{Game number 1}") != std::string::npos);
  CHECK(out.find("Game number 1 Game number 1") == std::string::npos);
  CHECK(out.find("1.e4 {Game number 1}") != std::string::npos);  // the other positions keep theirs
}
