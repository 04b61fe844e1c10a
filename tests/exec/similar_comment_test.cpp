// CQL's similarposition comment read back (exec/similar_comment.h): the submission position it names, who moves
// there and the transform in words; any other comment is not one.
#include <catch2/catch.hpp>

#include "exec/similar_comment.h"

using namespace cqlindex::exec;

TEST_CASE("similar comment: read back in words", "[exec][similar]") {
  auto reflected = read_similar_comment("see submissions.pgn game: 12 at move: 3 btm reflect_a1h8");
  REQUIRE(reflected);
  CHECK(reflected->submission_game == 12);
  CHECK(reflected->move == 3);
  CHECK(!reflected->white_to_move);
  CHECK(reflected->transform == "reflected in the a1-h8 diagonal");

  auto identity = read_similar_comment("see submissions.pgn game: 1 at move: 1 wtm ");
  REQUIRE(identity);
  CHECK(identity->white_to_move);
  CHECK(identity->transform == "as it stands");

  auto composed = read_similar_comment("see studies.pgn game: 2 at move: 40 wtm reflect_v right^2");
  REQUIRE(composed);
  CHECK(composed->move == 40);
  CHECK(composed->transform == "shifted two files right, then mirrored left-right");

  CHECK(!read_similar_comment("CQL"));
  CHECK(!read_similar_comment("Game number 5 is similar"));
  CHECK(!read_similar_comment("see submissions.pgn game: x at move: 1 wtm "));
}
