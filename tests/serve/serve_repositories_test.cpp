// `cqlindex serve` with several repositories at once (issue 19: `serve REPO.pgn [REPO2 ...]`), each a PGN file
// or a .cqlrepo list, served under its file name without the extension: every call answers for the one its
// request names (default: the first) exactly as the command line answers with `-i THAT`, game numbers are the
// repository's own, a list of 3 files answers as their concatenation, /api/info lists them all, an unknown
// name is a 400, and what cannot be served is said, naming the file, before the server listens.
#include <catch2/catch.hpp>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// The games of the sample in the split repository: [kFirst, kEnd), cut into three files at kCuts.
constexpr size_t kFirst = 200, kEnd = 900;
constexpr size_t kCuts[] = {430, 650};

// A scratch folder serving three repositories: `sample.pgn` (the 1,005 games), `split.cqlrepo` (games 201-900 of
// the sample in split/part1-3.pgn) and `middle.pgn` (the same games in one file, the parts' concatenation),
// each file indexed with the explore family.
void three_repositories(const ScratchDir& dir) {
  fs::copy_file(sample_pgn(), dir.path() / "sample.pgn");
  fs::create_directories(dir.path() / "split");
  spit(dir.path() / "split" / "part1.pgn", sample_games(kFirst, kCuts[0]));
  spit(dir.path() / "split" / "part2.pgn", sample_games(kCuts[0], kCuts[1]));
  spit(dir.path() / "split" / "part3.pgn", sample_games(kCuts[1], kEnd));
  spit(dir.path() / "split.cqlrepo", "# games 201-900 of the sample\nsplit/part1.pgn\nsplit/part2.pgn\nsplit/part3.pgn\n");
  spit(dir.path() / "middle.pgn", sample_games(kFirst, kEnd));
  const ProcessResult built = cqlindex_in(
      dir.path(), "build --explore sample.pgn middle.pgn split/part1.pgn split/part2.pgn split/part3.pgn");
  if (built.exit_code != 0) throw std::runtime_error("cqlindex build failed: " + stderr_of(dir.path()));
}

const std::vector<std::string> kServed = {"sample.pgn", "split.cqlrepo", "middle.pgn"};

// GET `path` with ?repo=`repo`.
Reply get_from(const Server& server, const std::string& path, const std::string& repo, httplib::Params params = {}) {
  auto client = server.client();
  params.emplace("repo", repo);
  return as_reply(client.Get(path.c_str(), params, httplib::Headers{}));
}

}  // namespace

TEST_CASE("serve: several repositories, /api/run on each as cqlindex run -i THAT", "[serve][api][repositories]") {
  ScratchDir dir("serve-repositories-run");
  three_repositories(dir);
  Server server(dir.path(), kServed, {"--threads", "2"});
  REQUIRE(server.port() > 0);
  // narrowed by the index, replaying every game, sorted, setting tags, a game-number range (across the split
  // files' boundaries), persistent variables
  const std::vector<std::string> queries = {
      "cql() player \"Karpov\" or player \"Kasparov\" or result 1-0",
      "cql() check",
      "cql() sort \"Moves\" movenumber",
      "cql() check settag(\"Checked\" \"yes\")",
      "cql(gamenumber 220 470) mate or stalemate or check",
      "cql()\nif initial {\n  persistent Games += 1\n  if Games == 150 or Games == 650 {message (\"game \" Games)}\n}"
      "\ncheck\n",
  };
  for (const std::string& cql : queries) {
    spit(dir.path() / "q.cql", cql);
    std::string split_pgn;
    for (const std::string& repo : kServed) {
      const std::string name = repo.substr(0, repo.find('.'));
      INFO(cql << "\nrepository " << repo);
      fs::remove(dir.path() / "out.pgn");
      const ProcessResult cli = cqlindex_in(dir.path(), "run -i " + repo + " -o out.pgn q.cql");
      REQUIRE(cli.exit_code == 0);
      const ServedRun served = run_all_pages(server, cql, 97, name);
      INFO("server: " << served.last.body.dump().substr(0, 1000));
      REQUIRE(served.last.status == 200);
      CHECK(served.pgn == slurp(dir.path() / "out.pgn"));
      size_t line_begin = 0;
      const std::string line = match_line(cli.out, &line_begin);
      std::string messages;  // what the command line printed before its match line
      for (const json& m : served.last.body["messages"]) messages += m.get<std::string>() + "\n";
      CHECK(messages == cli.out.substr(0, line_begin));
      CHECK(line == std::to_string(served.last.body["matches"].get<uint64_t>()) + " matches of " +
                                       std::to_string(served.last.body["games"].get<uint64_t>()) + " games");
      CHECK_FALSE(served.numbers.empty());  // the comparison is not of empty answers
      if (name == "split") split_pgn = served.pgn;
      if (name == "middle") CHECK(served.pgn == split_pgn);  // a list of 3 files answers as their concatenation
    }
  }
  // without "repo": the first repository
  const Reply plain = post(server, "/api/run", json{{"cql", "cql() check"}, {"limit", 1}});
  const Reply first = post(server, "/api/run", json{{"cql", "cql() check"}, {"limit", 1}, {"repo", "sample"}});
  REQUIRE(plain.status == 200);
  REQUIRE(first.status == 200);
  CHECK(plain.body["results"] == first.body["results"]);
  CHECK(plain.body["games"] == 1005);
  CHECK(server.stop() == 0);
}

