// `cqlindex serve` is safe by default: loopback only; queries that read or write files refused; malformed JSON,
// bad CQL (at its line and column) and bad FEN answered 400; bodies over 1 MB 413; a query over the time limit
// stopped and its worker freed; a result cap; a slow query does not hold up the others; a changed repository
// refused, never answered from a stale index.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// A query whose evaluation takes seconds on the sample: echo compares every pair of positions of a game.
const std::string kSlowQuery =
    "cql()\n"
    "echo (source target) {\n"
    "  sidetomove == source:sidetomove\n"
    "  #A == source:#A\n"
    "  #a == source:#a\n"
    "}\n";

}  // namespace

TEST_CASE("serve: binds to loopback by default and refuses what it must", "[serve][safety]") {
  ScratchDir dir("serve-refuse");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  CHECK(server.stderr_text().find("http://127.0.0.1:" + std::to_string(server.port()) + "/") != std::string::npos);

  SECTION("queries that write or read files, at their line and column") {
    Reply r = post(server, "/api/run", json{{"cql", "cql()\ncheck\n  writefile (\"/tmp/x.txt\" \"hello\")\n"}});
    CHECK(r.status == 400);
    CHECK(r.body["line"] == 3);
    CHECK(r.body["column"] == 3);
    CHECK(r.body["error"].get<std::string>().find("writefile writes a file") != std::string::npos);
    r = post(server, "/api/run", json{{"cql", "cql() readfile \"/etc/passwd\" == \"\""}});
    CHECK(r.status == 400);
    CHECK(r.body["error"].get<std::string>().find("readfile reads a file") != std::string::npos);
    r = post(server, "/api/run", json{{"cql", "cql() similarposition \"repository.pgn\""}});
    CHECK(r.status == 400);
    CHECK(r.body["error"].get<std::string>().find("/api/similar") != std::string::npos);
    CHECK(!fs::exists("/tmp/x.txt"));
  }
  SECTION("bad CQL: 400 with CQL's message at line:column") {
    Reply r = post(server, "/api/run", json{{"cql", "cql()\ncheck and\n  (frobnicate 3\n"}});
    CHECK(r.status == 400);
    CHECK(r.body["line"].get<int>() >= 2);
    CHECK(r.body["column"].get<int>() >= 1);
    CHECK(!r.body["error"].get<std::string>().empty());
    r = post(server, "/api/run", json{{"cql", ""}});
    CHECK(r.status == 400);
  }
  SECTION("malformed JSON and wrong fields: 400 with a message") {
    for (const std::string body : {"{", "[1,2]", "\"cql\"", "{\"cql\": 3}", "{}", "{\"cql\": \"check\", \"limit\": -1}",
                                   "{\"cql\": \"check\", \"limit\": 100000}", "{\"cql\": \"check\", \"offset\": \"2\"}"}) {
      INFO(body);
      const Reply r = post(server, "/api/run", body);
      CHECK(r.status == 400);
      CHECK(r.body.is_object());
      CHECK(!r.body["error"].get<std::string>().empty());
    }
    CHECK(post(server, "/api/run", std::string("{\"cql\": \"\xff\xfe\"}")).status == 400);
  }
  SECTION("bad FEN, or neither or both of fen and pgn: 400") {
    Reply r = post(server, "/api/similar", json{{"fen", "rnbqkbnr/pppppppp/8/8 w"}});
    CHECK(r.status == 400);
    CHECK(r.body["error"].get<std::string>().find("bad FEN") != std::string::npos);
    CHECK(post(server, "/api/similar", json{{"fen", "8/8/8/8/8/8/8/8 w - - 0 1"}}).status == 400);  // no kings
    CHECK(post(server, "/api/similar", json::object()).status == 400);
    CHECK(post(server, "/api/similar", json{{"fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"}, {"pgn", "*"}}).status == 400);
    r = post(server, "/api/similar", json{{"pgn", ""}});  // no game: as `similar` refuses an empty file
    CHECK(r.status == 400);
    CHECK(r.body["diagnostics"].dump().find("unable to read any games") != std::string::npos);
  }
  SECTION("bodies over 1 MB: 413") {
    const Reply r = post(server, "/api/run", json{{"cql", "cql() check //" + std::string(1100000, 'x')}});
    CHECK(r.status == 413);
    CHECK(r.body["error"].get<std::string>().find("larger") != std::string::npos);
    CHECK(get(server, "/api/info").status == 200);
  }
  SECTION("a request a browser marks as coming from another site's page: 403") {
    auto client = server.client();
    auto r = client.Post("/api/run", httplib::Headers{{"Origin", "http://evil.example"}}, "{\"cql\": \"cql() mate\"}",
                         "application/json");
    REQUIRE(r);
    CHECK(r->status == 403);
    auto own = client.Post("/api/run",
                           httplib::Headers{{"Origin", "http://127.0.0.1:" + std::to_string(server.port())}},
                           "{\"cql\": \"cql() mate\"}", "application/json");
    REQUIRE(own);
    CHECK(own->status == 200);
    // a DNS name rebound to 127.0.0.1: the browser sends its own name as the host
    auto rebound = client.Get("/api/info", httplib::Headers{{"Host", "evil.example:" + std::to_string(server.port())}});
    REQUIRE(rebound);
    CHECK(rebound->status == 403);
  }
  SECTION("unknown paths: 404 in JSON") {
    const Reply r = get(server, "/api/nothing");
    CHECK(r.status == 404);
    CHECK(r.body.is_object());
  }
}

