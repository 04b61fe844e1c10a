// Operation-assignments and the conditional assignment =? (research note, section I).
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

TEST_CASE("numeric op-assignments", "[eval][assign]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("x = 10\nx += 5\nx -= 3\nx *= 2\nx /= 4\nx %= 4\nx == 2", g) == 1);  // 12*2/4 = 6, 6%4 = 2
  CHECK(lang_matches("x = 10\nx /= 0", g) == 0);  // division by zero fails
  CHECK(lang_matches("x = 10\nnot x /= 0\nx == 10", g) == 1);  // and leaves the variable alone
  CHECK_THROWS_AS(cql::parse_query("cql() y += 1"), cql::CqlError);  // no variable to start from
}

TEST_CASE("string and set op-assignments", "[eval][assign]") {
  const std::string g = test::lang_game(test::kRooks);
  CHECK(lang_matches("s = \"ab\"\ns += \"cd\"\ns == \"abcd\"", g) == 1);
  CHECK(lang_matches("S = Ke1\nS |= Pe2\n#S == 2", g) == 1);
  CHECK(lang_matches("S = R\nS &= a-h1\nS == [a1,h1]", g) == 1);
}

TEST_CASE("=? assigns only when its filter matches", "[eval][assign]") {
  const std::string g = test::lang_game(test::kRooks);
  CHECK(lang_matches("y = 1\ny =? #R\ny == 2", g) == 1);
  CHECK(lang_matches("y = 1\nnot y =? (#R > 5)\ny == 1", g) == 1);
}
