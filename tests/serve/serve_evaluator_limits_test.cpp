// `cqlindex serve` survives the queries that crashed or held its evaluator: an integer overflow (SIGFPE), an
// exponential regular expression, and loops inside one game's evaluation that outlast the time limit (the limit
// was checked only between games). Each is answered 400 (a query error) or 503 (stopped), and the server goes on.
#include <catch2/catch.hpp>

#include <string>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

bool says(const Reply& r, const std::string& part) {
  return r.body.is_object() && r.body.contains("error") &&
         r.body["error"].get<std::string>().find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("serve: an overflow or a too costly regular expression is a 400, and the server goes on",
          "[serve][safety][evaluator]") {
  ScratchDir dir("serve-eval-errors");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--workers", "1"});
  REQUIRE(server.port() > 0);
  const Reply overflow =
      post(server, "/api/run", json{{"cql", "cql() initial va = 65536 * 32767 vb = va * va * 2 vc = vb / -1"}});
  INFO(overflow.body.dump());
  CHECK(overflow.status == 400);
  CHECK(says(overflow, "integer overflow"));
  const Reply regex = post(
      server, "/api/run",
      json{{"cql", "cql() initial s = \"" + std::string(40, 'a') + "b\" s ~~ \"^(a|aa)+$\""}});
  INFO(regex.body.dump());
  CHECK(regex.status == 400);
  CHECK(says(regex, "the regular expression needs more work than a match may take"));
  const Reply fine = post(server, "/api/run", json{{"cql", "cql() mate"}});
  CHECK(fine.status == 200);
}

TEST_CASE("serve: the time limit stops a query inside a game's evaluation", "[serve][safety][evaluator]") {
  ScratchDir dir("serve-eval-timeout");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--timeout", "1", "--workers", "1"});
  REQUIRE(server.port() > 0);
  // each would take hours on the first game alone
  const std::string nested_while =
      "cql() initial x = 0 while (x < 1000000) { x += 1 y = 0 while (y < 1000000) y += 1 }";
  const std::string nested_echo =
      "cql() initial echo (s1 t1) echo (s2 t2) echo (s3 t3) echo (s4 t4) echo (s5 t5) false";
  for (const std::string& cql : {nested_while, nested_echo}) {
    const Reply slow = post(server, "/api/run", json{{"cql", cql}});
    INFO(cql << "\n" << slow.body.dump());
    CHECK(slow.status == 503);
    CHECK(says(slow, "limit of 1 s"));
  }
  // the one worker is free again
  const Reply fine = post(server, "/api/run", json{{"cql", "cql() mate"}});
  CHECK(fine.status == 200);
}
