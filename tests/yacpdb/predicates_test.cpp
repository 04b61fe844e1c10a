// The test cases of research/yacpdb.md section 5 (TC1-TC5 and the query-level checks), evaluated directly.
#include <catch2/catch.hpp>

#include "engine/yacpdb/evaluator.h"
#include "engine/yacpdb/problem.h"
#include "support/shared_data.h"

using namespace cqlindex::yacpdb;

namespace {

struct Fixture {
  ProblemFile file;
  std::vector<Analysis> analyses;
  explicit Fixture(const std::string& pgn) : file(read_pgn_problems(pgn, "fixture.pgn")) {
    for (const Problem& p : file.problems) analyses.push_back(analyse(p));
  }
  // The value of a one-predicate query on game `game` (1-based).
  int64_t value(const std::string& predicate, size_t game = 1) const {
    Query q = parse_query(predicate);
    QueryEvaluator ev(q);
    REQUIRE(q.root->kind == Expr::Kind::Compare);
    return ev.value(q.root->call, file.problems.at(game - 1), analyses.at(game - 1));
  }
  bool matches(const std::string& query, size_t game = 1) const {
    Query q = parse_query(query);
    QueryEvaluator ev(q);
    return ev.matches(file.problems.at(game - 1), analyses.at(game - 1));
  }
  // 1-based numbers of the games the query matches.
  std::vector<int> matching(const std::string& query) const {
    Query q = parse_query(query);
    QueryEvaluator ev(q);
    std::vector<int> out;
    for (size_t i = 0; i < file.problems.size(); ++i)
      if (ev.matches(file.problems[i], analyses[i])) out.push_back(static_cast<int>(i) + 1);
    return out;
  }
};

const char* kTC1 = "[FEN \"8/8/8/8/8/4k3/8/K1R5 w - - 0 1\"]\n\n*\n";
const char* kTC2 =
    "[FEN \"7k/8/8/8/3p4/8/8/R6K w - - 0 1\"]\n\n"
    "1. Ra4 Kg8 2. Rxd4 (2. Ra1 Kf8) (2. Ra6 Kf8 3. Ra2 Ke8 4. Ra1) 2... Kf8 3. Rd1 Ke8 4. Ra1 *\n";
const char* kTC3 =
    "[FEN \"8/8/8/4k3/8/3p1p2/4P3/K7 w - - 0 1\"]\n\n"
    "1. exd3 (1. e3 Kd5 (1... Kf5) (1... Ke6) (1... Ke4)) (1. e4) (1. exf3) 1... Kd6 (1... Kf6) (1... Kd4) "
    "(1... Kf4) *\n";
const char* kTC4 =
    "[FEN \"7k/8/8/8/8/8/4K3/4R3 w - - 0 1\"]\n\n1. Kd2 Kg8 2. Re2 Kf8 3. Ke1 Kg7 *\n\n"
    "[FEN \"8/8/4k3/8/8/1K6/8/Q7 w - - 0 1\"]\n\n1. Qh8 (1. Qa8) (1. Qh1) *\n\n"
    "[FEN \"7k/8/8/8/8/8/1P6/K7 w - - 0 1\"]\n\n1. b4 Kg8 2. b5 Kf8 3. b6 Ke8 4. b7 Kd7 5. b8=N+ (5. b8=Q) *\n";
const char* kTC5 =
    "[FEN \"7k/8/6K1/8/8/8/2n5/R3R3 b - - 0 1\"]\n[Stipulation \"h#1\"]\n\n"
    "1... Nxa1 (1... Nxe1 2. Ra8#) 2. Re8# *\n\n"
    "[FEN \"k7/8/PK6/8/8/8/8/8 w - - 0 1\"]\n\n1. a7 *\n";

}  // namespace

