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

TEST_CASE("child is the main continuation, child(n) the n-th child", "[eval][positions]") {
  const std::string g = test::lang_game(test::kLoneKings, "1. Kd2 (1. Kf2) Kd7 2. Ke2 *");
  CHECK(lang_matches("initial\nchild : Kd2", g) == 1);
  CHECK(lang_matches("initial\nchild(0) : Kd2", g) == 1);
  CHECK(lang_matches("initial\nchild(1) : Kf2", g) == 0);  // the variation is not searched
  CHECK(test::run_query("cql(variations)\ninitial\nchild(1) : Kf2\n", g).matches == 1);
  CHECK(lang_matches("terminal\nchild", g) == 0);
}

TEST_CASE("line lastposition and singlecolor", "[eval][positions]") {
  const std::string g = test::lang_game(test::kLoneKings, "1. Kd2 Kd7 2. Ke2 *");
  // the line covers positions 0..2 (Ke2 is not on d2): its value is position 2
  CHECK(lang_matches("initial\nLp = line lastposition --> Ke1 --> Kd2 --> Kd2\nLp : (kd7 and wtm)", g) == 1);
  // singlecolor steps two plies: from the start to position 2 (white to move again)
  CHECK(lang_matches("initial\nline singlecolor --> Ke1 --> Kd2", g) == 1);
  CHECK(lang_matches("initial\nline singlecolor --> Ke1 --> btm", g) == 0);
  CHECK(lang_matches("initial\nline --> Ke1 --> btm", g) == 1);
}
