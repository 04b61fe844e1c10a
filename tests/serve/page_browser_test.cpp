// The page of `cqlindex serve` as a person uses it, in headless Chromium (Debian's `chromium`) driven by
// puppeteer-core (npm, installed by scripts/oracle-setup): a bad query shows its line and column, a query shows
// its N results (the API's), a result opens on the board at its first matched position and steps on, the
// explorer shows the moves played from the board and a click walks on, a pasted study shows its predecessor and,
// with "near" ticked, a study one square away from a game shows that game as a near predecessor, a
// YACPDB query lists the problem file's entries and one opens on the board, another repository chosen in the
// selector answers the query with its own results and stays chosen when the page is loaded again from its URL;
// nothing is fetched from anywhere but the server. The Study tab typed into with mistakes (study_input_check.js):
// a bad FEN, a FEN without side to move and PGN with a wrong move each show where they go wrong and list nothing,
// two FENs list the predecessors of both, the initial position shows its warning. Skipped, saying why, only when
// chromium or puppeteer-core is missing.
#include <catch2/catch.hpp>

#include <algorithm>

#include "serve/serve_support.h"
#include "similar/near_test_util.h"

using namespace cqlindex::test;

namespace {

// The chromium executable, or "" when it is not installed.
std::string chromium() {
  ProcessResult r = run_process("command -v chromium 2>/dev/null");
  std::string path = r.out.substr(0, r.out.find('\n'));
  return r.exit_code == 0 ? path : std::string();
}

const fs::path kPuppeteer = fs::path(CQLINDEX_SOURCE_DIR) / "tests" / "oracle" / "node_modules" / "puppeteer-core";

// What the API answers, which the page must show.
struct Expected {
  json run, second, problems, near;         // the query on both repositories; the YACPDB query; near pairs
  std::vector<uint64_t> numbers, first_marks, predecessors, entries, second_numbers, near_numbers;
  std::string fen, first_fen, near_fen;     // the study; the first problem's position; the near study
};

// The numbers of an answer's results.
std::vector<uint64_t> result_numbers(const json& body) {
  std::vector<uint64_t> numbers;
  for (const json& g : body["results"]) numbers.push_back(g["number"].get<uint64_t>());
  return numbers;
}

// Asks the API what the page will be asked: the query on both repositories, the study, the YACPDB query.
Expected expected_answers(Server& server, const std::string& query, const std::string& yacpdb_query) {
  Expected e;
  const Reply run = post(server, "/api/run", json{{"cql", query}, {"limit", 50}});
  REQUIRE(run.status == 200);
  e.run = run.body;
  e.numbers = result_numbers(run.body);
  for (const json& c : run.body["results"][0]["comments"])
    if (c["text"] == "CQL" && c["mainline"] == true) e.first_marks.push_back(c["ply"].get<uint64_t>());
  REQUIRE(e.first_marks.size() >= 1);
  // the study: a position of game 9, which must be among its predecessors
  const Reply game = get(server, "/api/game/9");
  REQUIRE(game.status == 200);
  REQUIRE(game.body["fens"].size() > 16);
  e.fen = game.body["fens"][16].get<std::string>();
  const Reply similar = post(server, "/api/similar", json{{"fen", e.fen}, {"limit", 100}});
  REQUIRE(similar.status == 200);
  e.predecessors = result_numbers(similar.body);
  // the near study: a position of game 9 with a piece taken off, mirrored
  e.near_fen = plant(slurp(sample_pgn()), 9, 16).fen;
  REQUIRE(!e.near_fen.empty());
  const Reply near = post(server, "/api/similar", json{{"fen", e.near_fen}, {"near", 1}, {"limit", 100}});
  REQUIRE(near.status == 200);
  e.near = near.body["near"];
  for (const json& p : e.near["results"])
    if (p["distance"] == 1) e.near_numbers.push_back(p["game"].get<uint64_t>());
  // the YACPDB query and its entries
  const Reply problems = post(server, "/api/yacpdb", json{{"query", yacpdb_query}, {"limit", 50}});
  REQUIRE(problems.status == 200);
  REQUIRE(!problems.body["results"].empty());
  e.problems = problems.body;
  e.entries = result_numbers(problems.body);
  for (const json& t : problems.body["results"][0]["tags"])
    if (t[0] == "FEN") e.first_fen = t[1].get<std::string>();
  REQUIRE(!e.first_fen.empty());
  // the second repository's answer to the query
  const Reply second = post(server, "/api/run", json{{"cql", query}, {"limit", 50}, {"repo", "second"}});
  REQUIRE(second.status == 200);
  REQUIRE(second.body["matches"] != run.body["matches"]);  // the page must show the other count
  e.second = second.body;
  e.second_numbers = result_numbers(second.body);
  return e;
}

// The query tab: the error at its line and column, the results, a result opened on the board and stepped through.
// Returns the ply of the next matched position after ply 1, where the explorer is checked.
uint64_t check_query_tab(const json& report, const Expected& e) {
  CHECK(report["info"].get<std::string>().find("1005 games") != std::string::npos);
  CHECK(report["error"].get<std::string>().find("line 2, column") != std::string::npos);
  CHECK(report["status"].get<std::string>().find(std::to_string(e.run["matches"].get<uint64_t>()) + " matches") == 0);
  CHECK(report["results"].get<std::vector<uint64_t>>() == e.numbers);
  CHECK(report["matched_moves"].get<std::vector<uint64_t>>() == e.first_marks);
  CHECK(report["opened_at"] == e.first_marks[0]);
  CHECK(report["after_first"] == 0);
  CHECK(report["after_forward"] == 1);
  // the next matched position after ply 1 (round to the first when there is none)
  const std::vector<uint64_t>& marks = e.first_marks;
  const uint64_t next_match = marks[0] > 1 ? marks[0] : marks.size() > 1 ? marks[1] : marks[0];
  CHECK(report["after_next_match"] == next_match);
  CHECK(report["board_marked"] == true);
  CHECK(report["board_pieces"].get<int>() >= 2);
  return next_match;
}

// The explorer at the matched position: what /api/explore answers for it, and a click walks on.
void check_explorer(const json& report, Server& server, uint64_t game, uint64_t ply) {
  const std::string matched_fen = get(server, "/api/game/" + std::to_string(game)).body["fens"][ply];
  auto client = server.client();
  const Reply explored = as_reply(client.Get("/api/explore", httplib::Params{{"fen", matched_fen}}, httplib::Headers{}));
  REQUIRE(explored.status == 200);
  REQUIRE(!explored.body["moves"].empty());
  CHECK(report["explorer_title"].get<std::string>().find(
            std::to_string(explored.body["results"]["games"].get<uint64_t>()) + " games reach") != std::string::npos);
  CHECK(report["explorer_first"]["san"] == explored.body["moves"][0]["san"]);
  CHECK(report["explorer_first"]["fen"] == explored.body["moves"][0]["fen"]);
  CHECK(report["walked_to"] == explored.body["moves"][0]["fen"]);
}

// The study tab and the YACPDB tab.
void check_study_and_yacpdb_tabs(const json& report, const Expected& e) {
  CHECK(report["study_error"] == "");
  CHECK(report["predecessors"].get<std::vector<uint64_t>>() == e.predecessors);
  CHECK(std::find(e.predecessors.begin(), e.predecessors.end(), 9) != e.predecessors.end());
  CHECK(report["pair_boards"] == 2);  // the study and its predecessor, side by side
  CHECK(report["near_error"] == "");
  CHECK(report["near_status"].get<std::string>().find(
            "; " + std::to_string(e.near["by_distance"][1].get<uint64_t>()) + " near (1 difference)") !=
        std::string::npos);
  CHECK(report["near"].get<std::vector<uint64_t>>() == e.near_numbers);
  CHECK(std::find(e.near_numbers.begin(), e.near_numbers.end(), 9) != e.near_numbers.end());
  std::string differs;
  for (const json& p : e.near["results"])
    if (p["distance"] == 1) {
      for (const json& square : p["differs"]) differs += (differs.empty() ? "" : " ") + square.get<std::string>();
      break;
    }
  CHECK(report["near_first"]["differs"] == differs);
  CHECK(report["near_first"]["label"].get<std::string>().find("near (distance 1, differs at ") == 0);
  CHECK(report["near_first"]["outlined"].size() == 2);  // the square, on both boards
  // the near pair opened in the viewer: its game at its ply, the transform said
  for (const json& p : e.near["results"])
    if (p["distance"] == 1) {
      CHECK(report["near_opened"]["number"] == p["game"]);
      CHECK(report["near_opened"]["ply"] == p["ply"]);
      CHECK(report["near_opened"]["note"].get<std::string>().find("seen " + p["transform"].get<std::string>()) !=
            std::string::npos);
      break;
    }
  CHECK(report["yacpdb_error"].get<std::string>().find("column") == 0);
  CHECK(report["yacpdb_status"].get<std::string>().find(std::to_string(e.problems["matches"].get<uint64_t>()) +
                                                        " matches of " +
                                                        std::to_string(e.problems["entries"].get<uint64_t>()) +
                                                        " entries") == 0);
  CHECK(report["yacpdb_entries"].get<std::vector<uint64_t>>() == e.entries);
  CHECK(report["yacpdb_fen"] == e.first_fen);
  CHECK(report["yacpdb_pieces"].get<int>() >= 2);
  CHECK(report["yacpdb_pgn"] == e.problems["results"][0]["pgn"]);
}

// The repository selector: the other repository's answer, kept in the URL and after a reload.
void check_repository_switch(const json& report, const Expected& e) {
  CHECK(report["repositories"] == json::array({"repository", "second"}));
  CHECK(report["cleared"] == 0);
  CHECK(report["second_info"].get<std::string>().find("second.pgn: 300 games") == 0);
  CHECK(report["second_status"].get<std::string>().find(std::to_string(e.second["matches"].get<uint64_t>()) +
                                                        " matches of 300 games") == 0);
  CHECK(report["second_results"].get<std::vector<uint64_t>>() == e.second_numbers);
  CHECK(report["url_repo"] == "second");
  CHECK(report["reloaded_repo"] == "second");
  CHECK(report["reloaded_info"].get<std::string>().find("second.pgn: 300 games") == 0);
}

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
  const std::string yacpdb_query = "Stip(\"h#2\")";
  const Expected expected = expected_answers(server, query, yacpdb_query);