TEST_CASE("yacpdb TC1: diagram metadata (Matrix, MatrixExtended, With, PCount, Fairy)", "[yacpdb][tc]") {
  Fixture f(kTC1);
  REQUIRE(f.file.problems.size() == 1);
  CHECK(f.value("Matrix(\"wKa1 wRc1\")") == 1);
  CHECK(f.value("Matrix(\"wKd4 wRf4\")") == 1);
  CHECK(f.value("Matrix(\"wKa1 wRa3\")") == 1);
  CHECK(f.value("Matrix(\"wKa1 bKe4\")") == 0);
  CHECK(f.value("MatrixExtended(\"wKa1 wRa3\", true, true, None)") == 0);
  CHECK(f.value("MatrixExtended(\"wKa1 wRa3\", true, true, Mirror)") == 0);
  CHECK(f.value("MatrixExtended(\"wKh1 wRf1\", true, true, Mirror)") == 1);
  CHECK(f.value("MatrixExtended(\"wKh1 wRf1\", true, true, None)") == 0);
  CHECK(f.value("MatrixExtended(\"wKa1 wRc1\", false, false, None)") == 1);
  CHECK(f.value("MatrixExtended(\"wKb1 wRd1\", false, false, None)") == 0);
  CHECK(f.value("MatrixExtended(\"wKb1 wRd1\", true, false, None)") == 1);
  CHECK(f.value("MatrixExtended(\"wKa2 wRc2\", true, false, None)") == 0);
  CHECK(f.value("MatrixExtended(\"wKa2 wRc2\", false, true, None)") == 1);
  CHECK(f.value("MatrixExtended(\"wKh1 wRf1\", false, false, Mirror)") == 1);
  CHECK(f.value("MatrixExtended(\"wKh1 wRf1\", false, false, None)") == 0);
  CHECK(f.value("MatrixExtended(\"wKa1 wRc1\", *, *, *)") == 1);
  CHECK(f.value("With(\"wR\")") == 1);
  CHECK(f.value("With(\"wR wR\")") == 0);
  CHECK(f.value("With(\"wK bK\")") == 1);
  CHECK(f.value("PCount(w)") == 2);
  CHECK(f.value("PCount(b)") == 1);
  CHECK(f.value("PCount(*)") == 3);
  CHECK(f.value("PCount(n)") == 0);
  CHECK(f.value("Fairy") == 0);
  CHECK(f.matches("NOT Fairy"));
  CHECK(f.matches("PCount(w) = 2 AND PCount(*) = 3 AND PCount(n) = 0"));
  CHECK(f.value("Twins") == 1);
  CHECK(f.value("Phases") == 0);
}

TEST_CASE("yacpdb TC2: closed walks, variations, capture flag", "[yacpdb][tc]") {
  Fixture f(kTC2);
  REQUIRE(f.file.problems[0].tree.complete);
  CHECK(f.value("ArealCycle(wR, 4, true)") == 1);
  CHECK(f.value("ArealCycle(wR, 4, false)") == 0);
  CHECK(f.value("TraceBack(wR, 1, false)") == 1);
  CHECK(f.value("LinearCycle(wR, 4, false)") == 1);
  CHECK(f.value("ClosedWalk(*, *, *)") == 0);
  CHECK(f.value("TraceBack(bK, *, *)") == 0);
  CHECK(f.value("LinearCycle(bK, *, *)") == 0);
  CHECK(f.value("CornerToCorner(*)") == 0);
  CHECK(f.value("Phases") == 1);
  CHECK(f.value("Twins") == 1);
}

TEST_CASE("yacpdb TC3: Star family, Albino, Phases", "[yacpdb][tc]") {
  Fixture f(kTC3);
  REQUIRE(f.file.problems[0].tree.complete);
  CHECK(f.value("Albino(wP)") == 1);
  CHECK(f.value("Star(bK)") == 1);
  CHECK(f.value("Cross(bK)") == 1);
  CHECK(f.value("BigStar(*)") == 0);
  CHECK(f.value("BigCross(*)") == 0);
  CHECK(f.value("Wheel(*)") == 0);
  CHECK(f.value("Pickaninny(*)") == 0);
  CHECK(f.value("Phases") == 4);
}

