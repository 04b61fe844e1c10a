// The orthodox problems of olive-gui's tests/unit (data.py + analyzers.py), converted by hand: positions,
// Popeye solutions and the counts upstream's analyzers assert. (The fairy ones -- neutral queens, Take&Make,
// rotation twins, king-less boards -- are not orthodox and are left out.)
#include <catch2/catch.hpp>

#include "engine/yacpdb/evaluator.h"
#include "engine/yacpdb/replay.h"
#include "engine/yacpdb/yaml_entries.h"

using namespace cqlindex::yacpdb;

namespace {

struct Olive {
  Problem problem;
  Analysis analysis;
  explicit Olive(const std::string& yaml) {
    auto r = read_yaml_entries(yaml, "olive.yaml");
    REQUIRE(r.errors.empty());
    REQUIRE(r.entries.size() == 1);
    problem.entry = r.entries[0];
    problem.tree = replay_solution(problem.entry);
    INFO(problem.tree.error);
    REQUIRE(problem.tree.complete);
    analysis = analyse(problem);
  }
  int64_t value(const std::string& predicate) const {
    Query q = parse_query(predicate);
    QueryEvaluator ev(q);
    return ev.value(q.root->call, problem, analysis);
  }
};

}  // namespace

TEST_CASE("yacpdb olive unit: Zilahi with pawns (h#5.5)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic: {white: [Kd8, Ph2, Pf2], black: [Kd5, Rd2]}
stipulation: h#5.5
solution: |
  1...f2-f4   2.Rd2*h2 f4-f5  3.Kd5-e4 f5-f6 4.Ke4-f3 f6-f7 5.Kf3-g2 f7-f8=Q   6.Kg2-h1 Qf8-f1 #
  1...h2-h3   2.Rd2*f2 h3-h4   3.Kd5-e6 h4-h5   4.Ke6-f7 h5-h6   5.Kf7-f8 h6-h7   6.Rf2-f7 h7-h8=Q #
)");
  CHECK(o.value("ZilahiPiece(wP, true)") == 2);
  CHECK(o.value("Zilahi(2)") == 1);
  CHECK(o.value("Excelsior(wQ, 5)") == 1);
  CHECK(o.value("Excelsior(wQ, 6)") == 1);
}

TEST_CASE("yacpdb olive unit: Zilahi(2) = 4 across twins (z22)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic:
  white: [Ka2, Rh1, Bg8, Sf6, Sd4, Pe6]
  black: [Ke5, Qc8, Re8, Bd6, Bb5, Sg7, Ph5, Pf5, Pf4, Pe4, Pd7, Pc3]
stipulation: h#2
twins: {b: Move h1 a5}
solution: |
  a)
  1.Sg7*e6 Rh1*h5   2.Se6*d4 Sf6-g4 #
  1.Re8*e6 Rh1-e1   2.Re6*f6 Sd4-f3 #

  b) wRh1-->a5
  1.Qc8-c5 e6-e7   2.Qc5*d4 Sf6*d7 #
  1.Qc8-d8 e6*d7   2.Qd8*f6 Sd4-c6 #
)");
  CHECK(o.value("Zilahi(2)") == 4);
  CHECK(o.value("Twins") == 2);
  CHECK(o.value("Phases") == 4);
}

TEST_CASE("yacpdb olive unit: closed walk, linear cycle and traceback (caillaudtempobishop)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic:
  white: [Kh1, Bh5, Be1, Pg6, Pg5, Pg4, Pf2, Pe3, Pc3]
  black: [Kh3, Ph4, Pg7, Pf3, Pe4, Pc6, Pc4, Pa7]
stipulation: h#9
solution:
  1.a7-a5 Be1-d2   2.a5-a4 Bd2-c1   3.a4-a3 Bc1-b2   4.a3-a2 Bb2-a3
  5.a2-a1=R + Ba3-c1   6.Ra1-a2 Kh1-g1   7.Ra2*f2 Bc1-d2   8.Kh3-g3 Bd2-e1
  9.h4-h3 Be1*f2 #
)");
  CHECK(o.value("ClosedWalk(wB, 7, false)") == 1);
  CHECK(o.value("LinearCycle(wB, 3, false)") == 1);
  CHECK(o.value("TraceBack(bP, 1, false)") == 1);
}