  const ProcessResult r = run_process(
      "node " + shell_quote((fs::path(CQLINDEX_SOURCE_DIR) / "tests" / "serve" / "page_check.js").string()) + " " +
      shell_quote(browser) + " " + shell_quote(url) + " " + shell_quote(query) + " " + shell_quote(expected.fen) +
      " " + shell_quote((dir.path() / "profile").string()) + " " + shell_quote((dir.path() / "page.png").string()) +
      " " + shell_quote(yacpdb_query) + " second " + shell_quote(expected.near_fen) + " 2>&1");
  INFO("page_check.js: " << r.out);
  REQUIRE(r.exit_code == 0);
  // the report is the last line (Chromium may have said things before it)
  const size_t last_line = r.out.rfind("\n{");
  const json report = json::parse(last_line == std::string::npos ? r.out : r.out.substr(last_line + 1), nullptr, false);
  REQUIRE(report.is_object());
  CHECK(!report.contains("page_error"));
  CHECK(report["foreign_requests"].empty());
  const uint64_t next_match = check_query_tab(report, expected);
  check_explorer(report, server, expected.numbers[0], next_match);
  check_study_and_yacpdb_tabs(report, expected);
  check_repository_switch(report, expected);
  CHECK(fs::file_size(dir.path() / "page.png") > 10000);
}