TEST_CASE("yacpdb TC4: Platzwechsel, corners, Excelsior", "[yacpdb][tc]") {
  Fixture f(kTC4);
  REQUIRE(f.file.problems.size() == 3);
  CHECK(f.value("PW(2)", 1) == 1);
  CHECK(f.value("PWPiece(wK)", 1) == 1);
  CHECK(f.value("PWPiece(wR)", 1) == 1);
  CHECK(f.value("ClosedWalk(*, *, *)", 1) == 0);
  CHECK(f.value("TraceBack(*, *, *)", 1) == 0);
  CHECK(f.value("LinearCycle(*, *, *)", 1) == 0);
  CHECK(f.value("ArealCycle(*, *, *)", 1) == 0);

  CHECK(f.value("FourCorners(wQ)", 2) == 1);
  CHECK(f.value("CornerToCorner(wQ)", 2) == 3);
  CHECK(f.value("Phases", 2) == 3);

  CHECK(f.value("Excelsior(wS, 5)", 3) == 1);
  CHECK(f.value("Excelsior(wQ, 5)", 3) == 1);
  CHECK(f.value("Excelsior(*, 5)", 3) == 2);
  CHECK(f.value("Excelsior(wS, 4)", 3) == 0);
  CHECK(f.value("Excelsior(wN, *)", 3) == 1);
}

TEST_CASE("yacpdb TC5: Zilahi", "[yacpdb][tc]") {
  Fixture f(kTC5);
  REQUIRE(f.file.problems.size() == 2);
  REQUIRE(f.file.problems[0].tree.complete);
  CHECK(f.value("Zilahi(2)") == 1);
  CHECK(f.value("ZilahiPiece(wR, true)") == 2);
  CHECK(f.value("ZilahiPiece(*, false)") == 0);
  CHECK(f.value("Phases") == 2);
  CHECK(f.value("CornerToCorner(wR)") == 1);
  CHECK(f.value("Zilahi(*)", 2) == 0);
  // Models: both mates are model (pure, rook and king take part), not ideal (the black knight is idle)
  CHECK(f.value("Models(0, false)") == 2);
  CHECK(f.value("Models(*, true)") == 0);
  CHECK(f.value("Models(1, *)") == 0);
  CHECK(f.matches("Models(0, false) > 0"));
  // the stalemate after 1.a7 is ideal
  CHECK(f.value("Models(0, true)", 2) == 1);
  CHECK(f.value("Models(*, false)", 2) == 0);
}

TEST_CASE("yacpdb Models: impure, idle, pinned blockers", "[yacpdb][tc]") {
  Fixture f(
      // the bishop guards the g7 pawn, a blocker it does not pin: impure
      "[FEN \"6k1/5ppp/8/8/8/8/1B6/4R1K1 w - - 0 1\"]\n\n1. Re8# *\n\n"
      // back-rank mate with an idle white bishop: not model
      "[FEN \"6k1/5ppp/8/8/8/8/8/B3R1K1 w - - 0 1\"]\n\n1. Re8# *\n\n"
      // Kh8, pawns g7 h7, rook mate on e8: pure, the rook takes part
      "[FEN \"7k/6pp/8/8/8/8/8/4R1K1 w - - 0 1\"]\n\n1. Re8# *\n");
  CHECK(f.value("Models(*, *)", 1) == 0);
  CHECK(f.value("Models(*, *)", 2) == 0);
  // Kh8 with pawns g7 h7: field h8 g8 g7 h7; rook covers g8 and h8 once each; blockers unguarded: model;
  // the white king does not take part (not required for a model), so not ideal
  CHECK(f.value("Models(0, false)", 3) == 1);
}

