// removecomment: the input's comment at a position left out of the written game.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "eval/lang_support.h"

using namespace cqlindex;

namespace {

const std::string kCommented =
    "[Event \"x\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
    "[Result \"*\"]\n\n{game comment} 1. e4 {after e4} e5 {after e5} 2. Nf3 {after Nf3} *\n\n";

// The written game of a query over kCommented (empty when it does not match).
std::string written(const std::string& query, cql::eval::EvalOptions options = {}) {
  return test::run_query(query, kCommented, options).output;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("removecomment leaves out the input's comment at the position", "[eval][removecomment]") {
  // at every position: no input comment is left
  const std::string all = written("cql(silent)\nremovecomment");
  CHECK(all == "[Event \"x\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
               "[Result \"*\"]\n\n1.e4 e5 2.Nf3 *\n\n\n");
  // only where the query says so: the comment after the move into the position
  const std::string one = written("cql(silent)\noriginalcomment ~~ \"e5\"\nremovecomment");
  CHECK(has(one, "{game comment}\n1.e4 {after e4} 1...e5 2.Nf3 {after Nf3} *"));
  // at the start position it is the game comment; CQL's own "Game number" text stays (after the space the
  // deleted comment leaves, see below)
  const std::string start = written("cql()\ninitial\nremovecomment");
  CHECK(has(start, "{ Game number 1 CQL}\n1.e4 {after e4}"));
  CHECK(!has(start, "game comment"));
}

TEST_CASE("removecomment marks its position whatever the filters around it do", "[eval][removecomment]") {
  // as CQL 6.2 (RemoveCommentNode sets a flag on the position): the body fails at every position but the one
  // after 1...e5, yet removecomment ran at each of them before `ply == 2` failed: every comment goes
  const std::string r = written("cql(silent)\nremovecomment\nply == 2");
  CHECK(has(r, "[Result \"*\"]\n\n1.e4 e5 2.Nf3 *"));
  // inside a filter that fails (not {...} matches): the mark stays too
  const std::string inside = written("cql(silent)\nnot {removecomment false}\nply == 2");
  CHECK(has(inside, "[Result \"*\"]\n\n1.e4 e5 2.Nf3 *"));
  // only a game that is written shows it: the filter that fails first keeps removecomment from running
  const std::string first = written("cql(silent)\nply == 2\nremovecomment");
  CHECK(has(first, "{game comment}\n1.e4 {after e4} 1...e5 2.Nf3 {after Nf3} *"));
  CHECK(written("cql(silent)\nremovecomment\nply == 9").empty());
}

TEST_CASE("text the query adds where it removed the comment stays", "[eval][removecomment]") {
  // CQL 6.2 builds the added text as if the deleted comment were still there: it keeps the space that
  // would have followed it
  const std::string r = written("cql()\nply == 1\nremovecomment\ncomment(\"mine\")");
  CHECK(has(r, "{game comment Game number 1}\n1.e4 { mine CQL} 1...e5 {after e5}"));
  // a removal made after the text: the same
  const std::string after = written("cql()\nply == 1\ncomment(\"mine\")\nremovecomment");
  CHECK(has(after, "{game comment Game number 1}\n1.e4 { mine CQL} 1...e5 {after e5}"));
  // where the input has no comment there is no such space
  const std::string plain = "[Event \"x\"]\n\n1. e4 e5 *\n\n";
  CHECK(has(test::run_query("cql()\nply == 1\nremovecomment\ncomment(\"mine\")", plain).output, "1.e4 {mine CQL} 1...e5 *"));
}

TEST_CASE("the noremovecomment option: removecomment matches and removes nothing", "[eval][removecomment]") {
  cql::eval::EvalOptions o;
  o.noremovecomment = true;
  const std::string r = written("cql(silent)\nremovecomment", o);
  CHECK(has(r, "{game comment}\n1.e4 {after e4} 1...e5 {after e5} 2.Nf3 {after Nf3} *"));
  CHECK(test::run_query("cql()\nremovecomment", kCommented, o).matches == 1);
}

TEST_CASE("the writer drops an input comment on request", "[pgn][writer][removecomment]") {
  pgn::GameReader reader(kCommented);
  pgn::Game g;
  REQUIRE(reader.next(g));
  std::vector<pgn::AddedComment> added;
  pgn::AddedComment drop;
  drop.node = 2;  // after 1...e5
  drop.remove_original = true;
  added.push_back(drop);
  std::string out;
  pgn::write_game(g, added, {}, out);
  CHECK(has(out, "{game comment}\n1.e4 {after e4} 1...e5 2.Nf3 {after Nf3} *"));
  // a removal where the input has no comment changes nothing
  added[0].node = 0;
  pgn::Game bare;
  const std::string plain = "[Event \"x\"]\n\n1. e4 e5 *\n\n";
  pgn::GameReader r2(plain);
  REQUIRE(r2.next(bare));
  std::string a, b;
  pgn::write_game(bare, added, {}, a);
  pgn::write_game(bare, b);
  CHECK(a == b);
}
