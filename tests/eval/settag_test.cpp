// settag: a tag set in the written game, replaced in place or added after the input's other tags (FEN last).
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "eval/lang_support.h"

using namespace cqlindex;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The written game of a query, with the tags settag set applied (as `cqlindex run` writes it).
std::string written_with_tags(const std::string& query, const std::string& pgn_text, cql::eval::EvalOptions o = {}) {
  return test::run_query(query, pgn_text, o).output;
}

const std::string kTagged =
    "[Event \"e\"]\n[Site \"s\"]\n[Date \"2001.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n"
    "[Result \"*\"]\n[Annotator \"a\"]\n[Theme \"old\"]\n[Source \"src\"]\n\n1. e4 *\n\n";

}  // namespace

TEST_CASE("settag replaces a tag in place and adds a new one after the input's tags", "[eval][settag]") {
  const std::string r = written_with_tags("cql(silent)\ninitial\nsettag(\"Theme\" \"new\")\nsettag(\"Extra\" \"x\")", kTagged);
  CHECK(has(r, "[Result \"*\"]\n[Annotator \"a\"]\n[Theme \"new\"]\n[Source \"src\"]\n[Extra \"x\"]\n\n1.e4 *"));
  // set twice: the last value evaluated wins, in the place of the first
  const std::string twice = written_with_tags("cql(silent)\nply <= 1\nsettag(\"Ply\" str ply)", kTagged);
  CHECK(has(twice, "[Source \"src\"]\n[Ply \"1\"]\n\n"));
  // the tag filter still reads the input's value
  const std::string read = written_with_tags("cql(silent)\ninitial\nsettag(\"Theme\" \"new\")\ntag \"Theme\" == \"old\"", kTagged);
  CHECK(has(read, "[Theme \"new\"]"));
  // quotes and backslashes in the value are escaped
  const std::string quoted = written_with_tags("cql(silent)\ninitial\nsettag(\"Q\" \"a\"\\\"\"b\")", kTagged);
  CHECK(has(quoted, "[Q \"a\\\"b\"]"));
}

TEST_CASE("settag before FEN: a game from a set-up position keeps FEN last", "[eval][settag]") {
  const std::string g = test::lang_game(test::kLoneKings, "1. Kd2 *", "ev");
  const std::string r = written_with_tags("cql(silent)\ninitial\nsettag(\"Theme\" \"t\")", g);
  const size_t theme = r.find("[Theme \"t\"]"), setup = r.find("[SetUp \"1\"]"), fen = r.find("[FEN ");
  REQUIRE(theme != std::string::npos);
  REQUIRE(setup != std::string::npos);
  REQUIRE(fen != std::string::npos);
  CHECK(setup < theme);
  CHECK(theme < fen);
}

TEST_CASE("the nosettag option: settag matches and changes no tag", "[eval][settag]") {
  cql::eval::EvalOptions o;
  o.nosettag = true;
  const std::string r = written_with_tags("cql(silent)\ninitial\nsettag(\"Theme\" \"new\")", kTagged, o);
  CHECK(has(r, "[Theme \"old\"]"));
  CHECK(!has(r, "new"));
}

TEST_CASE("settag refuses the tags CQL writes itself", "[eval][settag][errors]") {
  for (const char* name : {"Event", "Site", "Date", "ECO", "FEN", "Round", "Result", "EventDate", "White", "Black",
                           "WhiteElo", "BlackUSCF", "WhiteRating", "BlackDWZ"}) {
    INFO(name);
    try {
      cql::parse_query(std::string("cql()\nsettag(\"") + name + "\" \"v\")");
      FAIL("accepted");
    } catch (const cql::CqlError& e) {
      CHECK(e.line == 2);
      CHECK(e.column == 8);  // the tag name
    }
  }
  CHECK_NOTHROW(cql::parse_query("cql()\nsettag(\"Theme\" \"v\")"));
  CHECK_NOTHROW(cql::parse_query("cql()\nsettag(\"Eventful\" \"v\")"));  // only the exact built-in names
  // observed from CQL 6.2 build 9.493 on 2026-12-08: any longer name starting White or Black is refused, as its
  // manual says ("tag names that begin with the string 'White' or 'Black' cannot be used ..."), and so are
  // the spellings it lists as close to a built-in tag; a mixed case such as "eVENT" is a custom tag
  CHECK_THROWS_WITH(cql::parse_query("cql()\nsettag(\"WhiteTeam\" \"v\")"),
                    Catch::StartsWith("tag names that begin with the string 'White' or 'Black' cannot be used"));
  CHECK_THROWS_WITH(cql::parse_query("cql()\nsettag(\"event\" \"v\")"),
                    Catch::StartsWith("CQL version 6.2 does not support using 'tag' or 'settag' with tag names that "
                                      "are close to built in tag names: event"));
  CHECK_NOTHROW(cql::parse_query("cql()\nsettag(\"eVENT\" \"v\")"));
  CHECK_NOTHROW(cql::parse_query("cql()\nsettag(\"round\" \"v\")"));
  CHECK_NOTHROW(cql::parse_query("cql()\nsettag(\"PlyCount\" \"v\")"));
}
