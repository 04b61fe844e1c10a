// `position N` (the position whose positionid is N) and `fen` as a string (the position's FEN).
#include <catch2/catch.hpp>

#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

TEST_CASE("position N names the position with that positionid", "[eval][positions]") {
  const std::string g = test::lang_game(test::kLoneKings, "1. Kd2 Kd7 2. Ke2 *");
  CHECK(lang_matches("initial\nposition 2 : Kd2", g) == 1);   // after 1... Kd7 the white king is on d2
  CHECK(lang_matches("initial\nposition 3 : Ke2", g) == 1);
  CHECK(lang_matches("initial\nposition 4 : Ke2", g) == 0);   // no such position
  CHECK(lang_matches("initial\nposition (positionid + 1) : btm", g) == 1);
  CHECK(lang_matches("initial\nposition (positionid + 1) : wtm", g) == 0);
}

TEST_CASE("fen without a board is the position's FEN", "[eval][positions]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("fen == \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"", g) == 1);
  CHECK(lang_matches("fen ~~ \"^4k3/\"", g) == 1);
}
