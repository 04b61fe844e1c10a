// POST /api/yacpdb answers as `cqlindex yacpdb QUERY -i FILE` does: the matching entries byte for byte and the
// counts of its summary line, over a YACPDB problem file (--problems, with and without its index) and over the
// served repository itself; bad queries and bodies get a 400.
#include <catch2/catch.hpp>

#include <regex>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// The counts of `cqlindex yacpdb`'s summary line ("N matches of M entries in ..."), as "N/M".
std::string summary_counts(const std::string& text) {
  static const std::regex line("(\\d+) matches of (\\d+) entries");
  std::smatch m;
  if (!std::regex_search(text, m, line)) return "(no summary line)";
  return m[1].str() + "/" + m[2].str();
}

// Every page of the server's answer to `query` (`limit` entries a page): the entries' PGN concatenated.
struct ServedQuery {
  Reply last;
  std::string pgn;
  size_t pages = 0;
};
ServedQuery query_all_pages(const Server& server, const std::string& query, uint64_t limit) {
  ServedQuery out;
  for (uint64_t offset = 0;; offset += limit) {
    out.last = post(server, "/api/yacpdb", json{{"query", query}, {"offset", offset}, {"limit", limit}});
    ++out.pages;
    if (out.last.status != 200) break;
    for (const json& e : out.last.body["results"]) out.pgn += e["pgn"].get<std::string>();
    if (offset + limit >= out.last.body["matches"].get<uint64_t>()) break;
  }
  return out;
}

// Checks the server's answers to `queries` against `cqlindex yacpdb QUERY -i FILE` run in `dir`.
void check_against_command_line(const Server& server, const fs::path& dir, const std::string& file,
                                const std::vector<std::string>& queries, uint64_t limit = 3) {
  for (const std::string& q : queries) {
    INFO("query " << q);
    const ProcessResult cli = cqlindex_in(dir, "yacpdb " + shell_quote(q) + " -i " + file);
    REQUIRE(cli.exit_code == 0);
    const ServedQuery served = query_all_pages(server, q, limit);
    REQUIRE(served.last.status == 200);
    CHECK(served.pgn == cli.out);
    const json& body = served.last.body;
    CHECK(summary_counts(stderr_of(dir)) ==
          std::to_string(body["matches"].get<uint64_t>()) + "/" + std::to_string(body["entries"].get<uint64_t>()));
    CHECK(body["complete"] == true);
  }
}

}  // namespace

TEST_CASE("serve: /api/yacpdb answers as cqlindex yacpdb does over a problem file", "[serve][api]") {
  ScratchDir dir("serve-yacpdb");
  indexed_repository(dir, sample_pgn());
  fs::copy_file(shared_data("problems/yacpdb-olive/Broodings-50.olv"), dir.path() / "problems.olv");
  const std::vector<std::string> queries{"Zilahi(*) AND NOT Fairy", "Stip(\"h#2\")", "Fairy", "Id(1)",
                                         "Zilahi(*) OR Stip(\"#2\")"};
  SECTION("without its index: every entry evaluated") {
    Server server(dir.path(), "repository.pgn", {"--problems", "problems.olv"});
    REQUIRE(server.port() > 0);
    check_against_command_line(server, dir.path(), "problems.olv", queries);
    const Reply info = get(server, "/api/info");
    CHECK(info.body["problems"] == "problems.olv");
  }
  SECTION("with its index: the stored instances") {
    REQUIRE(cqlindex_in(dir.path(), "build problems.olv").exit_code == 0);
    Server server(dir.path(), "repository.pgn", {"--problems", "problems.olv"});
    REQUIRE(server.port() > 0);
    check_against_command_line(server, dir.path(), "problems.olv", queries);
  }
  SECTION("bad requests: a 400 with the query's column, never a crash") {
    Server server(dir.path(), "repository.pgn", {"--problems", "problems.olv"});
    REQUIRE(server.port() > 0);
    const Reply bad = post(server, "/api/yacpdb", json{{"query", "Stip(\"#2\") AND"}});
    CHECK(bad.status == 400);
    CHECK(bad.body["column"].get<int>() > 0);
    CHECK(post(server, "/api/yacpdb", json{{"cql", "Fairy"}}).status == 400);
    CHECK(post(server, "/api/yacpdb", std::string("{\"query\": ")).status == 400);
    CHECK(post(server, "/api/yacpdb", json{{"query", 3}}).status == 400);
    CHECK(post(server, "/api/yacpdb", json{{"query", "Fairy"}, {"limit", -1}}).status == 400);
  }
}

TEST_CASE("serve: /api/yacpdb over the served repository when no --problems is given", "[serve][api]") {
  ScratchDir dir("serve-yacpdb-repo");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  check_against_command_line(server, dir.path(), "repository.pgn", {"Stip(\"#2\")", "NOT Fairy"}, 400);
  CHECK(get(server, "/api/info").body["problems"] == "repository.pgn");
}

TEST_CASE("serve: a missing --problems file stops the server at its start", "[serve][safety]") {
  ScratchDir dir("serve-yacpdb-missing");
  indexed_repository(dir, sample_pgn());
  const ProcessResult r = cqlindex_in(dir.path(), "serve repository.pgn --port 0 --problems nothing.olv");
  CHECK(r.exit_code == 2);
  CHECK(stderr_of(dir.path()).find("nothing.olv") != std::string::npos);
}
