// hhdb: the HHdb VI fields on two hand-made studies in the database's style (Event with the award, Black with
// the GBR code and the HHdb flags, the first comment with the stipulation and the EG diagram number).
#include <catch2/catch.hpp>

#include <algorithm>

#include "engine/cql/error.h"
#include "eval/eval_support.h"

using namespace cqlindex;

namespace {

const std::string kStudies =
    "[Event \"1/2.p Tidskrift #12\"]\n[White \"Reti, Richard NN\"]\n[Black \"+0134.10a1b2 MC U3\"]\n"
    "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n"
    "{Reti, R. and Mandler. stipulation: draw. EG#123} 1. Kd2 (1. Kf2 {<main>} Kd7) Kd7 {<cook> here} 1/2-1/2\n\n"
    "[Event \"1.sp.hm Magazine\"]\n[White \"Kasparyan, G\"]\n[Black \"=0400.00e1e8 TW\"]\n[Result \"1-0\"]\n"
    "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n{stipulation: win.} 1. Kd2 Kd7 1-0\n\n";

// The games (1, 2) where the body holds at the start position.
std::string games(const std::string& body, const std::string& header = "cql()") {
  test::QueryRun r = test::run_query(header + "\ninitial\n" + body + "\n", kStudies);
  std::string out;
  for (size_t at = r.output.find("Game number "); at != std::string::npos; at = r.output.find("Game number ", at + 1))
    out += r.output[at + 12];
  return out;
}

}  // namespace

TEST_CASE("hhdb string fields", "[eval][hhdb]") {
  CHECK(games("hhdb composer == \"Reti, R\"") == "1");  // MC: the first comment up to its first period
  CHECK(games("hhdb composer == \"Kasparyan, G\"") == "2");
  CHECK(games("hhdb composer \"Kasp\"") == "2");  // an implicit search, as `player white "..."`
  CHECK(games("hhdb stipulation == \"draw\"") == "1");
  CHECK(games("hhdb stipulation == \"win\"") == "2");
  CHECK(games("hhdb diagram == \"12\"") == "1");
  CHECK(games("hhdb egdiagram == 123") == "1");
  CHECK(games("hhdb firstcomment \"Mandler\"") == "1");
  CHECK(games("hhdb gbr == \"+0134.10a1b2\"") == "1");
  CHECK(games("hhdb gbr kings == \"e1e8\"") == "2");
  CHECK(games("hhdb gbr material == \"0134.10\"") == "1");
  CHECK(games("hhdb gbr pieces == \"0400\"") == "2");
  CHECK(games("hhdb gbr pawns == \"10\"") == "1");
  CHECK(games("hhdb search \"Tidskrift\"") == "1");
  CHECK(games("hhdb search \"Kasparyan\"") == "2");
}

TEST_CASE("hhdb flags of the Black tag and the cook marks", "[eval][hhdb]") {
  CHECK(games("hhdb MC") == "1");
  CHECK(games("hhdb too_many_composers") == "1");
  CHECK(games("hhdb white_fails") == "1");  // U3
  CHECK(games("hhdb twin") == "2");         // TW
  CHECK(games("hhdb \"(c)\"") == "");
  CHECK(games("hhdb cooked") == "1");   // "<cook" somewhere in the game
  CHECK(games("hhdb unsound") == "1");  // cooked, or U1..U5
  CHECK(games("hhdb sound") == "2");
  CHECK(games("hhdb dual") == "");
}

TEST_CASE("hhdb awards read from Event", "[eval][hhdb]") {
  CHECK(games("hhdb prize == 1") == "1");        // "1/2.p": shared first and second prize, rank 1
  CHECK(games("hhdb prize max == 2") == "1");    // its upper rank
  CHECK(games("hhdb award == 1") == "1");        // a special award has no rank as a number...
  CHECK(games("hhdb hm > 0") == "");
  CHECK(games("X = hhdb hm") == "");
  CHECK(games("hhdb hm") == "2");                // ...but it is one as a filter (CQL's match_position)
  CHECK(games("not hhdb hm") == "1");
  CHECK(games("hhdb special hm == 1") == "2");   // or when special is asked for: "1.sp.hm"
  CHECK(games("hhdb special") == "2");
  CHECK(games("hhdb commendation") == "");
}