TEST_CASE("yacpdb TC: the query-level checks over the TC files", "[yacpdb][tc]") {
  Fixture all(std::string(kTC1) + "\n" + kTC2 + "\n" + kTC3 + "\n" + kTC4 + "\n" + kTC5);
  REQUIRE(all.file.problems.size() == 8);  // TC1, TC2, TC3, TC4 a-c, TC5 a-b
  CHECK(all.matching("ArealCycle(wR, *, true) AND TraceBack(wR, 1, *)") == std::vector<int>{2});
  CHECK(all.matching("Star(bK) AND NOT Wheel(*)") == std::vector<int>{3});
  CHECK(all.matching("PW(2) OR FourCorners(wQ)") == std::vector<int>{4, 5});
  CHECK(all.matching("Zilahi(2) = 1 AND Phases > 1") == std::vector<int>{7});
  CHECK(all.matching("With('wR wR') AND Stip('h#1')") == std::vector<int>{7});
  CHECK(all.matching("Stip('H#1')") == std::vector<int>{7});
  CHECK(all.matching("Stip('h#[0-9]+')") == std::vector<int>{7});
  CHECK(all.matching("Twins = 1").size() == 8);
  CHECK(all.matching("NOT Phases").size() == 1);  // TC1 has no moves
  CHECK(all.matching("Id(3)") == std::vector<int>{3});
  CHECK(all.matching("Models(0, false) > 1") == std::vector<int>{7});
  CHECK(all.matching("Models(*, true)") == std::vector<int>{8});
  bool undetermined = true;
  Query q = parse_query("NOT Models(*, *)");
  QueryEvaluator ev(q);
  CHECK(ev.matches(all.file.problems[0], all.analyses[0], &undetermined));
  CHECK_FALSE(undetermined);
}

TEST_CASE("yacpdb analysis: work cap and fairy entries", "[yacpdb][tc]") {
  Fixture f(kTC2);
  Analysis capped = analyse(f.file.problems[0], AnalysisLimits{3});
  CHECK(capped.not_analysed.count(PredicateId::ArealCycle));
  CHECK(capped.not_analysed.count(PredicateId::Models));
  CHECK_FALSE(capped.not_analysed.count(PredicateId::Twins));
  Query q = parse_query("ArealCycle(*, *, *) = 0 OR Twins = 1");
  QueryEvaluator ev(q);
  bool undetermined = false;
  // the OR's first operand is unknown: the entry is reported as not analysed, never a wrong answer
  CHECK_FALSE(ev.matches(f.file.problems[0], capped, &undetermined));
  CHECK(undetermined);
  CHECK(ev.matches(f.file.problems[0], f.analyses[0], &undetermined));
  CHECK_FALSE(undetermined);

  // a fairy YAML entry: no trajectories, but Twins and Phases from the text
  ProblemFile olv = read_problem_file(cqlindex::test::shared_data("problems/yacpdb-olive/Broodings-50.olv"));
  const Problem& nightriders = olv.problems[9];  // h#3, three solutions with fairy pieces
  REQUIRE_FALSE(nightriders.tree.complete);
  Analysis a = analyse(nightriders);
  Query phases = parse_query("Phases = 3 AND Twins = 1 AND Fairy AND ClosedWalk(*, *, *) = 0");
  CHECK(QueryEvaluator(phases).matches(nightriders, a));
  CHECK(a.not_analysed.empty());           // fairy: orthodox-only predicates simply count 0
  const Problem& tilde = olv.problems[1];  // orthodox, but "5.Rh5 ~ 6.Rh3" cannot be read
  Analysis b = analyse(tilde);
  CHECK(b.not_analysed.count(PredicateId::Phases));
  CHECK(b.not_analysed.count(PredicateId::ClosedWalk));
  CHECK_FALSE(b.not_analysed.count(PredicateId::Twins));
  // a PGN game cut by an illegal move: unknown, not 0
  Fixture broken("[FEN \"k7/8/1K6/8/8/8/8/7R w - - 0 1\"]\n\n1. Rh8# Kb7 *\n");
  REQUIRE_FALSE(broken.file.problems[0].tree.complete);
  CHECK(broken.analyses[0].not_analysed.count(PredicateId::Models));
  CHECK_FALSE(broken.matches("Models(*, *) = 0"));
  CHECK(broken.matches("Twins = 1"));
}

