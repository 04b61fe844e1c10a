// GET /api/explore: the moves played from an exact position, counted as `cqlindex check --fen` lists the games'
// positions (GAME<TAB>PLY<TAB>FEN): after 1.e4 from the start, and 2.Nf3 after 1.e4 c5; from the explore family
// (the first plies) and by the replay (positions past them), against a replay of every game of the sample, after
// a build and after a `build --append`; the cap; bad input.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

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
  indexed_repository(dir, sample_pgn());
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

  CHECK(start.body["source"] == "index");
  CHECK(sicilian.body["source"] == "index");
  // The start board at move 30: past the family's depth, so replayed (every game is a candidate) and capped.
  const Reply capped = explore("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 30", "10");
  REQUIRE(capped.status == 200);
  CHECK(capped.body["source"] == "replay");
  CHECK(capped.body["complete"] == false);
  CHECK(capped.body["replayed"] == 10);
  CHECK(capped.body["results"]["games"] == 10);

  CHECK(explore("rnbqkbnr/pppppppp/8/8 w").status == 400);
  CHECK(explore(kStart, "0").status == 400);
  CHECK(get(server, "/api/explore").status == 400);
}

namespace {

// The first four fields of a FEN: the position without its clocks.
std::string position_of(const std::string& fen) {
  size_t at = 0;
  for (int field = 0; field < 4 && at != std::string::npos; ++field) at = fen.find(' ', at + (field ? 1 : 0));
  return fen.substr(0, at);
}

// Games and their results, as a replay counts them.
struct Counts {
  uint64_t games = 0, white = 0, draws = 0, black = 0;
  void add(const std::string& result) {
    ++games;
    white += result == "1-0", draws += result == "1/2-1/2", black += result == "0-1";
  }
  bool operator==(const Counts&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Counts& c) {
  return os << c.games << " games " << c.white << "/" << c.draws << "/" << c.black;
}

// What a replay of every game says of one position: the games whose mainline reaches it (at their first visit,
// within `depth` plies), their results, and by the position each move leads to (a FEN's first four fields), the
// same counts.
struct Expected {
  Counts results;
  std::map<std::string, Counts> moves;
};

// By position (a FEN's first four fields), (game, ply) of every game's first visit.
using FirstVisits = std::map<std::string, std::vector<std::pair<size_t, size_t>>>;
FirstVisits first_visits(const std::vector<std::vector<std::string>>& fens) {
  FirstVisits visits;
  for (size_t g = 0; g < fens.size(); ++g) {
    std::set<std::string> seen;
    for (size_t ply = 0; ply < fens[g].size(); ++ply)
      if (std::string p = position_of(fens[g][ply]); seen.insert(p).second) visits[p].emplace_back(g, ply);
  }
  return visits;
}

Expected replay_every_game(const std::vector<std::vector<std::string>>& fens, const std::vector<std::string>& results,
                           const FirstVisits& visits, const std::string& position, size_t depth) {
  Expected e;
  auto it = visits.find(position);
  if (it == visits.end()) return e;
  for (const auto& [g, ply] : it->second) {
    if (ply >= depth) continue;
    e.results.add(results[g]);
    if (ply + 1 < fens[g].size()) e.moves[position_of(fens[g][ply + 1])].add(results[g]);
  }
  return e;
}

Counts counts_of(const json& j) {
  return Counts{j["games"].get<uint64_t>(), j["white"].get<uint64_t>(), j["draws"].get<uint64_t>(),
                j["black"].get<uint64_t>()};
}

// Asks the server of `dir`/repository.pgn the positions of every `stride`-th game (plies 0-12, then every fifth)
// and compares each answer with a replay of every game (`check --fen`); returns how many the family answered
// and how many were replayed. `family_depth`: the plies the index's explore family files (0: built without it).
std::pair<size_t, size_t> compare_with_replay(const fs::path& dir, size_t games, size_t stride,
                                              size_t family_depth = 12) {
  const ProcessResult listing = cqlindex_in(dir, "check --fen repository.pgn");
  REQUIRE(listing.exit_code == 0);
  std::vector<std::vector<std::string>> fens;  // every game's mainline FENs by ply
  std::istringstream lines(listing.out);
  for (std::string line; std::getline(lines, line);) {
    const size_t a = line.find('\t'), b = line.find('\t', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const size_t game = std::stoul(line.substr(0, a));
    if (fens.size() < game) fens.resize(game);
    fens[game - 1].push_back(line.substr(b + 1));
  }
  REQUIRE(fens.size() == games);
  Server server(dir, "repository.pgn");
  REQUIRE(server.port() > 0);
  std::vector<std::string> results;
  for (size_t g = 1; g <= fens.size(); ++g) {
    const Reply game = get(server, "/api/game/" + std::to_string(g));
    REQUIRE(game.status == 200);
    std::string result;
    for (const json& t : game.body["tags"])
      if (t[0] == "Result") result = t[1].get<std::string>();
    results.push_back(result);
  }
  std::set<std::pair<size_t, std::string>> asked;  // (ply, FEN)
  for (size_t g = 0; g < fens.size(); g += stride)
    for (size_t ply = 0; ply < fens[g].size(); ply += ply < 12 ? 1 : 5) asked.emplace(ply, fens[g][ply]);
  const FirstVisits visits = first_visits(fens);
  auto client = server.client();
  size_t from_index = 0, replayed = 0;
  for (const auto& [ply, fen] : asked) {
    INFO("ply " << ply << ": " << fen);
    const Reply r = as_reply(client.Get("/api/explore", httplib::Params{{"fen", fen}, {"cap", "100000"}},
                                        httplib::Headers{}));
    REQUIRE(r.status == 200);
    const size_t depth = r.body["depth"].get<size_t>();
    REQUIRE(depth == family_depth);
    const bool indexed = r.body["source"] == "index";
    CHECK(indexed == (ply < depth));  // the sample's FENs start at move 1: their move numbers are plies
    (indexed ? from_index : replayed) += 1;
    const Expected e = replay_every_game(fens, results, visits, position_of(fen), indexed ? depth : SIZE_MAX);
    CHECK(r.body["complete"] == true);
    CHECK(counts_of(r.body["results"]) == e.results);
    std::map<std::string, Counts> moves;
    for (const json& m : r.body["moves"]) moves[position_of(m["fen"].get<std::string>())] = counts_of(m);
    CHECK(moves == e.moves);
  }
  return {from_index, replayed};
}

}  // namespace

TEST_CASE("serve: /api/explore's counts equal a replay of every game of the sample, from the family and past it",
          "[serve][api]") {
  ScratchDir dir("serve-explore-all");
  indexed_repository(dir, sample_pgn());
  const auto [from_index, replayed] = compare_with_replay(dir.path(), 1005, 7);
  CHECK(from_index > 300);
  CHECK(replayed > 100);
}

TEST_CASE("serve: /api/explore's counts after a build --append equal a replay of every game", "[serve][api]") {
  ScratchDir dir("serve-explore-append");
  const std::string all = slurp(sample_pgn());
  // the first 600 games indexed, then the others appended and indexed with --append
  size_t cut = 0;
  for (int games = 0; games <= 600; ++games) cut = all.find("[Event ", cut + 1);
  REQUIRE(cut != std::string::npos);
  spit(dir.path() / "repository.pgn", all.substr(0, cut));
  REQUIRE(cqlindex_in(dir.path(), "build --explore repository.pgn").exit_code == 0);
  spit(dir.path() / "repository.pgn", all);  // (the --append goes on filing the family without being told)
  const ProcessResult appended = cqlindex_in(dir.path(), "build --append repository.pgn");
  REQUIRE(appended.exit_code == 0);
  const auto [from_index, replayed] = compare_with_replay(dir.path(), 1005, 11);
  CHECK(from_index > 150);
  CHECK(replayed > 50);
}

TEST_CASE("serve: an index built without --explore answers /api/explore by replay, the same counts", "[serve][api]") {
  ScratchDir dir("serve-explore-none");
  indexed_repository(dir, sample_pgn(), false);
  const auto [from_index, replayed] = compare_with_replay(dir.path(), 1005, 29, 0);
  CHECK(from_index == 0);
  CHECK(replayed > 100);
}

TEST_CASE("build --append --explore on an index without the family is refused, the index untouched", "[serve][build]") {
  ScratchDir dir("serve-explore-append-refused");
  const std::string all = slurp(sample_pgn());
  const size_t cut = all.find("[Event ", all.size() / 2);
  REQUIRE(cut != std::string::npos);
  spit(dir.path() / "repository.pgn", all.substr(0, cut));
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  spit(dir.path() / "repository.pgn", all);
  const ProcessResult refused = cqlindex_in(dir.path(), "build --append --explore repository.pgn");
  CHECK(refused.exit_code != 0);
  CHECK(stderr_of(dir.path()).find("has no explore family") != std::string::npos);
  // still the index of the first half: a plain --append extends it
  CHECK(cqlindex_in(dir.path(), "build --append repository.pgn").exit_code == 0);
}