TEST_CASE("yacpdb olive unit: Platzwechsel of king and rook (pw2)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic: {white: [Kh8, Rg8, Bc6, Pe5], black: [Ke7, Pe6, Pc7]}
stipulation: '#4'
solution: |
  1.Kh8-h7 ! zugzwang.
        1...Ke7-f7
            2.Rg8-h8 zugzwang.
                2...Kf7-e7
                    3.Kh7-g8 zugzwang.
                        3...Ke7-d8
                            4.Kg8-f7 #
)");
  CHECK(o.value("PW(2)") >= 1);
  CHECK(o.value("PWPiece(wK)") >= 1);
  CHECK(o.value("PWPiece(wR)") >= 1);
}

TEST_CASE("yacpdb olive unit: CornerToCorner(wK) (c2c)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic:
  white: [Ka1, Pg2, Pe2]
  black: [Kc1, Rc4, Bf4, Ba6, Sd5, Sb6, Pg3, Pf5, Pe5, Pe3, Pb3, Pa3]
stipulation: h#8
solution: |
  1.Kc1-d2 Ka1-b1 2.Kd2-c3 Kb1-c1 3.Kc3-d4+ Kc1-d1 4.Kd4-e4 Kd1-e1 {
  } 5.Rc4-d4 Ke1-f1 6.Sb6-c4 Kf1-g1 7.Sc4-d2 Kg1-h1 8.Sd2-f3 g2*f3#
)");
  CHECK(o.value("CornerToCorner(wK)") == 1);
}

TEST_CASE("yacpdb olive unit: Albino(wP) = 2 (doublealbino)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic:
  white: [Kc6, Qb5, Rd1, Bb6, Ph2, Pg2, Pd2, Pb2]
  black: [Ke5, Qb4, Rb7, Ra6, Ba4, Sc5, Sc3, Ph3, Pf6, Pf3, Pe6, Pe3, Pb3]
stipulation: h#2
solution: |
  1.Qb4-f4 g2-g4   2.Sc3-e4 d2-d4 #
  1.Ke5-d4 g2*f3   2.e6-e5 d2*c3 #
  1.Ke5-f4 g2*h3   2.Sc5-e4 d2*e3 #
  1.Ke5-e4 g2-g3   2.Sc5-d7 d2-d3 #
)");
  CHECK(o.value("Albino(wP)") == 2);
  CHECK(o.value("Star(*)") == 0);
}

TEST_CASE("yacpdb olive unit: TraceBack(wB, 3, true) (longtraceback)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic: {white: [Ka6, Bb2], black: [Ka8, Qb3, Sc3, Pe5]}
stipulation: h#9
solution: |
  1.Qb3-b8 Ka6-a5   2.Ka8-b7 Bb2-a3   3.Kb7-c6 Ba3-d6   4.Kc6-d5 Bd6*b8  {
  } 5.Kd5-c4 Bb8-d6   6.Kc4-b3 Bd6-a3   7.Kb3-a2 Ka5-b4   8.Ka2-a1 Kb4-b3  {
  } 9.Sc3-b1 Ba3-b2 #
)");
  CHECK(o.value("TraceBack(wB, 3, true)") == 1);
}

TEST_CASE("yacpdb olive unit: Twins = 3 and Phases = 4 with set play (twinssetplay)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic: {white: [Kh1, Rh4, Rc1], black: [Kd2, Pe3, Pe2]}
stipulation: h#2
options: [SetPlay]
twins: {b: Move h4 g1, c: Move h4 h3}
solution: |
  a) 1...Rc1-c4   2.Kd2-d3 Rh4-d4 #
  1.e2-e1=S Rh4-c4   2.Se1-d3 Rc4-c2 #
  b) wRh4-->g1 1.e2-e1=R Rg1-f1   2.Re1-e2 Rf1-d1 #
  c) wRh4-->h3 1.e2-e1=B Rc1-c3   2.e3-e2 Rh3-d3 #
)");
  CHECK(o.value("Twins") == 3);
  CHECK(o.value("Phases") == 4);
}

