// Queries whose result for a game depends on the games before it (persistent variables and dictionaries) or
// that act beyond their output (message, writefile, readfile) must not be pruned: the plan is all games.
#include "planner_fixture.h"

using namespace planner_test;

namespace {

const char* kTwoGames = R"([Event "Mate"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "Quiet"]
[Result "*"]

1. d4 d5 *

)";

const std::string& two_games() {
  static const std::string path = pgn_file(kTwoGames);
  return path;
}

std::optional<std::vector<uint32_t>> plan(const std::string& body) {
  return candidates(two_games(), "cql(input x.pgn)\n" + body);
}

}  // namespace

TEST_CASE("state carried across games or effects beyond the output: all games", "[planner][rules]") {
  CHECK(plan("mate") == std::vector<uint32_t>{1});  // the same filter alone is bounded
  CHECK(plan("persistent Count += 1\nmate") == std::nullopt);
  CHECK(plan("if initial persistent quiet Count += 1\nmate") == std::nullopt);
  CHECK(plan("dictionary Seen\nSeen[gamenumber] = 1\nmate") == std::nullopt);
  CHECK(plan("message(\"here\")\nmate") == std::nullopt);
  // a local dictionary lives within one game: the rest of the query still bounds it
  CHECK(plan("local dictionary D\nD[1] = 1\nmate") == std::vector<uint32_t>{1});
}