TEST_CASE("yacpdb metadata: entity links, dates, options, text", "[yacpdb][tc]") {
  ProblemFile f = read_pgn_problems(
      "[Event \"The Problemist\"]\n[Composer \"Loyd, Samuel; Orlov, Ivan\"]\n[Judge \"Shinkman, W.\"]\n"
      "[Tourney \"Anniversary TT\"]\n[Date \"1900.05.17\"]\n[Stipulation \"#2\"]\n"
      "[Options \"SetPlay; Circe\"]\n[Keywords \"Model mates\"]\n[SourceId \"123\"]\n[IssueId \"4/5\"]\n"
      "[ReprintType \"solving event\"]\n\n{dedicated to my mother} *\n",
      "t.pgn");
  REQUIRE(f.problems.size() == 1);
  const Problem& p = f.problems[0];
  Analysis a = analyse(p);
  auto holds = [&](const std::string& q) {
    Query query = parse_query(q);
    return QueryEvaluator(query).matches(p, a);
  };
  CHECK(holds("Author('loyd, samuel')"));
  CHECK(holds("Author(Orlov*)"));
  CHECK(holds("Author('%Ivan')"));
  CHECK_FALSE(holds("Author('Loyd')"));  // a whole-value match
  CHECK(holds("Author('Loyd') = 0"));    // 0/1 values: CMP works on metadata too
  CHECK(holds("Entity(author, 'Orlov, Ivan') AND Entity(judge, 'Shinkman%') AND Entity(tourney, '*TT')"));
  CHECK(holds("Entity(*, 'Model mates') AND Entity(source, 'the problemist')"));
  CHECK_FALSE(holds("Entity(keyword, 'Loyd, Samuel')"));
  CHECK(holds("Source('The Problemist') AND Keyword('model MATES')"));
  CHECK(holds("SourceId('123') AND IssueId('4/5') AND ReprintType('solving event')"));
  CHECK(holds("PublishedAfter(1900) AND PublishedAfter(1900-05) AND PublishedAfter(1900-05-16)"));
  CHECK_FALSE(holds("PublishedAfter(1900-05-17)"));  // a full date: strictly after
  CHECK_FALSE(holds("PublishedAfter(1901)"));
  CHECK(holds("Option(*) = 2 AND Option('circe') AND Fairy"));
  CHECK(holds("Text('%dedicated to%mother%') AND Text('DEDICATED') AND NOT Text('father')"));
  CHECK(holds("Stip('#[0-9]') AND NOT Stip('#')"));
  CHECK(holds("Id(1) AND NOT Id(2)"));
}

TEST_CASE("yacpdb analysis agrees with the keywords composers gave the Olive entries", "[yacpdb][tc]") {
  const std::string dir = cqlindex::test::shared_data("problems/yacpdb-olive/");
  ProblemFile broodings = read_problem_file(dir + "Broodings-50.olv");
  ProblemFile chest = read_problem_file(dir + "chest_test.olv");
  auto matching = [](const ProblemFile& f, const std::string& text) {
    Query q = parse_query(text);
    QueryEvaluator ev(q);
    std::vector<int> out;
    for (const Problem& p : f.problems)
      if (ev.matches(p, analyse(p))) out.push_back(p.entry.number);
    return out;
  };
  // Broodings 3, "Fourfold Zilahi, models": four twins, each finaliser captured in two other twins, four
  // model mates
  CHECK(matching(broodings, "Keyword('Zilahi') AND Keyword('Model mates')") == std::vector<int>{3});
  CHECK(matching(broodings, "Zilahi(2) = 4 AND Twins = 4") == std::vector<int>{3});
  CHECK(matching(broodings, "Models(0, *) = 4") == std::vector<int>{3});
  // chest_test 7, keyword "Model mates": both h#2.5 solutions end in model mates; so do both solutions of
  // entry 2 (Qc5# and Sc6#, checked by hand), which has no such keyword
  CHECK(matching(chest, "Keyword('Model mates')") == std::vector<int>{7});
  CHECK(matching(chest, "Models(*, *) = 2 AND Phases = 2") == std::vector<int>{2, 7});
  // chest_test 2, keyword "Allumwandlung": four promotions, one to each piece, each after one move
  CHECK(matching(chest, "Excelsior(wQ, 1) AND Excelsior(wS, 1) AND Excelsior(bB, 1) AND Excelsior(bR, 1)") ==
        std::vector<int>{2});
}