TEST_CASE("yacpdb olive unit: Zilahi(5) (z5x1)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic:
  white: [Kb2, Rb7, Be5, Bb3, Sf3, Sd3]
  black: [Kc6, Re3, Sa5, Pf6, Pe4, Pa6]
stipulation: h#2
solution: |
  1.Re3*f3 Bb3-d1   2.e4-e3 Bd1*f3 #
    1.e4*d3 Rb7-b6 +   2.Kc6-c5 Be5-d4 #
    1.Sa5*b3 Rb7-c7 +   2.Kc6-d5 Sd3-f4 #
    1.Sa5*b7 Be5-c7   2.Kc6-b5 Sf3-d4 #
    1.f6*e5 Sf3*e5 +   2.Kc6-d6 Rb7-d7 #
)");
  CHECK(o.value("Zilahi(5)") >= 1);
  CHECK(o.value("ZilahiPiece(wR, true)") == 1);
  CHECK(o.value("ZilahiPiece(wB, true)") == 2);
  CHECK(o.value("ZilahiPiece(wS, true)") == 2);
}

TEST_CASE("yacpdb olive unit: Zilahi 3x2 (z3x2-ortho)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic:
  white: [Ka3, Rb7, Ra5, Bd2, Ba2, Sd4, Pg5, Pf4, Pd5, Pb5, Pa6]
  black: [Kd6, Qc3, Rc2, Ra1, Sc1, Sb3, Pg6, Pf6, Pc5, Pa4]
stipulation: h#2
solution: |
  1.Qc3*d2 b5-b6 {(a7?)} 2.Sb3*a5 Sd4-b5 #
  1.Qc3*d4 a6-a7 {(f5?)} 2.Sb3*d2 Ra5-a6 #
  1.Qc3*a5 f4-f5 {(b6?)} 2.Sb3*d4 Bd2-f4 #
)");
  CHECK(o.value("Zilahi(3)") == 2);
  CHECK(o.value("Zilahi(2)") == 3);
  CHECK(o.value("ZilahiPiece(wR, true)") == 4);
  CHECK(o.value("ZilahiPiece(wB, true)") == 4);
  CHECK(o.value("ZilahiPiece(wS, true)") == 4);
}

TEST_CASE("yacpdb olive unit: ZilahiPiece outside a cycle in help play (fox)", "[yacpdb][olive]") {
  Olive o(R"(
algebraic: {white: [Ke1, Ra5, Bg5, Se2, Pf2], black: [Ke4, Bd8, Sg4, Pg6, Pe6, Pb4]}
stipulation: h#2
twins: {b: Remove b4}
solution: |
  a) 1.Bd8*a5 f2-f4   2.Ke4-f5 Se2-g3 #
  b) -bPb4 1.Bd8*g5 f2-f3 +   2.Ke4-e3 Ra5-a3 #
)");
  CHECK(o.value("ZilahiPiece(wR, true)") >= 1);
  CHECK(o.value("Zilahi(*)") == 0);
}

namespace {

// #2 with a castling defence
constexpr const char* kCastling = R"(
algebraic: {white: [Ke2, Qh1, Sd5, Pe6], black: [Ke8, Rh8, Sh7]}
stipulation: '#2'
solution: |
  1...Sh7-g5
          2.Qh1*h8 #

   1.Qh1-a1 ! threat:
          2.Qa1-a8 #
      1...Ke8-d8
          2.Qa1-a8 #
      1...0-0
          2.Sd5-e7 #
      1...Ke8-f8
          2.Qa1*h8 #
)";

// #2 twinned by moving two pieces
constexpr const char* kComplexTwin = R"(
algebraic:
  white: [Kg1, Qc7, Rf5, Rf3, Bc8, Bc1, Sg5, Sd6, Pc5, Pb3, Pb2]
  black: [Kd4, Rb8, Bh1, Bf4, Sg7, Sg6, Pg3, Pe7, Pd5, Pd3, Pa3]