TEST_CASE("serve: several repositories, /api/info lists them, games and studies per repository",
          "[serve][api][repositories]") {
  ScratchDir dir("serve-repositories-info");
  three_repositories(dir);
  Server server(dir.path(), kServed, {});
  REQUIRE(server.port() > 0);

  const Reply info = get(server, "/api/info");
  REQUIRE(info.status == 200);
  const json& all = info.body["repositories"];
  REQUIRE(all.size() == 3);
  CHECK(all[0]["name"] == "sample");
  CHECK(all[0]["games"] == 1005);
  CHECK(all[0]["files"].size() == 1);
  CHECK(all[1]["name"] == "split");
  CHECK(all[1]["repository"] == "split.cqlrepo");
  CHECK(all[1]["games"] == kEnd - kFirst);
  REQUIRE(all[1]["files"].size() == 3);
  CHECK(all[1]["files"][1]["file"] == "split/part2.pgn");
  CHECK(all[1]["files"][1]["games"] == kCuts[1] - kCuts[0]);
  CHECK(all[1]["fresh"] == true);
  CHECK(all[2]["name"] == "middle");
  CHECK(info.body["name"] == "sample");  // the default's facts at the top
  CHECK(info.body["games"] == 1005);
  const Reply split_info = get_from(server, "/api/info", "split");
  REQUIRE(split_info.status == 200);
  CHECK(split_info.body["name"] == "split");
  CHECK(split_info.body["games"] == kEnd - kFirst);
  CHECK(split_info.body["repositories"] == all);

  // Game N of a repository is its own N-th game: split's game 250 (in part2) is the sample's game 450.
  for (uint64_t n : {1, 230, 231, 250, 700}) {
    INFO("game " << n);
    const Reply split = get_from(server, "/api/game/" + std::to_string(n), "split");
    const Reply middle = get_from(server, "/api/game/" + std::to_string(n), "middle");
    const Reply sample = get(server, "/api/game/" + std::to_string(n + kFirst));
    REQUIRE(split.status == 200);
    CHECK(split.body["number"] == n);
    CHECK(split.body["pgn"] == sample.body["pgn"]);
    CHECK(split.body["fens"] == sample.body["fens"]);
    CHECK(split.body == middle.body);
  }
  CHECK(get_from(server, "/api/game/701", "split").status == 404);
  CHECK(get_from(server, "/api/game/701", "sample").status == 200);

  // The explorer, from the families and by a replay, counts the list's games as their concatenation's.
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const Reply deep_game = get(server, "/api/game/" + std::to_string(kFirst + 3));
  REQUIRE(deep_game.body["fens"].size() > 30);
  for (const std::string& fen : {start, deep_game.body["fens"][6].get<std::string>(),
                                 deep_game.body["fens"][30].get<std::string>()}) {
    INFO(fen);
    const Reply split = get_from(server, "/api/explore", "split", {{"fen", fen}});
    const Reply middle = get_from(server, "/api/explore", "middle", {{"fen", fen}});
    REQUIRE(split.status == 200);
    CHECK(split.body == middle.body);
    CHECK(split.body["results"]["games"].get<uint64_t>() >= 1);
  }
  CHECK(get_from(server, "/api/explore", "split", {{"fen", start}}).body["results"]["games"] == kEnd - kFirst);
  CHECK(get(server, "/api/explore?fen=" + std::string("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201"))
            .body["results"]["games"] == 1005);

  // The YACPDB tab without --problems: the chosen repository's files, as `cqlindex yacpdb Q -i THAT` reads them.
  for (const std::string& repo : {std::string("split.cqlrepo"), std::string("middle.pgn")}) {
    INFO("yacpdb over " << repo);
    const ProcessResult cli = cqlindex_in(dir.path(), "yacpdb 'NOT Fairy' -i " + repo);
    REQUIRE(cli.exit_code == 0);
    const Reply served =
        post(server, "/api/yacpdb", json{{"query", "NOT Fairy"}, {"repo", repo.substr(0, repo.find('.'))}, {"limit", 1000}});
    REQUIRE(served.status == 200);
    std::string pgn;
    for (const json& e : served.body["results"]) pgn += e["pgn"].get<std::string>();
    CHECK(pgn == cli.out);
    CHECK(served.body["matches"].get<uint64_t>() > 0);  // the comparison is not of empty answers
    CHECK(served.body["entries"] == kEnd - kFirst);
    CHECK(served.body["file"] == repo);
  }

  // A study: each repository's predecessors, as `cqlindex similar -i THAT` finds them.
  const std::string fen = deep_game.body["fens"][24].get<std::string>();
  spit(dir.path() / "submissions.pgn", "[Event \"submission\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n*\n");
  for (const std::string& repo : kServed) {
    const std::string name = repo.substr(0, repo.find('.'));
    INFO("similar over " << repo);
    fs::remove(dir.path() / "out.pgn");
    const ProcessResult cli = cqlindex_in(dir.path(), "similar submissions.pgn -i " + repo + " -o out.pgn");
    REQUIRE(cli.exit_code == 0);
    const Reply served = post(server, "/api/similar", json{{"fen", fen}, {"repo", name}, {"limit", 1000}});
    REQUIRE(served.status == 200);
    std::string pgn;
    for (const json& g : served.body["results"]) pgn += g["pgn"].get<std::string>();
    CHECK(pgn == slurp(dir.path() / "out.pgn"));
    CHECK(served.body["matches"].get<uint64_t>() >= 1);
    CHECK(match_line(cli.out) == std::to_string(served.body["matches"].get<uint64_t>()) + " matches of " +
                                     std::to_string(served.body["games"].get<uint64_t>()) + " games");
  }
}

