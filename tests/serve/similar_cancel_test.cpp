// A served similar search stops inside its replay of the candidates when its caller cancels it or its time
// limit passes (exec::search_with_index with a MemoryRun), not only once it writes the matched games: a timeout
// frees the worker after at most one candidate's replay. So does its near search (exec::search_near_with_index).
#include <catch2/catch.hpp>

#include "engine/cql/similar/submission_db.h"
#include "exec/near_search.h"
#include "exec/served_repository.h"
#include "exec/similar_search.h"
#include "serve/serve_support.h"

using namespace cqlindex;
using namespace cqlindex::test;

namespace {

// The first `games` games of the sample, as submissions (each position is in the repository: many candidates).
std::string first_games(size_t games) {
  const std::string all = slurp(sample_pgn());
  size_t at = 0;
  for (size_t g = 0; g <= games && at != std::string::npos; ++g) at = all.find("[Event ", at + 1);
  return all.substr(0, at == std::string::npos ? all.size() : at);
}

// The outcome of a search of the submissions `text` over `repository` under `memory`'s limits.
struct Searched {
  bool finished = false;
  std::string error;
  exec::SimilarSearch found;
};

Searched search(const exec::ServedRepository& repository, const std::string& text, const exec::MemoryRun& memory) {
  exec::SubmissionKeys keys;
  std::vector<pgn::PgnError> problems;
  auto db = cql::similar::SubmissionDb::read(text, "submissions.pgn", {}, &problems, keys.visitor());
  std::string error;
  auto reader = pgn::RangeReader::open(repository.files()[0], &error);
  REQUIRE(reader);
  Searched out;
  out.finished = exec::search_with_index(repository.index(0), db, keys, *reader, repository.files()[0], -1, 2, out.found,
                                         &out.error, {}, &memory);
  return out;
}

}  // namespace

TEST_CASE("serve: a similar search is cancelled inside its replay of the candidates", "[serve][safety]") {
  ScratchDir dir("serve-similar-cancel");
  indexed_repository(dir, sample_pgn());
  const std::string repo = (dir.path() / "repository.pgn").string();
  std::ostringstream quiet;
  auto* old = std::cerr.rdbuf(quiet.rdbuf());  // the search's line about its candidates
  auto repository = exec::ServedRepository::open(repo, "");
  std::cerr.rdbuf(old);
  REQUIRE(repository);
  const std::string submissions = first_games(20);

  exec::MemoryRun free_run;
  old = std::cerr.rdbuf(quiet.rdbuf());
  const Searched whole = search(*repository, submissions, free_run);
  std::cerr.rdbuf(old);
  REQUIRE(whole.finished);
  CHECK(whole.found.matched.size() >= 20);  // each submission is a game of the repository

  SECTION("the caller's flag stops it before any candidate is replayed") {
    std::atomic<bool> stop{true};
    exec::MemoryRun cancelled;
    cancelled.cancel = &stop;
    old = std::cerr.rdbuf(quiet.rdbuf());
    const Searched r = search(*repository, submissions, cancelled);
    std::cerr.rdbuf(old);
    CHECK_FALSE(r.finished);
    CHECK(r.error == "stopped: the search was cancelled");
    CHECK(r.found.matched.empty());
  }
  SECTION("so does a time limit already past") {
    exec::MemoryRun late;
    late.deadline = std::chrono::steady_clock::now();
    old = std::cerr.rdbuf(quiet.rdbuf());
    const Searched r = search(*repository, submissions, late);
    std::cerr.rdbuf(old);
    CHECK_FALSE(r.finished);
    CHECK(r.error == "stopped: the search was cancelled");
    CHECK(r.found.matched.empty());
  }
}

TEST_CASE("serve: a near search is cancelled before its replay of the candidates", "[serve][safety][near]") {
  ScratchDir dir("serve-near-cancel");
  indexed_repository(dir, sample_pgn());
  const std::string repo = (dir.path() / "repository.pgn").string();
  std::ostringstream quiet;
  auto* old = std::cerr.rdbuf(quiet.rdbuf());
  auto repository = exec::ServedRepository::open(repo, "");
  std::cerr.rdbuf(old);
  REQUIRE(repository);
  std::vector<pgn::PgnError> problems;
  const auto db = cql::similar::SubmissionDb::read(first_games(5), "submissions.pgn", {.keep_positions = true},
                                                   &problems);
  std::string error;
  auto reader = pgn::RangeReader::open(repo, &error);
  REQUIRE(reader);
  auto near = [&](const exec::MemoryRun& memory, std::string& why) {
    exec::NearSearch found;
    const bool finished = exec::search_near_with_index(repository->index(0), db, 1, *reader, 2, found, &why, &memory);
    return std::make_pair(finished, found.games.size());
  };
  std::string why;
  const auto [finished, games] = near(exec::MemoryRun{}, why);
  REQUIRE(finished);
  CHECK(games >= 5);  // each submission is a game of the repository
  exec::MemoryRun late;
  late.deadline = std::chrono::steady_clock::now();
  const auto [stopped, none] = near(late, why);
  CHECK_FALSE(stopped);
  CHECK(why == "stopped: the search was cancelled");
  CHECK(none == 0);
}

TEST_CASE("serve: /api/similar past its time limit answers 503 and frees its worker", "[serve][safety]") {
  ScratchDir dir("serve-similar-timeout");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--timeout", "0.01", "--workers", "1"});
  REQUIRE(server.port() > 0);
  const Reply slow = post(server, "/api/similar", json{{"pgn", first_games(200)}});
  CHECK(slow.status == 503);
  CHECK(slow.body["error"].get<std::string>().find("limit of 0.01 s") != std::string::npos);
  CHECK(get(server, "/api/info").status == 200);  // the one worker is free again
}