stipulation: '#2'
twins: {b: Move g1 a1 move e7 b4}
solution: |
  a)
      1.Bc8-e6 ! threat:
            2.Rf5*d5 #
        1...Sg6-e5  {(A)} 2.Rf5*f4 #
        1...Bh1*f3  {(B)} 2.Sg5*f3 #
        1...Sg7*f5  {(C)} 2.Sd6*f5 #
        1...a3*b2   {(D)} 2.Bc1*b2 #
        1...Bf4-e3 +{(E)} 2.Bc1*e3 #

  b) wKg1-->a1  bPe7-->b4

    1.Bc8-a6 ! threat:
            2.Rf3*d3 #
        1...Sg6-e5  {(B)} 2.Rf5*f4 #
        1...Bh1*f3  {(C)} 2.Sg5*f3 #
        1...Sg7*f5  {(D)} 2.Sd6*f5 #
        1...a3*b2 + {(E)} 2.Bc1*b2 #
        1...Bf4-e3  {(A)} 2.Bc1*e3 #
)";

// #2 with set play: castling, e.p., promotions (Valladao)
constexpr const char* kValladao = R"(
algebraic:
  white: [Ke1, Qc1, Rh8, Rh1, Bh3, Ba1, Sd1, Sb5, Pg7, Pg6, Pg5, Pd2, Pc7, Pc2]
  black: [Ke7, Rh7, Be8, Ph4, Pf7, Pd5, Pb2, Pa3, Pa2]
stipulation: '#2'
options: [SetPlay]
solution: |
  1...b2-b1=Q
         2.Ba1-f6 #
     1...b2-b1=B
         2.Qc1*a3 #
         2.Ba1-f6 #
     1...b2*c1=S
         2.Ba1-f6 #
     1...b2*a1=Q
         2.Qc1*a3 #
  1.0-0 ! threat:
         2.Rf1-e1 #
     1...b2*c1=S
         2.Ba1-f6 #
     1...f7-f5
         2.g5*f6 ep. #
     1...f7*g6
         2.g7-g8=S #
     1...Be8-d7
         2.Rf1*f7 #
)";

// #2 with set play
constexpr const char* kSetPlay = R"(
algebraic: {white: [Kc6, Qf3, Sb5, Pa3], black: [Kc4, Se4, Pd4]}
stipulation: '#2'
solution: |
  1...d4-d3 2.Qf3-f7 #
  1...Se4-f2 {(S~)} 2.Sb5-d6 # {(A)}
   but 1...Se4-c3 !

  1.Qf3-d1 ! zugzwang.
     1...d4-d3  2.Qd1-a4 #
     1...Se4-f2  {(S~)} 2.Qd1-c2 #
     1...Se4-c3 2.Sb5-d6 # {(A)}
)";

// h#2.5 with four solutions
constexpr const char* kHelpmate = R"(
algebraic:
  black: [Ph5, Sa5, Rh6, Ke6, Ph7, Rb7, Qf8, Bd8]
  white: [Re2, Pd3, Pf4, Be4, Be5, Ka6]
stipulation: h#2.5
solution: "1...Be5-a1   2.Qf8*f4 Re2-b2   3.Ke6-e5 + Rb2-b6 # \n1...Be5-h8   2.Bd8-f6\
  \ f4-f5 +   3.Ke6-f7 Be4-d5 # \n1...Be4-h1   2.Qf8-c5 Re2-g2   3.Ke6-d5 + Rg2-g6\
  \ # \n1...Re2-g2   2.Bd8-b6 Be4-d5 +   3.Ke6-f5 Rg2-g5 #"
)";

}  // namespace

TEST_CASE("yacpdb olive unit: castling, complex twins, Valladao, promotions analyse", "[yacpdb][olive]") {
  SECTION("castling") {
    Olive castling(kCastling);
    CHECK(castling.value("Phases") == 2);
  }
  SECTION("complex twins") {
    Olive twin(kComplexTwin);
    CHECK(twin.value("Twins") == 2);
    CHECK(twin.value("Phases") == 2);
  }
  SECTION("Valladao and promotions") {
    Olive valladao(kValladao);
    CHECK(valladao.value("Phases") == 2);
    CHECK(valladao.value("Excelsior(*, 1)") == 6);  // b1=Q, b1=B, xc1=S, xa1=Q, xc1=S, g8=S
  }
  // the guide: a direct #2 with set play has 2 phases; an h#2.5 with 4 solutions has 4
  SECTION("set play counts as a phase") {
    Olive setplay(kSetPlay);
    CHECK(setplay.value("Phases") == 2);
  }
  SECTION("a helpmate's solutions are its phases") {
    Olive helpmate(kHelpmate);
    CHECK(helpmate.value("Phases") == 4);
  }
}