TEST_CASE("serve: the Study tab says what is wrong with a study typed, and lists nothing then", "[serve][browser]") {
  const std::string browser = chromium();
  if (browser.empty() || !fs::exists(kPuppeteer)) {
    WARN("skipped: " << (browser.empty() ? "chromium is not installed (scripts/setup installs it)"
                                         : "puppeteer-core is not installed (scripts/oracle-setup installs it)"));
    return;
  }
  ScratchDir dir("serve-page-study");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/";
  // two studies: positions of games 7 and 9, one a line; the page must list what the API answers for both
  const std::string first = get(server, "/api/game/7").body["fens"][20];
  const std::string second = get(server, "/api/game/9").body["fens"][16];
  const Reply both = post(server, "/api/similar", json{{"pgn", first + "\n" + second}, {"limit", 100}});
  REQUIRE(both.status == 200);
  std::vector<uint64_t> predecessors;
  for (const json& g : both.body["results"]) predecessors.push_back(g["number"].get<uint64_t>());

  const ProcessResult r = run_process(
      "node " + shell_quote((fs::path(CQLINDEX_SOURCE_DIR) / "tests" / "serve" / "study_input_check.js").string()) +
      " " + shell_quote(browser) + " " + shell_quote(url) + " " + shell_quote((dir.path() / "profile").string()) + " " +
      shell_quote((dir.path() / "").string()) + " " + shell_quote(first) + " " + shell_quote(second) + " 2>&1");
  INFO("study_input_check.js: " << r.out);
  REQUIRE(r.exit_code == 0);
  const size_t last_line = r.out.rfind("\n{");
  const json report = json::parse(last_line == std::string::npos ? r.out : r.out.substr(last_line + 1), nullptr, false);
  REQUIRE(report.is_object());
  CHECK(!report.contains("page_error"));

  const json& two = report["two_fens"];
  CHECK(two["error"] == "");
  CHECK(two["status"].get<std::string>().find(" games of 2 submissions") != std::string::npos);
  CHECK(two["pairs"].get<std::vector<uint64_t>>() == predecessors);
  CHECK(std::find(predecessors.begin(), predecessors.end(), 7) != predecessors.end());
  CHECK(std::find(predecessors.begin(), predecessors.end(), 9) != predecessors.end());
  CHECK(two["boards"] == 2);  // the submission typed beside its predecessor

  CHECK(report["bad_side"]["error"].get<std::string>().find(
            "line 1, column 21: bad FEN (side to move): FEN side to move 'x' must be 'w' or 'b'") == 0);
  CHECK(report["no_side"]["error"].get<std::string>().find("line 1, column 20: bad FEN (side to move): ") == 0);
  CHECK(report["wrong_move"]["error"].get<std::string>().find("line 3, column 13: game 1: illegal move 'Ke3' at 2.") ==
        0);
  for (const char* mistake : {"bad_side", "no_side", "wrong_move"}) {
    INFO(mistake);
    CHECK(report[mistake]["pairs"].empty());
    CHECK(report[mistake]["warnings"].empty());
    CHECK(report[mistake]["status"] == "");
  }

  const json& start = report["start"];
  CHECK(start["error"] == "");
  REQUIRE(start["warnings"].size() == 1);
  CHECK(start["warnings"][0].get<std::string>().find("is similar to positions of 1005 of the 1005 repository games") !=
        std::string::npos);
  CHECK(!start["pairs"].empty());
  CHECK(fs::file_size(dir.path() / "study-bad-fen.png") > 10000);
  CHECK(fs::file_size(dir.path() / "study-warnings.png") > 10000);
}

