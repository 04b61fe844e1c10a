// A served run counts the matches past its page exactly, and reads a game there by its tags alone when they decide
// it (exec/repository_scan.h, read_by_tags): a query made only of tag tests (player, result...) with no matchcount
// or sort, a game whose movetext the index records clean. The count, the games and every line must be those of the
// full run, on games the short cut must leave to the replay: PGN errors and warnings, a bad FEN, a variant, and
// those it may take: FEN starts, no moves, no Result tag (the marker gives `result`), variations.
#include <catch2/catch.hpp>

#include <sstream>

#include "exec/run_query.h"
#include "exec/served_repository.h"
#include "serve/serve_support.h"

using namespace cqlindex;
using namespace cqlindex::test;

namespace {

// Kasparov's games of every kind a scan treats apart; repeated through the file so that many lie past a page.
const std::string kKinds =
    "[Event \"fen start\"]\n[White \"Kasparov, G\"]\n[Black \"X\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n"
    "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. O-O-O Kf7 2. Rd7+ Ke6 1-0\n\n"
    "[Event \"bad fen\"]\n[White \"Kasparov, G\"]\n[Black \"X\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n"
    "[FEN \"not a position\"]\n\n1. e4 1-0\n\n"
    "[Event \"illegal move\"]\n[White \"Kasparov, G\"]\n[Black \"X\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Kxh8 Nc6 1-0\n\n"
    "[Event \"no moves\"]\n[White \"Kasparov, G\"]\n[Black \"X\"]\n[Result \"*\"]\n\n*\n\n"
    "[Event \"fen start, no moves\"]\n[White \"X\"]\n[Black \"Kasparov, G\"]\n[Result \"0-1\"]\n[SetUp \"1\"]\n"
    "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 1\"]\n\n0-1\n\n"
    "[Event \"no result tag\"]\n[White \"Kasparov, G\"]\n[Black \"X\"]\n\n{1-0 is not the marker} 1. d4 d5 0-1\n\n"
    "[Event \"variant\"]\n[White \"Kasparov, G\"]\n[Black \"X\"]\n[Result \"1-0\"]\n[Variant \"atomic\"]\n\n1. e4 1-0\n\n"
    "[Event \"tag warning\"]\n[White \"Kasparov, G\"]\n[Black \"\"Deep\" Blue\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n"
    "[Event \"variations\"]\n[White \"Kasparov, G\"]\n[Black \"X\"]\n[Result \"1-0\"]\n\n"
    "1. e4 (1. d4 d5 (1... Nf6)) e5 2. Nf3 1-0\n\n"
    "[Event \"illegal in a variation\"]\n[White \"Kasparov, G\"]\n[Black \"X\"]\n[Result \"1/2-1/2\"]\n\n"
    "1. e4 (1. Ke3) e5 1/2-1/2\n\n";

// The sample's first 1,000 games with the kinds above after every 10th (1,000 Kasparov games of 10 kinds).
std::string mixed_repository() {
  std::string pgn;
  for (size_t first = 0; first < 1000; first += 10) pgn += sample_games(first, first + 10) + kKinds;
  return pgn;
}

// Queries the tags decide: the short cut applies past the page.
const std::vector<std::string> kDecidedByTags = {
    "cql() player \"Kasparov\"",
    "cql() result 1-0",
    "cql() result 0-1 or player \"Deep\"",
    "cql(variations quiet) player \"Kasparov\" and not result 0-1",
    "cql(gamenumber 50 2000) player \"Kasparov\"",
    "cql(result 1-0) player \"Kasparov\"",
};
// Queries they do not: the positions count (matchcount, sort matchcount) or are read (btm, check).
const std::vector<std::string> kNotDecidedByTags = {
    "cql(matchcount 2 100) player \"Kasparov\"",
    "cql(sort matchcount 1 100) player \"Kasparov\"",
    "cql() player \"Kasparov\" btm",
    "cql() player \"Kasparov\" or check",
};

// A served run of `cql` over `repository` whose caller reads the first `wanted` games.
struct Served {
  exec::RunSummary summary;
  std::vector<exec::OutputGame> games;
  std::string messages, diagnostics;
};
Served served_run(const exec::ServedRepository& repository, const std::string& cql, uint64_t wanted) {
  Served out;
  std::ostringstream messages, diagnostics;
  exec::MemoryRun memory;
  memory.text = cql;
  memory.indexes = repository.indexes();
  memory.messages = &messages;
  memory.diagnostics = &diagnostics;
  memory.games_wanted = wanted;
  memory.on_game = [&](exec::OutputGame&& g) {
    out.games.push_back(std::move(g));
    return true;
  };
  exec::RunSettings settings;
  settings.query_file = "query";
  settings.input = repository.files().front();
  settings.threads = 2;
  settings.memory = &memory;
  out.summary = exec::run_query(settings);
  out.messages = messages.str();
  out.diagnostics = diagnostics.str();
  return out;
}

}  // namespace

