// echo and the position filters it is written with, on hand-made games; `sort matchcount`.
#include <catch2/catch.hpp>

#include <unistd.h>

#include "eval/eval_support.h"
#include "support/process.h"

namespace fs = std::filesystem;
using namespace cqlindex;

namespace {

// The kings walk away and back: the root and the position after 2...Ke8 have the same board, White to move.
const std::string kKingsReturn =
    "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Ke2 Ke7 2. Ke1 Ke8 *\n\n";

// As kKingsReturn, with a variation (1. Kd1 Ke7 2. Ke1 Ke8) that also comes back to the start.
const std::string kReturnInVariation =
    "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n"
    "1. Ke2 (1. Kd1 Ke7 2. Ke1 Ke8) 1... Kd8 *\n\n";

// The output with its line breaks undone (the writer wraps at 80 columns, also just inside braces).
std::string flat(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') c = ' ';
    if (c == ' ' && !out.empty() && (out.back() == ' ' || out.back() == '{')) continue;
    if (c == '}' && !out.empty() && out.back() == ' ') out.pop_back();
    out += c;
  }
  return out;
}

bool has(const std::string& text, const std::string& part) { return flat(text).find(part) != std::string::npos; }

}  // namespace

TEST_CASE("echo pairs the current position with every other one and names both", "[eval][echo]") {
  auto r = test::run_query("cql()\necho (s t) { s [<] t  s & t == . }\n", kKingsReturn);
  CHECK(r.matches == 1);
  CHECK(has(r.output, "{Game number 1 s <--move 3(wtm) CQL}"));
  CHECK(has(r.output, "2.Ke1 Ke8 {t -->move 1(wtm)}"));
  // quiet drops the cross references, not the match
  r = test::run_query("cql()\necho quiet (s t) { s [<] t  s & t == . }\n", kKingsReturn);
  CHECK(has(r.output, "{Game number 1 CQL}"));
  CHECK_FALSE(has(r.output, "-->"));
  // without `in all` a position is never its own target
  CHECK(test::run_query("cql()\necho (s t) s == t\n", kKingsReturn).matches == 0);
  CHECK(test::run_query("cql()\necho (s t) in all s == t\n", kKingsReturn).matches == 1);
}

TEST_CASE("echo with variations writes id:N there and LCA at the common ancestor", "[eval][echo]") {
  // targets are the searched positions: without `variations` the main line only (wcct7.pgn)
  CHECK(test::run_query("cql()\necho (s t) { s & t == . ply > 0 }\n", kReturnInVariation).matches == 0);
  auto r = test::run_query("cql(variations)\necho (s t) { s & t == . ply > 0 }\n", kReturnInVariation);
  CHECK(r.matches == 1);
  // pre-order ids: root 0, 1.Ke2 1, 1...Kd8 2, then the variation 1.Kd1 3 ... 2...Ke8 6
  CHECK(has(r.output, "{Game number 1 s <--move 3(wtm)[6] CQL}"));
  CHECK(has(r.output, "2.Ke1 Ke8 {t -->move 1(wtm) id:6}"));
  // from the variation's end back to the main line's second position: their LCA is the root
  r = test::run_query("cql(variations)\nply == 4 echo (s t) { ply == 1 mainline }\n", kReturnInVariation);
  CHECK(r.matches == 1);
  CHECK(has(r.output, "{Game number 1 LCA}"));
  CHECK(has(r.output, "1.Ke2 {t -->move 3(wtm)[6]}"));
  // "id:6" is written when the target's comment names the source, before the source's own reference
  CHECK(has(r.output, "2.Ke1 Ke8 {s id:6 <--move 1(btm) CQL}"));
}

TEST_CASE("echo with a numeric body is the largest value over its targets", "[eval][echo]") {
  auto r = test::run_query("cql()\ninitial sort \"farthest\" echo quiet (s t) ply\n", kKingsReturn);
  CHECK(r.matches == 1);
  CHECK(has(r.output, "farthest: 4"));
}