TEST_CASE("serve: an unknown repository is a 400 naming those served", "[serve][api][repositories]") {
  ScratchDir dir("serve-repositories-unknown");
  three_repositories(dir);
  Server server(dir.path(), kServed, {});
  REQUIRE(server.port() > 0);
  const std::string known = "sample, split, middle";
  auto refused = [&](const Reply& r) {
    CHECK(r.status == 400);
    const std::string error = r.body.value("error", "");
    CHECK(error.find("'nothing'") != std::string::npos);
    CHECK(error.find(known) != std::string::npos);
  };
  refused(post(server, "/api/run", json{{"cql", "cql() check"}, {"repo", "nothing"}}));
  refused(post(server, "/api/similar", json{{"fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"}, {"repo", "nothing"}}));
  refused(post(server, "/api/yacpdb", json{{"query", "Stip(\"#2\")"}, {"repo", "nothing"}}));
  refused(get(server, "/api/info?repo=nothing"));
  refused(get(server, "/api/game/1?repo=nothing"));
  refused(get(server, "/api/explore?repo=nothing&fen=8/8/8/8/8/8/8/K1k5%20w%20-%20-%200%201"));
  const Reply not_a_name = post(server, "/api/run", json{{"cql", "cql() check"}, {"repo", 2}});
  CHECK(not_a_name.status == 400);
  CHECK(not_a_name.body["error"] == "\"repo\" must be a string");
  // a file of one repository changed under the server: that repository refuses (naming the file), not the others
  {
    std::ofstream(dir.path() / "split" / "part3.pgn", std::ios::app) << "\n[Event \"new\"]\n\n1. e4 *\n";
  }
  const Reply stale = post(server, "/api/run", json{{"cql", "cql() check"}, {"repo", "split"}});
  CHECK(stale.status == 503);
  CHECK(stale.body["error"].get<std::string>().find("part3.pgn") != std::string::npos);
  CHECK(post(server, "/api/run", json{{"cql", "cql() check"}, {"repo", "middle"}}).status == 200);
}

TEST_CASE("serve: what cannot be served is said before the server listens", "[serve][repositories]") {
  ScratchDir dir("serve-repositories-refused");
  three_repositories(dir);
  // a second repository without an index, one of the list's files changed, a name twice, --index with two
  spit(dir.path() / "bare.pgn", sample_games(0, 10));
  fs::create_directories(dir.path() / "other");
  fs::copy_file(dir.path() / "middle.pgn", dir.path() / "other" / "middle.pgn");
  struct Case {
    std::string args;
    int exit_code;
    std::string said;
  };
  const std::vector<Case> cases = {
      {"serve sample.pgn bare.pgn --port 0", 2, "bare.pgn is not indexed"},
      {"serve sample.pgn missing.cqlrepo --port 0", 2, "missing.cqlrepo"},
      {"serve sample.pgn missing.pgn --port 0", 2, "cannot read the repository file missing.pgn: No such file"},
      {"serve middle.pgn other/middle.pgn --port 0", 1, "both be served as 'middle'"},
      {"serve sample.pgn middle.pgn --index sample.pgn.cqlidx --port 0", 1, "--index"},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    const ProcessResult r = cqlindex_in(dir.path(), c.args);
    CHECK(r.exit_code == c.exit_code);
    CHECK(r.out.empty());  // no port: it never listened
    CHECK(stderr_of(dir.path()).find(c.said) != std::string::npos);
  }
  {
    std::ofstream(dir.path() / "split" / "part2.pgn", std::ios::app) << "\n[Event \"new\"]\n\n1. e4 *\n";
  }
  const ProcessResult stale = cqlindex_in(dir.path(), "serve sample.pgn split.cqlrepo --port 0");
  CHECK(stale.exit_code == 2);
  CHECK(stale.out.empty());
  CHECK(stderr_of(dir.path()).find("part2.pgn") != std::string::npos);
}