TEST_CASE("serve: the Study tab pages past 100 predecessors and opens a match in the game viewer at its ply",
          "[serve][browser]") {
  const std::string browser = chromium();
  if (browser.empty() || !fs::exists(kPuppeteer)) {
    WARN("skipped: " << (browser.empty() ? "chromium is not installed (scripts/setup installs it)"
                                         : "puppeteer-core is not installed (scripts/oracle-setup installs it)"));
    return;
  }
  ScratchDir dir("serve-page-workbench");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/";
  // the position after 1. e4: more than a page of the repository's games reach it
  const std::string study = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  const Reply first = post(server, "/api/similar", json{{"pgn", study}, {"offset", 0}, {"limit", 100}});
  const Reply second = post(server, "/api/similar", json{{"pgn", study}, {"offset", 100}, {"limit", 100}});
  REQUIRE(first.status == 200);
  REQUIRE(second.status == 200);
  const uint64_t total = first.body["matches"].get<uint64_t>();
  REQUIRE(total > 100);
  REQUIRE(first.body["results"].size() == 100);
  REQUIRE(!second.body["results"].empty());
  std::vector<uint64_t> first_numbers, second_numbers, first_plies;
  for (const json& g : first.body["results"]) {
    first_numbers.push_back(g["number"].get<uint64_t>());
    REQUIRE(!g["matched"].empty());
    first_plies.push_back(g["matched"][0]["ply"].get<uint64_t>());
  }
  for (const json& g : second.body["results"]) second_numbers.push_back(g["number"].get<uint64_t>());

  const ProcessResult r = run_process(
      "node " + shell_quote((fs::path(CQLINDEX_SOURCE_DIR) / "tests" / "serve" / "study_workbench_check.js").string()) +
      " " + shell_quote(browser) + " " + shell_quote(url) + " " + shell_quote((dir.path() / "profile").string()) + " " +
      shell_quote((dir.path() / "").string()) + " " + shell_quote(study) + " 2>&1");
  INFO("study_workbench_check.js: " << r.out);
  REQUIRE(r.exit_code == 0);
  const size_t last_line = r.out.rfind("\n{");
  const json report = json::parse(last_line == std::string::npos ? r.out : r.out.substr(last_line + 1), nullptr, false);
  REQUIRE(report.is_object());
  CHECK(!report.contains("page_error"));

  // counted exactly, paged past 100 in the API's order, and back
  CHECK(report["first"]["status"].get<std::string>().find(std::to_string(total) + " predecessors in ") == 0);
  CHECK(report["first"]["page"] == "results 1-100 of " + std::to_string(total));
  CHECK(report["first"]["pairs"].get<std::vector<uint64_t>>() == first_numbers);
  CHECK(report["first"]["plies"].get<std::vector<uint64_t>>() == first_plies);
  CHECK(report["second"]["page"] ==
        "results 101-" + std::to_string(100 + second_numbers.size()) + " of " + std::to_string(total));
  CHECK(report["second"]["pairs"].get<std::vector<uint64_t>>() == second_numbers);
  CHECK(report["back"]["pairs"].get<std::vector<uint64_t>>() == first_numbers);
  CHECK(report["again"]["pairs"].get<std::vector<uint64_t>>() == second_numbers);

  // captions in words: the players, the move, the transform; not CQL's comment
  const json& best = first.body["results"][0];
  const std::string caption = report["first"]["captions"][0];
  for (const json& t : best["tags"])
    if (t[0] == "White" || t[0] == "Black") CHECK(caption.find(t[1].get<std::string>()) != std::string::npos);
  CHECK(caption.find("seen " + best["matched"][0]["transform"].get<std::string>()) != std::string::npos);
  CHECK(caption.find("like submission 1 at move 1 (Black to move)") != std::string::npos);
  CHECK(caption.find("at move ") != std::string::npos);
  CHECK(caption.find("submissions.pgn") == std::string::npos);

  // the second page's first match, opened in the viewer at its ply: the API's game and position there
  const json& opened = second.body["results"][0];
  const uint64_t ply = opened["matched"][0]["ply"].get<uint64_t>();
  const Reply game = get(server, "/api/game/" + std::to_string(second_numbers[0]));
  REQUIRE(game.status == 200);
  const json& viewer = report["viewer"];
  CHECK(viewer["query_tab_shown"] == true);
  CHECK(viewer["number"] == second_numbers[0]);
  CHECK(viewer["ply"] == ply);
  CHECK(viewer["fen"] == game.body["fens"][ply]);
  CHECK(viewer["ply_info"].get<std::string>().find("(matched)") != std::string::npos);
  CHECK(viewer["note"].get<std::string>().find("seen " + opened["matched"][0]["transform"].get<std::string>()) !=
        std::string::npos);
  CHECK(fs::file_size(dir.path() / "study-page.png") > 10000);
  CHECK(fs::file_size(dir.path() / "study-match-opened.png") > 10000);
}
