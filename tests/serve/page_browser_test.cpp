// The page of `cqlindex serve` as a person uses it, in headless Chromium (Debian's `chromium`) driven by
// puppeteer-core (npm, installed by scripts/oracle-setup): a bad query shows its line and column, a query shows
// its N results (the API's), a result opens on the board at its first matched position and steps on, the
// explorer shows the moves played from the board and a click walks on, a pasted study shows its predecessor, a
// YACPDB query lists the problem file's entries and one opens on the board, another repository chosen in the
// selector answers the query with its own results and stays chosen when the page is loaded again from its URL;
// nothing is fetched from anywhere but the server. Skipped, saying why, only when
// chromium or puppeteer-core is missing.
#include <catch2/catch.hpp>

#include <algorithm>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// The chromium executable, or "" when it is not installed.
std::string chromium() {
  ProcessResult r = run_process("command -v chromium 2>/dev/null");
  std::string path = r.out.substr(0, r.out.find('\n'));
  return r.exit_code == 0 ? path : std::string();
}

const fs::path kPuppeteer = fs::path(CQLINDEX_SOURCE_DIR) / "tests" / "oracle" / "node_modules" / "puppeteer-core";

}  // namespace

TEST_CASE("serve: the page, driven in headless Chromium", "[serve][browser]") {
  const std::string browser = chromium();
  if (browser.empty() || !fs::exists(kPuppeteer)) {
    WARN("skipped: " << (browser.empty() ? "chromium is not installed (scripts/setup installs it)"
                                         : "puppeteer-core is not installed (scripts/oracle-setup installs it)"));
    return;
  }
  ScratchDir dir("serve-page");
  indexed_repository(dir, sample_pgn());
  fs::copy_file(shared_data("problems/yacpdb-olive/Broodings-50.olv"), dir.path() / "problems.olv");
  spit(dir.path() / "second.pgn", sample_games(0, 300));  // a second repository, served beside the first
  REQUIRE(cqlindex_in(dir.path(), "build --explore second.pgn").exit_code == 0);
  Server server(dir.path(), std::vector<std::string>{"repository.pgn", "second.pgn"}, {"--problems", "problems.olv"});
  REQUIRE(server.port() > 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/";
  const std::string query = "cql()\ncheck";

  // What the API answers, for the page to show.
  const Reply run = post(server, "/api/run", json{{"cql", query}, {"limit", 50}});
  REQUIRE(run.status == 200);
  std::vector<uint64_t> numbers;
  for (const json& g : run.body["results"]) numbers.push_back(g["number"].get<uint64_t>());
  std::vector<uint64_t> first_marks;
  for (const json& c : run.body["results"][0]["comments"])
    if (c["text"] == "CQL" && c["mainline"] == true) first_marks.push_back(c["ply"].get<uint64_t>());
  REQUIRE(first_marks.size() >= 1);
  // the study: a position of game 9, which must be among its predecessors
  const Reply game = get(server, "/api/game/9");
  REQUIRE(game.status == 200);
  REQUIRE(game.body["fens"].size() > 16);
  const std::string fen = game.body["fens"][16].get<std::string>();
  const Reply similar = post(server, "/api/similar", json{{"fen", fen}, {"limit", 100}});
  REQUIRE(similar.status == 200);
  std::vector<uint64_t> predecessors;
  for (const json& g : similar.body["results"]) predecessors.push_back(g["number"].get<uint64_t>());
  // the YACPDB query and its entries
  const std::string yacpdb_query = "Stip(\"h#2\")";
  const Reply problems = post(server, "/api/yacpdb", json{{"query", yacpdb_query}, {"limit", 50}});
  REQUIRE(problems.status == 200);
  REQUIRE(!problems.body["results"].empty());
  std::vector<uint64_t> entries;
  for (const json& e : problems.body["results"]) entries.push_back(e["number"].get<uint64_t>());
  // the second repository's answer to the query
  const Reply second = post(server, "/api/run", json{{"cql", query}, {"limit", 50}, {"repo", "second"}});
  REQUIRE(second.status == 200);
  REQUIRE(second.body["matches"] != run.body["matches"]);  // the page must show the other count
  std::vector<uint64_t> second_numbers;
  for (const json& g : second.body["results"]) second_numbers.push_back(g["number"].get<uint64_t>());
  std::string first_fen;
  for (const json& t : problems.body["results"][0]["tags"])
    if (t[0] == "FEN") first_fen = t[1].get<std::string>();
  REQUIRE(!first_fen.empty());

  const ProcessResult r = run_process(
      "node " + shell_quote((fs::path(CQLINDEX_SOURCE_DIR) / "tests" / "serve" / "page_check.js").string()) + " " +
      shell_quote(browser) + " " + shell_quote(url) + " " + shell_quote(query) + " " + shell_quote(fen) + " " +
      shell_quote((dir.path() / "profile").string()) + " " + shell_quote((dir.path() / "page.png").string()) + " " +
      shell_quote(yacpdb_query) + " second 2>&1");
  INFO("page_check.js: " << r.out);
  REQUIRE(r.exit_code == 0);
  // the report is the last line (Chromium may have said things before it)
  const size_t last_line = r.out.rfind("\n{");
  const json report = json::parse(last_line == std::string::npos ? r.out : r.out.substr(last_line + 1), nullptr, false);
  REQUIRE(report.is_object());
  CHECK(!report.contains("page_error"));
  CHECK(report["foreign_requests"].empty());
  CHECK(report["info"].get<std::string>().find("1005 games") != std::string::npos);
  CHECK(report["error"].get<std::string>().find("line 2, column") != std::string::npos);
  CHECK(report["status"].get<std::string>().find(std::to_string(run.body["matches"].get<uint64_t>()) + " matches") == 0);
  CHECK(report["results"].get<std::vector<uint64_t>>() == numbers);
  CHECK(report["matched_moves"].get<std::vector<uint64_t>>() == first_marks);
  CHECK(report["opened_at"] == first_marks[0]);
  CHECK(report["after_first"] == 0);
  CHECK(report["after_forward"] == 1);
  // the next matched position after ply 1 (round to the first when there is none)
  const uint64_t next_match = first_marks[0] > 1 ? first_marks[0] : first_marks.size() > 1 ? first_marks[1] : first_marks[0];
  CHECK(report["after_next_match"] == next_match);
  CHECK(report["board_marked"] == true);
  CHECK(report["board_pieces"].get<int>() >= 2);
  // the explorer at the matched position: what /api/explore answers for it, and a click walks on
  const std::string matched_fen = get(server, "/api/game/" + std::to_string(numbers[0])).body["fens"][next_match];
  auto client = server.client();
  const Reply explored = as_reply(client.Get("/api/explore", httplib::Params{{"fen", matched_fen}}, httplib::Headers{}));
  REQUIRE(explored.status == 200);
  REQUIRE(!explored.body["moves"].empty());
  CHECK(report["explorer_title"].get<std::string>().find(
            std::to_string(explored.body["results"]["games"].get<uint64_t>()) + " games reach") != std::string::npos);
  CHECK(report["explorer_first"]["san"] == explored.body["moves"][0]["san"]);
  CHECK(report["explorer_first"]["fen"] == explored.body["moves"][0]["fen"]);
  CHECK(report["walked_to"] == explored.body["moves"][0]["fen"]);
  CHECK(report["study_error"] == "");
  CHECK(report["predecessors"].get<std::vector<uint64_t>>() == predecessors);
  CHECK(std::find(predecessors.begin(), predecessors.end(), 9) != predecessors.end());
  CHECK(report["pair_boards"] == 2);  // the study and its predecessor, side by side
  CHECK(report["yacpdb_error"].get<std::string>().find("column") == 0);
  CHECK(report["yacpdb_status"].get<std::string>().find(std::to_string(problems.body["matches"].get<uint64_t>()) +
                                                        " matches of " +
                                                        std::to_string(problems.body["entries"].get<uint64_t>()) +
                                                        " entries") == 0);
  CHECK(report["yacpdb_entries"].get<std::vector<uint64_t>>() == entries);
  CHECK(report["yacpdb_fen"] == first_fen);
  CHECK(report["yacpdb_pieces"].get<int>() >= 2);
  CHECK(report["yacpdb_pgn"] == problems.body["results"][0]["pgn"]);
  CHECK(report["repositories"] == json::array({"repository", "second"}));
  CHECK(report["cleared"] == 0);
  CHECK(report["second_info"].get<std::string>().find("second.pgn: 300 games") == 0);
  CHECK(report["second_status"].get<std::string>().find(std::to_string(second.body["matches"].get<uint64_t>()) +
                                                        " matches of 300 games") == 0);
  CHECK(report["second_results"].get<std::vector<uint64_t>>() == second_numbers);
  CHECK(report["url_repo"] == "second");
  CHECK(report["reloaded_repo"] == "second");
  CHECK(report["reloaded_info"].get<std::string>().find("second.pgn: 300 games") == 0);
  CHECK(fs::file_size(dir.path() / "page.png") > 10000);
}
