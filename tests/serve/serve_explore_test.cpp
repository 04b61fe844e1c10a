// GET /api/explore: the moves played from an exact position, counted as `cqlindex check --fen` lists the games'
// positions (GAME<TAB>PLY<TAB>FEN): after 1.e4 from the start, and 2.Nf3 after 1.e4 c5; the cap; bad input.
#include <catch2/catch.hpp>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// The number of games whose mainline has `fen` at `ply`, from `check --fen`'s listing.
size_t games_at(const std::string& listing, int ply, const std::string& fen) {
  const std::string needle = "\t" + std::to_string(ply) + "\t" + fen + "\n";
  size_t n = 0;
  for (size_t at = listing.find(needle); at != std::string::npos; at = listing.find(needle, at + 1)) ++n;
  return n;
}

// The games of the move `san` in an /api/explore answer (0 when absent).
uint64_t games_of(const json& answer, const std::string& san) {
  for (const json& m : answer["moves"])
    if (m["san"] == san) return m["games"].get<uint64_t>();
  return 0;
}

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const std::string kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const std::string kAfterE4C5 = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
const std::string kAfterE4C5Nf3 = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";

}  // namespace

TEST_CASE("serve: /api/explore counts the moves played from a position as the games list them", "[serve][api]") {
  ScratchDir dir("serve-explore");
  indexed_repository(dir, kSample);
  const ProcessResult fens = cqlindex_in(dir.path(), "check --fen repository.pgn");
  REQUIRE(fens.exit_code == 0);
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  auto client = server.client();
  auto explore = [&](const std::string& fen, const std::string& cap = "") {
    httplib::Params params{{"fen", fen}};
    if (!cap.empty()) params.emplace("cap", cap);
    return as_reply(client.Get("/api/explore", params, httplib::Headers{}));
  };

  const Reply start = explore(kStart);
  REQUIRE(start.status == 200);
  CHECK(start.body["complete"] == true);
  CHECK(start.body["results"]["games"] == games_at(fens.out, 0, kStart));
  CHECK(games_of(start.body, "e4") == games_at(fens.out, 1, kAfterE4));
  CHECK(games_of(start.body, "e4") > 100);
  uint64_t sum = 0;
  for (const json& m : start.body["moves"]) {
    sum += m["games"].get<uint64_t>();
    CHECK(m["white"].get<uint64_t>() + m["draws"].get<uint64_t>() + m["black"].get<uint64_t>() <=
          m["games"].get<uint64_t>());
  }
  CHECK(sum <= start.body["results"]["games"].get<uint64_t>());

  const Reply sicilian = explore(kAfterE4C5);
  REQUIRE(sicilian.status == 200);
  CHECK(sicilian.body["results"]["games"] == games_at(fens.out, 2, kAfterE4C5));
  CHECK(games_of(sicilian.body, "Nf3") == games_at(fens.out, 3, kAfterE4C5Nf3));
  CHECK(games_of(sicilian.body, "Nf3") > 10);
  CHECK(sicilian.body["moves"][0]["san"] == "Nf3");  // most played first

  const Reply capped = explore(kStart, "10");
  REQUIRE(capped.status == 200);
  CHECK(capped.body["complete"] == false);
  CHECK(capped.body["replayed"] == 10);
  CHECK(capped.body["results"]["games"] == 10);

  CHECK(explore("rnbqkbnr/pppppppp/8/8 w").status == 400);
  CHECK(explore(kStart, "0").status == 400);
  CHECK(get(server, "/api/explore").status == 400);
}
