// POST /api/similar with "near": 1 against `cqlindex similar --near 1` on the same repository and studies: the
// same pairs, fact for fact and in the same order, their boards those of the repository games; "near" other than
// 0 or 1 refused, 0 the request without it, a repository of several files refused as the command line refuses it.
#include <catch2/catch.hpp>

#include "serve/serve_support.h"
#include "similar/near_test_util.h"

using namespace cqlindex::test;

namespace {

// A pair of the answer as `cqlindex similar --near` prints it on stderr.
std::string line_of(const json& p) {
  const std::string date = p["date"];
  return "near: submission game " + std::to_string(p["submission_game"].get<uint32_t>()) + " move " +
         std::to_string(p["move"].get<uint32_t>()) + " " + p["side"].get<std::string>() + ": repository game " +
         std::to_string(p["game"].get<uint64_t>()) + " ply " + std::to_string(p["ply"].get<uint32_t>()) +
         ", distance " + std::to_string(p["distance"].get<unsigned>()) + ", " + p["transform"].get<std::string>() +
         (date.empty() ? "" : ", " + date);
}

// The answer's count as the command line's last near line says it.
std::string summary_of(const json& near) {
  std::string s = "near: " + std::to_string(near["pairs"].get<uint64_t>()) +
                  " pairs of a submission game and a repository game within distance " +
                  std::to_string(near["distance"].get<unsigned>()) + " (";
  for (size_t d = 0; d < near["by_distance"].size(); ++d)
    s += (d ? ", " : "") + std::to_string(near["by_distance"][d].get<uint64_t>()) + " at distance " + std::to_string(d);
  return s + ")";
}

// The FEN's first field.
std::string placement(const std::string& fen) { return fen.substr(0, fen.find(' ')); }

}  // namespace

TEST_CASE("serve: /api/similar with near 1 gives the pairs cqlindex similar --near 1 reports", "[serve][api][near]") {
  ScratchDir dir("serve-near");
  indexed_repository(dir, sample_pgn());
  std::vector<Planted> planted;
  // as JSON carries them: the Latin-1 bytes of old studies made U+FFFD, for the command line too
  const std::string submissions =
      json::parse(json(studies_and_planted(slurp(sample_pgn()), planted)).dump(-1, ' ', false, json::error_handler_t::replace));
  spit(dir.path() / "submissions.pgn", submissions);
  const ProcessResult cli = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn --near 1");
  REQUIRE(cli.exit_code == 0);
  const std::vector<std::string> lines = lines_starting(stderr_of(dir.path()), "near:");
  REQUIRE(lines.size() >= 4);  // the planted three at least, and the count

  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  const Reply served = post(server, "/api/similar", json{{"pgn", submissions}, {"near", 1}, {"limit", 1000}});
  REQUIRE(served.status == 200);
  // CQL's output is the same with near or without, as on the command line
  std::string pgn;
  for (const json& g : served.body["results"]) pgn += g["pgn"].get<std::string>();
  CHECK(pgn == slurp(dir.path() / "out.pgn"));
  // the pairs, one to one
  const json& near = served.body["near"];
  REQUIRE(near.is_object());
  CHECK(summary_of(near) == lines.back());
  REQUIRE(near["results"].size() == lines.size() - 1);
  REQUIRE(near["pairs"] == lines.size() - 1);
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    const json& p = near["results"][i];
    INFO("pair " << i << ": " << p.dump());
    CHECK(line_of(p) == lines[i]);
    // its boards: the repository game's position at that ply, the squares that differ as many as the distance
    // (unless pieces fell off the board in turning it back), the submission's position the pair names
    const Reply game = get(server, "/api/game/" + std::to_string(p["game"].get<uint64_t>()));
    REQUIRE(game.status == 200);
    CHECK(p["repository_fen"] == game.body["fens"][p["ply"].get<size_t>()]);
    CHECK(p["tags"] == game.body["tags"]);
    if (p["dropped"] == 0) CHECK(p["differs"].size() == p["distance"].get<size_t>());
    if (p["distance"] == 0 && p["transform"] == "as it stands")
      CHECK(p["oriented"].get<std::string>() == placement(p["fen"]));
  }
  // the planted positions: one square away from the game they came from, at the square their piece was taken off
  for (size_t i = 0; i < planted.size(); ++i) {
    bool found = false;
    for (const json& p : near["results"])
      if (p["submission_game"] == 253 + i && p["game"] == planted[i].game && p["distance"] == 1) {
        found = true;
        CHECK(p["fen"].get<std::string>() == planted[i].fen);
        CHECK(p["transform"] == "mirrored left-right");
        CHECK(p["differs"].size() == 1);
      }
    INFO("planted in game " << planted[i].game);
    CHECK(found);
  }
  // paged as the games are: the same pairs from an offset
  const Reply second = post(server, "/api/similar", json{{"pgn", submissions}, {"near", 1}, {"offset", 2}, {"limit", 1}});
  REQUIRE(second.status == 200);
  REQUIRE(second.body["near"]["results"].size() == 1);
  CHECK(second.body["near"]["results"][0] == near["results"][2]);
  CHECK(second.body["near"]["pairs"] == near["pairs"]);
}

TEST_CASE("serve: /api/similar refuses a near other than 0 or 1, and near 0 is the request without it",
          "[serve][api][near]") {
  ScratchDir dir("serve-near-refused");
  indexed_repository(dir, sample_pgn());
  fs::create_directories(dir.path() / "parts");
  spit(dir.path() / "parts" / "a.pgn", sample_games(0, 100));
  spit(dir.path() / "parts" / "b.pgn", sample_games(100, 200));
  spit(dir.path() / "parts.cqlrepo", "parts/a.pgn\nparts/b.pgn\n");
  REQUIRE(cqlindex_in(dir.path(), "build parts/a.pgn parts/b.pgn").exit_code == 0);
  Server server(dir.path(), std::vector<std::string>{"repository.pgn", "parts.cqlrepo"}, {});
  REQUIRE(server.port() > 0);
  const Reply game = get(server, "/api/game/9");
  REQUIRE(game.status == 200);
  const json study{{"fen", game.body["fens"][16]}};

  for (const json& bad : {json(2), json("x"), json(-1), json(1.5), json(true), json(nullptr), json::array({1})}) {
    json body = study;
    body["near"] = bad;
    const Reply r = post(server, "/api/similar", body);
    INFO("near " << bad.dump());
    CHECK(r.status == 400);
    CHECK(r.body["error"].get<std::string>().find("\"near\" must be 0") == 0);
  }
  json several = study;
  several["near"] = 1;
  several["repo"] = "parts";
  const Reply refused = post(server, "/api/similar", several);
  CHECK(refused.status == 400);
  CHECK(refused.body["error"] == "\"near\" searches a repository of one PGN file, not 2");
  several["near"] = 0;
  CHECK(post(server, "/api/similar", several).status == 200);

  // near 0: the answer without near (its time aside)
  json zero = study;
  zero["near"] = 0;
  Reply with = post(server, "/api/similar", zero), without = post(server, "/api/similar", study);
  REQUIRE(with.status == 200);
  REQUIRE(without.status == 200);
  CHECK(!with.body.contains("near"));
  with.body.erase("seconds");
  without.body.erase("seconds");
  CHECK(with.body == without.body);
  CHECK(!with.body["results"].empty());
}