TEST_CASE("position filters: & of positions, ancestry, lca, distance, child, try", "[eval][echo]") {
  auto count = [](const std::string& body, const std::string& pgn) {
    return test::run_query("cql(variations)\n" + body + "\n", pgn).matches;
  };
  CHECK(count("initial #(currentposition & child) == 62", kKingsReturn) == 1);
  CHECK(count("initial currentposition [<] child", kKingsReturn) == 1);
  CHECK(count("initial child [<] currentposition", kKingsReturn) == 0);
  CHECK(count("initial currentposition [<=] currentposition", kKingsReturn) == 1);
  CHECK(count("initial distance(currentposition child(1)) == 1", kReturnInVariation) == 1);
  CHECK(count("ply == 4 distance(currentposition position 2) == 6", kReturnInVariation) == 1);
  CHECK(count("ply == 4 distance(currentposition parent) == 1", kReturnInVariation) == 1);
  CHECK(count("ply == 4 lca(currentposition position 2) == initialposition", kReturnInVariation) == 1);
  // a try: the variation 1. Kd1 starts with a white move other than the main one
  CHECK(count("try ply == 4", kReturnInVariation) == 1);
  CHECK(count("try ply == 1 mainline", kReturnInVariation) == 0);
}

TEST_CASE("piecename pieceid makesquare and distances computed at run time", "[eval][echo]") {
  auto count = [](const std::string& body, const std::string& pgn) {
    return test::run_query("cql()\n" + body + "\n", pgn).matches;
  };
  CHECK(count("initial piecename e1 == \"K\" piecename e8 == \"k\" piecename e4 == \"_\"", kKingsReturn) == 1);
  CHECK(count("initial piecename [e1,e8]", kKingsReturn) == 0);  // not one square
  CHECK(count("ply == 4 pieceid e1 == initialposition:pieceid e1", kKingsReturn) == 1);
  CHECK(count("initial makesquare(5 1) == e1 makesquare \"h8\" == h8", kKingsReturn) == 1);
  CHECK(count("initial makesquare(9 1)", kKingsReturn) == 0);
  CHECK(count("initial x = 3 up x e1 == e4", kKingsReturn) == 1);
}