TEST_CASE("serve: the matches past a page counted by their tags equal the full run's", "[serve][api]") {
  ScratchDir dir("serve-past-page");
  spit(dir.path() / "source.pgn", mixed_repository());
  indexed_repository(dir, dir.path() / "source.pgn", false);
  std::ostringstream quiet;
  auto* old = std::cerr.rdbuf(quiet.rdbuf());
  auto repository = exec::ServedRepository::open((dir.path() / "repository.pgn").string(), "");
  std::cerr.rdbuf(old);
  REQUIRE(repository);

  auto check_query = [&](const std::string& cql, bool decided) {
    INFO(cql);
    const Served whole = served_run(*repository, cql, UINT64_MAX);
    REQUIRE(whole.summary.status == exec::Status::Ok);
    REQUIRE(whole.summary.matches > 100);
    CHECK(whole.summary.read_by_tags == 0);  // every match is written: none is only counted
    for (uint64_t wanted : {0, 1, 7}) {
      INFO("games wanted: " << wanted);
      const Served page = served_run(*repository, cql, wanted);
      REQUIRE(page.summary.status == exec::Status::Ok);
      CHECK(page.summary.matches == whole.summary.matches);
      CHECK(page.summary.games_reported == whole.summary.games_reported);
      CHECK(page.summary.games == whole.summary.games);
      CHECK(page.summary.unmatched == whole.summary.unmatched);
      CHECK(page.summary.ruled_out == whole.summary.ruled_out);
      CHECK(page.summary.unreadable == whole.summary.unreadable);
      CHECK(page.summary.with_errors == whole.summary.with_errors);
      CHECK(page.messages == whole.messages);
      CHECK(page.diagnostics == whole.diagnostics);  // the PGN problems of every game, in order
      REQUIRE(page.games.size() == whole.games.size());
      for (size_t i = 0; i < page.games.size(); ++i) {
        CHECK(page.games[i].number == whole.games[i].number);
        if (i < wanted) CHECK(page.games[i].pgn == whole.games[i].pgn);
      }
      // the short cut is taken where the tags decide, never elsewhere
      if (decided) CHECK(page.summary.read_by_tags > 100);
      else CHECK(page.summary.read_by_tags == 0);
    }
  };
  for (const std::string& cql : kDecidedByTags) check_query(cql, true);
  for (const std::string& cql : kNotDecidedByTags) check_query(cql, false);
}

TEST_CASE("serve: /api/run's first page counts its matches as cqlindex run does", "[serve][api]") {
  ScratchDir dir("serve-past-page-http");
  spit(dir.path() / "source.pgn", mixed_repository());
  indexed_repository(dir, dir.path() / "source.pgn", false);
  Server server(dir.path(), "repository.pgn", {"--threads", "2"});
  REQUIRE(server.port() > 0);
  std::vector<std::string> queries = kDecidedByTags;
  queries.insert(queries.end(), kNotDecidedByTags.begin(), kNotDecidedByTags.end());
  for (const std::string& cql : queries) {
    INFO(cql);
    const CliRun cli_answer = cli_run(dir, cql);
    const ProcessResult& cli = cli_answer.process;
    const std::string& expected = cli_answer.output;
    for (uint64_t limit : {1, 20}) {
      const Reply first = post(server, "/api/run", json{{"cql", cql}, {"limit", limit}});
      REQUIRE(first.status == 200);
      CHECK(match_line(cli.out) == std::to_string(first.body["matches"].get<uint64_t>()) + " matches of " +
                                       std::to_string(first.body["games"].get<uint64_t>()) + " games");
      std::string page;
      for (const json& g : first.body["results"]) page += g["pgn"].get<std::string>();
      REQUIRE(first.body["results"].size() == limit);
      CHECK(expected.compare(0, page.size(), page) == 0);
      // the PGN problems of every game, as the command line reports them
      std::string diagnostics;
      const std::string cli_stderr = stderr_of(dir.path());
      for (const json& d : first.body["diagnostics"]) {
        const std::string line = d.get<std::string>();
        diagnostics += line + "\n";
        if (line.front() != '(') CHECK(cli_stderr.find(line) != std::string::npos);  // not "(N more lines)"
      }
      CHECK(diagnostics.find("illegal move 'Kxh8'") != std::string::npos);
    }
  }
  CHECK(server.stop() == 0);
}
