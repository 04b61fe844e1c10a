// persistent variables: values carried from game to game in game order, printed after the run; the run is
// single-threaded and its output the same whatever --threads says. Ground truth: CQL 6.2's console output of
// persistent.cql (corpus-runs, "NumberGames: 166" ...).
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "eval/lang_support.h"
#include "support/process.h"
#include "support/shared_data.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

// The persistent report after scanning every game of pgn in order.
std::vector<std::string> report(const std::string& cql, const std::string& pgn) {
  cql::Query q = cql::parse_query(cql);
  cql::eval::Program program = cql::eval::compile(q, {});
  cql::eval::GameScanner scanner(program);
  pgn::GameReader reader(pgn);
  pgn::Game game;
  while (reader.next(game)) scanner.scan(game);
  return scanner.persistent_report();
}

// The lines of `text` after the "N matches of M games" line (the persistent report).
std::string after_summary(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  bool seen = false;
  while (std::getline(in, line)) {
    if (seen) out += line + "\n";
    else if (line.find(" matches of ") != std::string::npos) seen = true;
  }
  return out;
}

}  // namespace

TEST_CASE("persistent variables keep their value from game to game", "[eval][persistent]") {
  const std::string two = test::lang_game(test::kLoneKings, "1. Kd2 Kd7 2. Ke2 *") + test::lang_game(test::kLoneKings, "1. Kf2 *");
  auto lines = report("cql()\nif initial persistent Games += 1\npersistent Positions += 1\npersistent quiet Hidden = 5\nfalse\n", two);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "Games: 2");
  CHECK(lines[1] == "Positions: 6");  // 4 positions in the first game, 2 in the second
  // a persistent variable is bound from the first game on (starting at 0), so the second game sees 1
  CHECK(test::lang_matches("if initial persistent G += 1\ninitial G == 2", two) == 1);
}

TEST_CASE("persistent.cql prints CQL 6.2's statistics, the same with 1 and 2 threads", "[eval][persistent]") {
  const fs::path data = cqlindex::test::shared_data("");
  const fs::path query = data / "cql-examples/cql62-distribution-examples/exalpha/persistent.cql";
  const fs::path gold = data / "cql-examples/expected-output/corpus-runs";
  const fs::path work = fs::temp_directory_path() / ("cqlindex-persistent-" + std::to_string(::getpid()));
  fs::create_directories(work);
  for (const char* input : {"mate_in_2", "book_1.02.small-1005"}) {
    const std::string pgn = std::string(input) == "mate_in_2" ? "problems/mate-in-n-from-games/mate_in_2.pgn"
                                                              : "gnuchess-book/book_1.02.small-1005.pgn";
    std::string outputs[2], consoles[2];
    for (int t = 1; t <= 2; ++t) {
      const fs::path out = work / ("out" + std::to_string(t) + ".pgn");
      auto r = test::run_process(std::string(CQLINDEX_BINARY) + " run --no-index --threads " + std::to_string(t) +
                                 " -i " + test::shell_quote((data / pgn).string()) + " -o " +
                                 test::shell_quote(out.string()) + " " + test::shell_quote(query.string()) + " 2>/dev/null");
      REQUIRE(r.exit_code == 0);
      consoles[t - 1] = after_summary(r.out);
      outputs[t - 1] = test::slurp(out);
    }
    const std::string expected =
        after_summary(test::slurp(gold / input / "cql62-distribution-examples/exalpha__persistent.stdout.txt"));
    INFO(input);
    CHECK(!expected.empty());
    CHECK(consoles[0] == expected);
    CHECK(consoles[1] == expected);
    CHECK(outputs[0] == outputs[1]);
  }
  fs::remove_all(work);
}