TEST_CASE("hhdb comments marking the main line need variations", "[eval][hhdb]") {
  const std::string vars = "cql(variations)";
  // the position after 1.Kf2 is off the main line but marked "<main>"
  CHECK_THROWS_AS(cql::parse_query(vars + "\nhhdb <main>\n"), cql::CqlError);  // a key with signs is quoted
  CHECK(test::run_query(vars + "\nhhdb \"<main>\" comment(\"main\")\n", kStudies).output.find("{<main> main CQL}") !=
        std::string::npos);
  CHECK(test::run_query(vars + "\nhhdb variation\n", kStudies).matches == 0);
  CHECK(test::run_query(vars + "\nply == 2 hhdb mainline\n", kStudies).matches == 2);
  // without variations: an error naming the filter
  try {
    test::run_query("cql()\n  hhdb mainline\n", kStudies);
    FAIL("accepted");
  } catch (const cql::CqlError& e) {
    CHECK(std::string(e.what()).find("'hhdb mainline' can only be used when 'variations' is set") != std::string::npos);
    CHECK(e.line == 2);
    CHECK(e.column == 3);
  }
}

TEST_CASE("hhdb errors name the key", "[eval][hhdb][errors]") {
  auto rejects_at = [](const std::string& q, int line, int col) {
    try {
      cql::parse_query(q);
    } catch (const cql::CqlError& e) {
      CHECK(e.line == line);
      CHECK(e.column == col);
      return true;
    }
    return false;
  };
  CHECK(rejects_at("cql()\nhhdb nosuchkey", 2, 6));
  CHECK(rejects_at("cql()\nhhdb source", 2, 6));  // listed by CQL 6.2 but without a meaning there
  CHECK(rejects_at("cql()\nhhdb prize sort", 2, 1));  // sort last: taken for the sort filter?
  CHECK(rejects_at("cql()\nhhdb sort", 2, 1));
  CHECK(rejects_at("cql()\nhhdb sort prize max", 2, 1));
  CHECK(rejects_at("cql()\nhhdb prize hm", 2, 1));
  CHECK(rejects_at("cql()\nhhdb", 2, 5));
}

TEST_CASE("hhdb sort orders by the award: category, rank, upper rank", "[eval][hhdb]") {
  // the special honourable mention (game 2) after the prize (game 1), whatever the input order
  const size_t at = kStudies.find("[Event \"1.sp.hm");
  const std::string swapped = kStudies.substr(at) + kStudies.substr(0, at);
  const cql::Query q = cql::parse_query("cql()\ninitial\nhhdb sort award\n");
  const cql::eval::Program program = cql::eval::compile(q, {});
  for (const std::string& pgn : {kStudies, swapped}) {
    cql::eval::GameScanner scanner(program);
    pgn::GameReader reader(pgn);
    pgn::Game game;
    struct Written { cql::eval::GameOutcome outcome; uint64_t number; std::string event; };
    std::vector<Written> out;
    while (reader.next(game))
      out.push_back({scanner.scan(game), game.number, std::string(game.tag("Event").value_or(""))});
    REQUIRE(out.size() == 2);
    CHECK(out[0].outcome.matched);
    CHECK(out[1].outcome.matched);
    std::sort(out.begin(), out.end(), [&](const Written& a, const Written& b) {
      return cql::eval::sorted_before(program, a.outcome, a.number, b.outcome, b.number);
    });
    CHECK(out[0].event == "1/2.p Tidskrift #12");
    CHECK(out[1].event == "1.sp.hm Magazine");
  }
  // only the studies with that kind of award
  CHECK(games("hhdb sort prize") == "1");
  CHECK(games("hhdb special sort hm") == "2");
  CHECK(games("hhdb sort commendation") == "");
}
