// The numbers the evaluator reads from tags (`year` from a Date's first four characters, `elo` from a whole Elo
// value): a whole decimal integer or none. The planner bounds `year` and `elo` with the same reading, so a value
// it reads as none must be none to the evaluator too (`year != N` then holds).
#include <catch2/catch.hpp>

#include "engine/pgn/cql_tag_values.h"

using cqlindex::pgn::tag_integer;
using cqlindex::pgn::tag_year;

TEST_CASE("tag numbers: a whole decimal integer or none", "[pgn][tags]") {
  CHECK(tag_integer("2700") == 2700);
  CHECK(tag_integer("02700") == 2700);
  CHECK(tag_integer("0") == 0);
  CHECK(tag_integer("-5") == -5);
  CHECK_FALSE(tag_integer(""));
  CHECK_FALSE(tag_integer("?"));
  CHECK_FALSE(tag_integer("2700 "));
  CHECK_FALSE(tag_integer(" 2700"));
  CHECK_FALSE(tag_integer("2700x"));
  CHECK_FALSE(tag_integer("+2700"));
  CHECK_FALSE(tag_integer("99999999999999999999"));  // out of range
}

TEST_CASE("tag numbers: a Date's year is its first four characters", "[pgn][tags]") {
  CHECK(tag_year("2000.01.01") == 2000);
  CHECK(tag_year("2000x") == 2000);
  CHECK(tag_year("20000.01.01") == 2000);
  CHECK(tag_year("20") == 20);
  CHECK(tag_year("-200.01.01") == -200);
  CHECK_FALSE(tag_year("????.??.??"));
  CHECK_FALSE(tag_year(""));
  CHECK_FALSE(tag_year("200x.01.01"));
  CHECK_FALSE(tag_year(" 2000"));
}