TEST_CASE("sort matchcount orders games by their number of matching positions", "[eval][sort]") {
  auto r = test::run_query("cql(sort matchcount 3 100)\nwtm\n", kReturnInVariation + kKingsReturn);
  CHECK(r.matches == 1);  // the first game has two wtm positions on its main line
  CHECK(r.output.find("{Game number 2 CQL  matchcount: 3}") != std::string::npos);
  // the order is the run's: 3 matches before 2
  const fs::path dir = fs::temp_directory_path() / ("cqlindex-echo-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  { std::ofstream(dir / "in.pgn") << kReturnInVariation + kKingsReturn; }
  { std::ofstream(dir / "q.cql") << "cql(sort matchcount 1 100)\nwtm\n"; }
  auto p = test::run_process(std::string(CQLINDEX_BINARY) + " run -i " + test::shell_quote((dir / "in.pgn").string()) +
                             " -o " + test::shell_quote((dir / "out.pgn").string()) + " " +
                             test::shell_quote((dir / "q.cql").string()) + " 2>&1");
  CHECK(p.exit_code == 0);
  const std::string out = test::slurp(dir / "out.pgn");
  CHECK(out.find("Game number 2 CQL  matchcount: 3") < out.find("Game number 1 CQL  matchcount: 2"));
  fs::remove_all(dir);
}

TEST_CASE("consecutivemoves: the longest common run of moves below the LCA, with its comments", "[eval][echo]") {
  // the main line plays Kd1 Kd8 Kd2 (the same from and to squares) two moves later than the variation
  const std::string g =
      "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n"
      "1. Kf1 (1. Kd1 Kd8 2. Kd2) 1... Kd8 2. Ke1 Ke8 3. Kd1 Kd8 4. Kd2 *\n\n";
  auto r = test::run_query(
      "cql(variations)\nply == 7 mainline echo quiet (s t) { ply == 3 consecutivemoves (s t) == 3 }\n", g);
  CHECK(r.matches == 1);
  CHECK(has(r.output, "{Game number 1 LCA}"));
  // labelled by the variables' names, as CQL 6.2 does (repro-2 R23: s-move[1], t-move[1])
  CHECK(has(r.output, "3.Kd1 {s-move[1]} 3...Kd8 {s-move[2]} 4.Kd2 {s-move[3] CQL}"));
  CHECK(has(r.output, "( 1.Kd1 {t-move[1]} 1...Kd8 {t-move[2]} 2.Kd2 {t-move[3]} )"));
  CHECK(test::run_query("cql(variations)\nply == 7 mainline echo (s t) consecutivemoves 4 10 (s t)\n", g).matches == 0);
}

TEST_CASE("move comment, typename, hhdb prize, rotate45, rotate90 count", "[eval][echo]") {
  // the comment is made and written at the position the move leads to
  auto r = test::run_query("cql()\ninitial move from K comment (\"king to \" K)\n", kKingsReturn);
  CHECK(has(r.output, "1.Ke2 {king to e2}"));
  CHECK(test::run_query("cql()\ninitial typename e1 == \"K\" typename e8 == \"K\" typename e4 == \"_\"\n", kKingsReturn).matches == 1);
  // hhdb prize: the award at the start of HHdb's Event ("1.p", "1/2.p", ".p"), not special prizes
  auto event = [](const std::string& e) {
    return "[Event \"" + e + "\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n*\n\n";
  };
  const std::string events = event("1.p Tourney") + event("1/2.p Tourney") + event(".p Tourney") + event("2.p Tourney") +
                             event("1.sp.p Tourney") + event("1.hm Tourney") + event("Tourney");
  CHECK(test::run_query("cql()\nhhdb prize == 1\n", events).matches == 3);
  CHECK(test::run_query("cql()\nhhdb prize == 2\n", events).matches == 1);
  // rotate45 turns directions: a rook two squares right of the king, in all eight directions, four of them here
  const std::string rooks = "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/1R3R2/8/1R1K1R2/8/8/8 w - - 0 1\"]\n\n*\n\n";
  CHECK(test::run_query("cql()\n4 == rotate45 count { R & right 2 K }\n", rooks).matches == 1);
  CHECK_THROWS(test::run_query("cql()\nrotate45 Ra1\n", rooks));
  // rotate90 count: the number of the four images that match
  CHECK(test::run_query("cql()\n2 == rotate90 count { R & right 2 K }\n", rooks).matches == 1);
}

TEST_CASE("flipcolor: the coloured image comments first, the identity first when the filter assigns", "[eval][transforms]") {
  // a white and a black knight on the rim: both images of the filter comment at the same position
  const std::string g = "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/7n/N7/8/8/4K3 w - - 0 1\"]\n\n*\n\n";
  auto r = test::run_query("cql()\nflipcolor { N & a-h1-8  comment(\"rim \" N) }\n", g);
  CHECK(has(r.output, "{Game number 1 rim h5 rim a4 CQL}"));
  r = test::run_query("cql()\nflipcolor { x = N & a-h1-8  comment(\"rim \" x) }\n", g);
  CHECK(has(r.output, "{Game number 1 rim a4 rim h5 CQL}"));
}

TEST_CASE("echo with a leading ancestry or order test searches only the targets that can pass it", "[eval][echo]") {
  // `s ≺ t`, `s [<=] t`, `s < t` and `s <= t` first restrict the targets to the source's subtree or to the
  // positions after it (kEchoDescendants, kEchoLater); a leading `true` turns that off, so every target is tried:
  // matches and comments must be the same, with variations on both sides of the source.
  const std::string games = kReturnInVariation +
                            "[Event \"v\"]\n\n1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 (1... c5 2. Nf3) "
                            "2. Nf3 Nc6 (2... d6 3. d4) 3. Bb5 *\n\n";
  test::check_fast_path_agrees("cql(variations)",
                               {"echo (s t) { s ≺ t  sidetomove == s:sidetomove }",
                                "echo (s t) { s [<=] t  s & t == . }", "echo (s t) { s < t  #◭ == s:#◭ }",
                                "echo (s t) in all { s <= t  ply - s:ply == 2 }",
                                "echo quiet (s t) { s [<] t  s & t == . }",
                                "sort \"d\" echo (s t) { s < t  distance(s t) }", "echo (s t) { s [<] t }",
                                "echo (s t) { t < s  s & t == . }"},
                               "true", games);
  // the subtree of 1. e4 e5 holds the positions after 2. Nf3 Nc6 3. Bb5 and 2... d6 3. d4, not 1... c5 2. Nf3
  auto n = [&](const std::string& body) { return test::run_query("cql(variations)\n" + body + "\n", games).matches; };
  CHECK(n("ply == 2 Pe4 pe5 echo (s t) { s [<] t  ply == 5 }") == 1);
  CHECK(n("ply == 2 Pe4 pe5 echo (s t) { s [<] t  ply == 5  Pd4 }") == 1);  // 2... d6 3. d4
  CHECK(n("ply == 2 Pe4 pc5 echo (s t) { s [<] t  ply == 5 }") == 0);
}
