// String filters: regex groups, indexing and slices, indexof, case, int, ascii, str, typename, message.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

TEST_CASE("the regex match ~~ binds the whole match and each group", "[eval][strings]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("\"abc-42\" ~~ \"([a-z]+)-([0-9]+)\"\n\\2 == \"42\"\n\\1 == \"abc\"", g) == 1);
  CHECK(lang_matches("\"abc-42\" ~~ \"([a-z]+)-([0-9]+)\"\n\\0 == \"abc-42\"", g) == 1);
  CHECK(lang_matches("\"abc\" ~~ \"x\"", g) == 0);
}

TEST_CASE("string indexing, slices and assignment to them", "[eval][strings]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("s = \"hello\"\ns[1] == \"e\"", g) == 1);
  CHECK(lang_matches("s = \"hello\"\ns[1:3] == \"el\"", g) == 1);
  CHECK(lang_matches("s = \"hello\"\ns[2:] == \"llo\"", g) == 1);
  CHECK(lang_matches("s = \"hello\"\ns[9] == \"x\"", g) == 0);  // out of range: fails
  CHECK(lang_matches("s = \"hello\"\ns[0] = \"j\"\ns == \"jello\"", g) == 1);
}

TEST_CASE("indexof, uppercase, lowercase, int, ascii, str", "[eval][strings]") {
  const std::string g = test::lang_game(test::kRooks);
  CHECK(lang_matches("indexof(\"ll\" \"hello\") == 2", g) == 1);
  CHECK(lang_matches("indexof(\"z\" \"hello\") == 0", g) == 0);  // absent: fails
  CHECK(lang_matches("uppercase \"abC\" == \"ABC\"", g) == 1);
  CHECK(lang_matches("lowercase \"AbC\" == \"abc\"", g) == 1);
  CHECK(lang_matches("int \"42\" == 42", g) == 1);
  CHECK(lang_matches("int \"4x\" == 4", g) == 0);
  CHECK(lang_matches("ascii \"A\" == 65", g) == 1);
  CHECK(lang_matches("ascii 66 == \"B\"", g) == 1);
  CHECK(lang_matches("str(\"k\" 1 Ke1) == \"k1e1\"", g) == 1);
  CHECK(lang_matches("\"ab\" + \"cd\" == \"abcd\"", g) == 1);
}

TEST_CASE("max and min of numbers or strings: the extreme of the arguments that match", "[eval][strings]") {
  const std::string g = test::lang_game(test::kRooks);
  // the CQL manual's example: max("pin" "mate") is "pin"
  CHECK(lang_matches("y = max(\"pin\" \"mate\")\ny == \"pin\"", g) == 1);
  CHECK(lang_matches("y = min(\"pin\" \"mate\")\ny == \"mate\"", g) == 1);
  CHECK(lang_matches("max(\"b\" \"ab\" \"B\") == \"b\"", g) == 1);  // bytewise: lower case after upper
  CHECK(lang_matches("min(\"b\" \"ab\" \"B\") == \"B\"", g) == 1);
  CHECK(lang_matches("max(3 7 5) == 7 and min(3 7 5) == 3", g) == 1);
  // "matches a position if at least one of its arguments match": a failing argument is passed over
  CHECK(lang_matches("max(#R indexof(\"z\" \"abc\")) == 2", g) == 1);
  CHECK(lang_matches("min(indexof(\"z\" \"abc\") indexof(\"q\" \"abc\"))", g) == 0);
  CHECK(lang_matches("max(\"abc\"[9] \"x\") == \"x\"", g) == 1);
}

TEST_CASE("typename and piecename", "[eval][strings]") {
  const std::string g = test::lang_game(test::kRooks);
  // typename is the type's letter whatever the colour (babson3.pgn: "black promotes to Q")
  CHECK(lang_matches("typename Ke1 == \"K\"", g) == 1);
  CHECK(lang_matches("typename a8 == \"R\"", g) == 1);
  // piecename is the piece's letter, colour by case (chameleon.pgn compares pieces on different squares)
  CHECK(lang_matches("piecename a8 == \"r\"", g) == 1);
  CHECK(lang_matches("piecename a1 == \"R\"", g) == 1);
  CHECK(lang_matches("typename e4 == \"_\"", g) == 1);  // an empty square
}

TEST_CASE("message writes its text to the game's messages, not to the PGN", "[eval][strings]") {
  cql::Query q = cql::parse_query("cql()\ninitial message(\"kings: \" #K)\nmessage quiet \"q\"\n");
  cql::eval::Program program = cql::eval::compile(q, {});
  cql::eval::GameScanner scanner(program);
  const std::string pgn_text = test::lang_game(test::kLoneKings, "1. Kd2 *");
  pgn::GameReader reader(pgn_text);  // reads views into pgn_text: it must outlive the game
  pgn::Game game;
  REQUIRE(reader.next(game));
  cql::eval::GameOutcome o = scanner.scan(game);
  // the body stops at `initial` after the first position: one message there, none after
  REQUIRE(o.messages.size() == 2);
  CHECK(o.messages[0] == "Game: 1 move 1(wtm): kings: 1");
  CHECK(o.messages[1] == "q");
  CHECK(o.comments.size() == 2);  // "Game number 1" and the CQL marker, no message text
}

TEST_CASE("settag sets a tag of the game as written", "[eval][strings]") {
  // settag is for custom tags; Event is refused (settag_test.cpp has the in-place replacement)
  CHECK_THROWS_AS(cql::parse_query("cql()\ninitial\nsettag(\"Event\" \"new one\")\n"), cql::CqlError);
  cql::Query q = cql::parse_query("cql()\ninitial\nsettag(\"Theme\" \"new one\")\nsettag(\"Theme2\" str(#K))\n");
  cql::eval::Program program = cql::eval::compile(q, {});
  cql::eval::GameScanner scanner(program);
  const std::string pgn_text = test::lang_game(test::kLoneKings, "1. Kd2 *", "old");
  pgn::GameReader reader(pgn_text);
  pgn::Game game;
  REQUIRE(reader.next(game));
  cql::eval::GameOutcome o = scanner.scan(game);
  REQUIRE(o.matched);
  cql::eval::apply_set_tags(o, game);
  std::string out;
  pgn::write_game(game, o.comments, {}, out);
  CHECK(out.find("[Theme \"new one\"]") != std::string::npos);  // added
  CHECK(out.find("[Theme2 \"1\"]") != std::string::npos);       // added
  CHECK(out.find("[Event \"old\"]") != std::string::npos);      // untouched
}
