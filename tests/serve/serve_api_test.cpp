// `cqlindex serve`'s JSON API answers as the command line does: /api/run against `cqlindex run` on corpus
// queries (the games byte for byte, the match count, the message lines), /api/similar against `cqlindex
// similar`, /api/game against the repository's bytes, /api/info.
#include <catch2/catch.hpp>

#include <algorithm>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// Every `stride`-th .cql under cql-examples/`corpus`, in name order.
std::vector<fs::path> corpus_queries(const std::string& corpus, size_t stride) {
  std::vector<fs::path> all;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(shared_data("cql-examples/" + corpus))))
    if (e.path().extension() == ".cql") all.push_back(e.path());
  std::sort(all.begin(), all.end());
  std::vector<fs::path> chosen;
  for (size_t i = 0; i < all.size(); i += stride) chosen.push_back(all[i]);
  return chosen;
}

bool touches_files(const std::string& cql) {
  for (const char* word : {"readfile", "writefile", "similarposition"})
    if (cql.find(word) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("serve: /api/run answers as cqlindex run does on corpus queries", "[serve][api]") {
  ScratchDir dir("serve-run");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  std::vector<fs::path> queries = corpus_queries("opening-tactics-frequency", 1);
  for (const fs::path& q : corpus_queries("reti", 6)) queries.push_back(q);
  REQUIRE(queries.size() > 60);
  size_t compared = 0, with_matches = 0;
  for (const fs::path& q : queries) {
    const std::string cql = slurp(q);
    INFO(q.string());
    fs::remove(dir.path() / "out.pgn");
    const ProcessResult cli = cqlindex_in(dir.path(), "run -i repository.pgn -o out.pgn " + shell_quote(q.string()));
    const ServedRun served = run_all_pages(server, cql);
    INFO("server: " << served.last.body.dump().substr(0, 2000) << "\ncli stderr: " << stderr_of(dir.path()));
    if (touches_files(cql)) {  // refused by the server (tested in serve_safety_test)
      CHECK(served.last.status == 400);
      continue;
    }
    if (cli.exit_code != 0) {
      CHECK(served.last.status == (cli.exit_code == 1 ? 400 : 500));
      continue;
    }
    REQUIRE(served.last.status == 200);
    size_t line_begin = 0;
    const std::string line = match_line(cli.out, &line_begin);
    CHECK(line == std::to_string(served.last.body["matches"].get<uint64_t>()) + " matches of " +
                      std::to_string(served.last.body["games"].get<uint64_t>()) + " games");
    CHECK(served.pgn == slurp(dir.path() / "out.pgn"));
    // `message` lines: what the command line printed before its match line
    std::string messages;
    for (const json& m : served.last.body["messages"]) messages += m.get<std::string>() + "\n";
    if (served.last.body["messages"].size() < 200) CHECK(messages == cli.out.substr(0, line_begin));
    ++compared;
    if (!served.numbers.empty()) ++with_matches;
  }
  CHECK(compared > 50);
  CHECK(with_matches > 10);  // the comparison is not only of empty answers
  CHECK(server.stop() == 0);
}

TEST_CASE("serve: /api/run of tag tests, filtered from the names held in memory, answers as cqlindex run does",
          "[serve][api]") {
  // The server holds each index's tags family keys (store/family_keys.h) and its planner reads only the lists of the
  // names a tag test keeps; the command line reads the family. Names in part, whole, in another case, none, most.
  ScratchDir dir("serve-held-tags");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--threads", "2"});
  REQUIRE(server.port() > 0);
  const std::vector<std::string> queries = {
      "cql() player \"Timman\"",           "cql() player \"Alekhine, Alexander A\"",
      "cql() player \"timman\"",           "cql() player \"No such player anywhere\"",
      "cql() player \"a\"",                "cql() player white \"Karpov\" or player black \"Tal\"",
      "cql() \"Olympiad\" in event",       "cql() year < 1950 and player \"Euwe\"",
      "cql() elo white > 2600 check"};
  for (const std::string& cql : queries) {
    INFO(cql);
    const CliRun cli_answer = cli_run(dir, cql);
    const ServedRun served = run_all_pages(server, cql, 97);
    REQUIRE(served.last.status == 200);
    CHECK(match_line(cli_answer.process.out) ==
          std::to_string(served.last.body["matches"].get<uint64_t>()) + " matches of " +
              std::to_string(served.last.body["games"].get<uint64_t>()) + " games");
    CHECK(served.pgn == cli_answer.output);
  }
  CHECK(server.stop() == 0);
}

TEST_CASE("serve: /api/run pages, and marks matched positions by ply", "[serve][api]") {
  ScratchDir dir("serve-page");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  const std::string cql = "cql() check";
  const Reply all = post(server, "/api/run", json{{"cql", cql}, {"limit", 1000}});
  REQUIRE(all.status == 200);
  const uint64_t matches = all.body["matches"].get<uint64_t>();
  REQUIRE(matches > 20);
  REQUIRE(all.body["results"].size() == std::min<uint64_t>(matches, 1000));
  CHECK(all.body["complete"] == true);
  // two pages of 7 from offset 5: the same games as the whole answer's 6th to 19th
  for (uint64_t offset : {5, 12}) {
    const Reply page = post(server, "/api/run", json{{"cql", cql}, {"offset", offset}, {"limit", 7}});
    REQUIRE(page.status == 200);
    REQUIRE(page.body["results"].size() == 7);
    CHECK(page.body["matches"] == matches);
    for (size_t i = 0; i < 7; ++i) CHECK(page.body["results"][i] == all.body["results"][offset + i]);
  }
  // A page past the end is empty, not an error.
  const Reply past = post(server, "/api/run", json{{"cql", cql}, {"offset", matches + 10}});
  REQUIRE(past.status == 200);
  CHECK(past.body["results"].empty());
  // Each game's "CQL" comments are at plies where the side that just moved gave check: the position is in check.
  const json& first = all.body["results"][0];
  const Reply game = get(server, "/api/game/" + std::to_string(first["number"].get<uint64_t>()));
  REQUIRE(game.status == 200);
  size_t marks = 0;
  for (const json& c : first["comments"]) {
    if (c["text"] != "CQL" || c["mainline"] != true) continue;
    ++marks;
    const uint64_t ply = c["ply"].get<uint64_t>();
    REQUIRE(ply < game.body["fens"].size());
    REQUIRE(ply >= 1);
    const std::string san = game.body["moves"][ply - 1].get<std::string>();
    CHECK((san.back() == '+' || san.back() == '#'));
  }
  CHECK(marks > 0);
  // the game's tags are the output's
  size_t tags_seen = 0;
  for (const json& tag : first["tags"]) {
    ++tags_seen;
    CHECK(first["pgn"].get<std::string>().find("[" + tag[0].get<std::string>() + " \"" + tag[1].get<std::string>() +
                                               "\"]") != std::string::npos);
  }
  CHECK(tags_seen >= 7);
}

TEST_CASE("serve: /api/run writes the games of its page and counts the matches past it exactly", "[serve][api]") {
  ScratchDir dir("serve-page-count");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--threads", "2"});
  REQUIRE(server.port() > 0);
  // a tag query (the index narrows it), one replaying every game, a sorted one (every match's sort value is
  // needed before the page is known), one that sets tags
  const std::vector<std::string> queries = {
      "cql() player \"Karpov\" or player \"Kasparov\" or result 1-0", "cql() check",
      "cql() sort \"Moves\" movenumber",
      "cql() check settag(\"Checked\" \"yes\")"};
  for (const std::string& cql : queries) {
    INFO(cql);
    const CliRun cli_answer = cli_run(dir, cql);
    const ProcessResult& cli = cli_answer.process;
    const std::string& expected = cli_answer.output;
    // the first page: its games are the first the command line writes, its total the command line's
    const Reply first = post(server, "/api/run", json{{"cql", cql}, {"limit", 13}});
    REQUIRE(first.status == 200);
    CHECK(match_line(cli.out) == std::to_string(first.body["matches"].get<uint64_t>()) + " matches of " +
                                     std::to_string(first.body["games"].get<uint64_t>()) + " games");
    REQUIRE(first.body["matches"].get<uint64_t>() > 26);
    REQUIRE(first.body["results"].size() == 13);
    std::string page;
    for (const json& g : first.body["results"]) {
      CHECK_FALSE(g["pgn"].get<std::string>().empty());
      CHECK_FALSE(g["tags"].empty());
      page += g["pgn"].get<std::string>();
    }
    CHECK(expected.compare(0, page.size(), page) == 0);
    // every page of 97, from every offset: the whole output byte for byte
    const ServedRun all = run_all_pages(server, cql, 97);
    REQUIRE(all.last.status == 200);
    CHECK(all.pgn == expected);
  }
}

TEST_CASE("serve: /api/game gives a game's bytes, moves and every mainline FEN, and /api/info the repository",
          "[serve][api]") {
  ScratchDir dir("serve-game");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  const Reply info = get(server, "/api/info");
  REQUIRE(info.status == 200);
  CHECK(info.body["games"] == 1005);
  CHECK(info.body["fresh"] == true);
  CHECK(info.body["limits"]["timeout_seconds"] == 10.0);

  // `cqlindex check --fen` lists every mainline position of every game: game 3's are the API's.
  const ProcessResult fens = cqlindex_in(dir.path(), "check --fen repository.pgn");
  REQUIRE(fens.exit_code == 0);
  const Reply game = get(server, "/api/game/3");
  REQUIRE(game.status == 200);
  CHECK(game.body["number"] == 3);
  REQUIRE(game.body["fens"].size() == game.body["moves"].size() + 1);
  REQUIRE(game.body["fens"].size() > 10);
  const std::string listing = "\n" + fens.out;  // GAME<TAB>PLY<TAB>FEN lines
  for (size_t ply = 0; ply < game.body["fens"].size(); ++ply)
    CHECK(listing.find("\n3\t" + std::to_string(ply) + "\t" + game.body["fens"][ply].get<std::string>() + "\n") !=
          std::string::npos);
  CHECK(game.body["fens"][0] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  // the PGN is the game's bytes in the file
  const std::string file = slurp(dir.path() / "repository.pgn");
  CHECK(file.find(game.body["pgn"].get<std::string>()) != std::string::npos);

  CHECK(get(server, "/api/game/0").status == 404);
  CHECK(get(server, "/api/game/1006").status == 404);
  CHECK(get(server, "/api/game/12x").status == 400);
  CHECK(get(server, "/api/game/1005").status == 200);
}

TEST_CASE("serve: /api/similar answers as cqlindex similar does, for PGN submissions and for a FEN",
          "[serve][api]") {
  ScratchDir dir("serve-similar");
  indexed_repository(dir, shared_data("studies/cql-sample.pgn"));
  const std::string submissions = slurp(shared_data("studies/lichess-beautiful-chess-studies-1.pgn")) +
                                  slurp(shared_data("studies/lichess-beautiful-chess-studies-2.pgn"));
  spit(dir.path() / "submissions.pgn", submissions);
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  for (bool sort : {true, false}) {
    INFO("sort " << sort);
    fs::remove(dir.path() / "out.pgn");
    const ProcessResult cli = cqlindex_in(dir.path(), std::string("similar submissions.pgn -i repository.pgn -o out.pgn") +
                                                          (sort ? "" : " --nosort"));
    REQUIRE(cli.exit_code == 0);
    const Reply served = post(server, "/api/similar", json{{"pgn", submissions}, {"sort", sort}});
    REQUIRE(served.status == 200);
    std::string pgn;
    for (const json& g : served.body["results"]) pgn += g["pgn"].get<std::string>();
    CHECK(pgn == slurp(dir.path() / "out.pgn"));
    CHECK(match_line(cli.out) == std::to_string(served.body["matches"].get<uint64_t>()) + " matches of " +
                                     std::to_string(served.body["games"].get<uint64_t>()) + " games");
    CHECK(served.body["matches"] == 3);  // the golden's count (tests/similar/similar_golden_test.cpp)
    CHECK(served.body["messages"][0] == "Db: read 103 games from submission file: submissions.pgn");
  }
  // A FEN of a repository game's position finds that game, as `cqlindex similar` does with it as a study.
  const Reply game = get(server, "/api/game/7");
  REQUIRE(game.status == 200);
  REQUIRE(game.body["fens"].size() > 20);
  const std::string fen = game.body["fens"][20].get<std::string>();
  const Reply served = post(server, "/api/similar", json{{"fen", fen}});
  REQUIRE(served.status == 200);
  // (the study in a file named as the server names it, which CQL's comments quote)
  fs::create_directories(dir.path() / "study");
  spit(dir.path() / "study" / "submissions.pgn", "[Event \"submission\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n*\n");
  const ProcessResult cli = cqlindex_in(dir.path() / "study", "similar submissions.pgn -i ../repository.pgn -o out.pgn");
  REQUIRE(cli.exit_code == 0);
  std::string pgn;
  bool found = false;
  for (const json& g : served.body["results"]) {
    pgn += g["pgn"].get<std::string>();
    found = found || g["number"] == 7;
  }
  CHECK(found);
  const std::string want = slurp(dir.path() / "study" / "out.pgn");
  CHECK(pgn == want);
}
