// User functions: macro-like, arguments substituted by name (the manual's function page and research note).
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

TEST_CASE("a function call is its body with the arguments substituted", "[eval][functions]") {
  const std::string g = test::lang_game(test::kRooks);
  CHECK(lang_matches("function twice(x){x + x}\ntwice(3) == 6", g) == 1);
  CHECK(lang_matches("function twice(x){x + x}\ntwice(3) == 7", g) == 0);
  // a set argument is the filter itself, evaluated where the body uses it
  CHECK(lang_matches("function two(S){#S == 2}\ntwo(R)", g) == 1);
  CHECK(lang_matches("function two(S){#S == 2}\ntwo(r)", g) == 0);
  // the value of the call is the value of the body's last filter
  CHECK(lang_matches("function size(S){#S}\nsize(R) + size(r) == 3", g) == 1);
}

TEST_CASE("a variable argument is passed by name: the body may change it", "[eval][functions]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("function inc(v){v += 1}\nCnt = 0\ninc(Cnt)\ninc(Cnt)\nCnt == 2", g) == 1);
  // a function that always matches (babson1.cql's pattern): if without else
  CHECK(lang_matches("function maybe(T){if T == 1 Cnt += 10\n}\nCnt = 0\nmaybe(1)\nmaybe(2)\nCnt == 10", g) == 1);
}

TEST_CASE("a function's definition matches like true and calls nest", "[eval][functions]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("function sq(x){x * x}\nfunction quad(x){sq(x) * sq(x)}\nquad(2) == 16", g) == 1);
  CHECK(lang_matches("function f(){false}\ntrue", g) == 1);
  CHECK(lang_matches("function f(){false}\nf()", g) == 0);
  CHECK_THROWS_AS(cql::parse_query("cql() function f(x){x} f(1 2)"), cql::CqlError);
}

TEST_CASE("sqrt is the integer square root", "[eval][functions]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("sqrt 17 == 4", g) == 1);
  CHECK(lang_matches("sqrt(16) == 4", g) == 1);
  CHECK(lang_matches("sqrt(1000000) == 1000", g) == 1);
  CHECK(lang_matches("x = 0 - 4\nsqrt x == 0", g) == 0);  // no square root of a negative number
}