TEST_CASE("serve: a query over the time limit is stopped and its worker freed", "[serve][safety]") {
  ScratchDir dir("serve-timeout");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--timeout", "0.3", "--workers", "1"});
  REQUIRE(server.port() > 0);
  const Reply slow = post(server, "/api/run", json{{"cql", kSlowQuery}});
  CHECK(slow.status == 503);
  CHECK(slow.body["error"].get<std::string>().find("limit of 0.3 s") != std::string::npos);
  // the one worker is free again: the next requests are answered
  CHECK(get(server, "/api/info").status == 200);
  const Reply fast = post(server, "/api/run", json{{"cql", "cql() mate"}});
  CHECK(fast.status == 200);
  CHECK(fast.body["matches"].get<uint64_t>() > 0);
}

TEST_CASE("serve: a slow query does not hold up the others", "[serve][safety]") {
  ScratchDir dir("serve-parallel");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--timeout", "20"});
  REQUIRE(server.port() > 0);
  std::atomic<bool> slow_done{false};
  Reply slow;
  std::thread slow_client([&] {
    slow = post(server, "/api/run", json{{"cql", kSlowQuery}});
    slow_done = true;
  });
  // Wait until the slow query is under way (the first request on its connection), then ask others.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<std::thread> clients;
  std::atomic<int> answered{0}, answered_while_slow{0};
  for (int i = 0; i < 6; ++i)
    clients.emplace_back([&, i] {
      const Reply r = i % 2 ? get(server, "/api/game/" + std::to_string(i + 1))
                            : post(server, "/api/run", json{{"cql", "cql() mate"}});
      if (r.status == 200) ++answered;
      if (r.status == 200 && !slow_done) ++answered_while_slow;
    });
  for (std::thread& t : clients) t.join();
  CHECK(answered == 6);
  CHECK(answered_while_slow == 6);  // served in parallel with the slow query, not after it
  slow_client.join();
  CHECK((slow.status == 200 || slow.status == 503));
}

TEST_CASE("serve: a result cap stops a run, and says so", "[serve][safety]") {
  ScratchDir dir("serve-cap");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--max-results", "5"});
  REQUIRE(server.port() > 0);
  const Reply r = post(server, "/api/run", json{{"cql", "cql() check"}});
  REQUIRE(r.status == 200);
  CHECK(r.body["matches"] == 5);
  CHECK(r.body["complete"] == false);
  CHECK(r.body["results"].size() == 5);
}

TEST_CASE("serve: a repository changed under the server is refused, not answered from its index",
          "[serve][safety]") {
  ScratchDir dir("serve-stale");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  REQUIRE(post(server, "/api/run", json{{"cql", "cql() mate"}}).status == 200);
  {
    std::ofstream grow(dir.path() / "repository.pgn", std::ios::app | std::ios::binary);
    grow << "\n[Event \"added\"]\n\n1. e4 e5 *\n";
  }
  const Reply r = post(server, "/api/run", json{{"cql", "cql() mate"}});
  CHECK(r.status == 503);
  CHECK(r.body["error"].get<std::string>().find("restart") != std::string::npos);
  CHECK(get(server, "/api/game/1").status == 503);
}

TEST_CASE("serve: refuses to start without a fresh index", "[serve][safety]") {
  ScratchDir dir("serve-noindex");
  fs::copy_file(sample_pgn(), dir.path() / "repository.pgn");
  const ProcessResult r = cqlindex_in(dir.path(), "serve repository.pgn --port 0");
  CHECK(r.exit_code == 2);
  CHECK(stderr_of(dir.path()).find("cqlindex build repository.pgn") != std::string::npos);
  CHECK(cqlindex_in(dir.path(), "serve repository.pgn --port 70000").exit_code == 1);
  CHECK(cqlindex_in(dir.path(), "serve repository.pgn --timeout 0").exit_code == 1);
}

TEST_CASE("serve: the server runs without malloc's per-thread caches", "[serve][memory]") {
  // Flat memory over thousands of requests (serve/flat_memory.h; measured by scripts/bench-serve): the tunable
  // must reach the server's environment, which glibc reads when the program starts. (A caller's own tunables are
  // kept before it; glibc rewrites the variable in place as it parses it, so /proc shows only the first of them.)
  ScratchDir dir("serve-tunables");
  indexed_repository(dir, sample_pgn());
  const char* caller = std::getenv("GLIBC_TUNABLES");
  const std::string saved = caller ? caller : "";
  ::unsetenv("GLIBC_TUNABLES");
  Server server(dir.path(), "repository.pgn");
  if (caller) ::setenv("GLIBC_TUNABLES", saved.c_str(), 1);
  REQUIRE(server.port() > 0);
  std::string environment = "\n" + slurp(fs::path("/proc") / std::to_string(server.pid()) / "environ");
  std::replace(environment.begin(), environment.end(), '\0', '\n');
  CHECK(environment.find("\nGLIBC_TUNABLES=glibc.malloc.tcache_count=0\n") != std::string::npos);
  CHECK(get(server, "/api/info").status == 200);
}
