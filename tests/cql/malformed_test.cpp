// Malformed queries: each must be rejected with a CqlError at the expected line:column (1-based, code points).
// Positions follow CQL 6.2: an error names the token where parsing could not go on (end of file for a
// truncated query, the token after a just-parsed argument of the wrong type); lexer errors name the character.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "engine/cql/query.h"

using namespace cqlindex::cql;

namespace {

struct Malformed {
  const char* source;
  int line, column;
};

// truncated, unbalanced, unknown/removed keywords, wrong argument types, header errors, bad square specs,
// bad Unicode, run-time errors of CQL 6.2 that we report at parse time
const Malformed kCases[] = {
    {"cql()\n{check", 2, 7},
    {"cql()\ncheck}", 2, 6},
    {"cql()\n)", 2, 1},
    {"cql()\n(check", 2, 7},
    {"cql()\n()", 2, 2},
    {"cql()\ncheck and", 2, 10},
    {"cql()\ncheck or", 2, 9},
    {"cql()\nnot", 2, 4},
    {"cql()\nA | check wtm", 2, 11},
    {"cql()\nA & 1 wtm", 2, 7},
    {"cql()\nA attacks check wtm", 2, 17},
    {"cql()\n~check wtm", 2, 8},
    {"cql()\n# check wtm", 2, 3},
    {"cql()\nmove from", 2, 10},
    {"cql()\nmove from check", 2, 11},
    {"cql()\nmove to", 2, 8},
    {"cql()\nmove capture", 2, 13},
    {"cql()\nmove promote e4", 2, 14},
    {"cql()\nmove promote", 2, 13},
    {"cql()\nmove count", 2, 11},
    {"cql()\nmove legal previous", 2, 20},
    {"cql()\nmove from K from Q", 2, 18},
    {"cql()\nmove null promote Q", 2, 20},
    {"cql()\nmove legal capture a", 2, 21},
    {"cql()\nmove o-o castle", 2, 10},
    {"cql()\npin from", 2, 9},
    {"cql()\npin from K from R", 2, 12},
    {"cql()\nlight", 2, 6},
    {"cql()\nup", 2, 3},
    {"cql()\nup 1 2", 2, 7},
    {"cql()\nray (K)", 2, 1},
    {"cql()\nray up (K check)", 2, 16},
    {"cql()\nxray attack (K Q)", 2, 6},
    {"cql()\nbetween (K)", 2, 11},
    {"cql()\nbetween K Q", 2, 9},
    {"cql()\nsquare", 2, 7},
    {"cql()\nsquare x", 2, 9},
    {"cql()\nsquare x in", 2, 12},
    {"cql()\nsquare x in A", 2, 14},
    {"cql()\npiece x in A", 2, 13},
    {"cql()\npiece all", 2, 10},
    {"cql()\nfind", 2, 5},
    {"cql()\nfind all 2 check", 2, 12},
    {"cql()\necho s t check", 2, 6},
    {"cql()\necho (s s) check", 2, 10},
    {"cql()\necho (s t", 2, 10},
    {"cql()\nsort min check", 2, 10},  // CQL 6.2 wants a description after min (repro-2 R12)
    {"cql()\nsort \"x\" check", 2, 1},
    {"cql()\nflipcolor", 2, 10},
    {"cql()\nif", 2, 3},
    {"cql()\nif check", 2, 9},
    {"cql()\nif check then", 2, 14},
    {"cql()\nresult 1-1", 2, 8},
    {"cql()\nresult", 2, 7},
    {"cql()\nplayer white \"a*\"", 2, 14},
    {"cql()\ntag", 2, 4},
    {"cql()\nline check", 2, 6},
    {"cql()\nline -->", 2, 9},
    {"cql()\nline --> check --> 3", 2, 21},
    {"cql()\nline --> check <-- mate", 2, 16},
    {"cql()\nline <-- check nestban", 2, 16},
    {"cql()\nline nestban <-- check", 2, 18},
    {"cql()\npath", 2, 5},
    {"cql()\npath singlecolor focus A --", 2, 24},
    {"cql()\npath piecepath --", 2, 16},
    {"cql()\npath secondary --", 2, 16},
    {"cql()\npath -- -- * *", 2, 14},
    {"cql()\nabs check", 2, 5},
    {"cql()\nsqrt \"a\"", 2, 6},
    {"cql()\nmax(1)", 2, 7},
    {"cql()\nmax(1 \"a\")", 2, 10},
    {"cql()\nmakesquare 1 2", 2, 14},
    {"cql()\nmakesquare (1", 2, 14},
    {"cql()\nchild (check)", 2, 8},
    {"cql()\nposition check", 2, 10},
    {"cql()\nlca (check check)", 2, 12},
    {"cql()\ndistance (currentposition)", 2, 26},
    {"cql()\nx += 1", 2, 3},
    {"cql()\nx = check", 2, 10},
    {"cql()\nx = 1 x = A", 2, 9},
    {"cql()\nunbind y", 2, 8},
    {"cql()\nisbound", 2, 8},
    {"cql()\nstr \"a\" ~~ check", 2, 12},
    {"cql()\n1 < check", 2, 10},
    {"cql()\nA [<] B", 2, 8},
    {"cql()\ncheck : mate", 2, 7},
    {"cql()\nparent : ", 2, 10},
    {"cql()\nany", 2, 1},
    {"cql()\nA on B", 2, 3},
    {"cql()\nlightsquares", 2, 1},
    {"cql()\npiecepath", 2, 1},
    {"cql()\natomic piece x = A", 2, 14},
    {"cql()\npersistent", 2, 11},
    {"cql()\nsettag \"a\"", 2, 8},
    {"cql()\nindexof (\"a\")", 2, 13},
    {"cql()\nfunction f(x) {x", 2, 17},
    {"cql()\nfunction f(x) {x} f(1 2)", 2, 19},
    {"cql()\nfunction f(x) {x} f", 2, 20},
    {"cql()\nconsecutivemoves (x y)", 2, 19},
    {"cql()\nhhdb", 2, 5},
    {"cql()\nsimilarposition", 2, 16},
    {"cql()\nfen \"x/y\"", 2, 5},
    {"check", 1, 1},
    {"cql", 1, 4},
    {"cql(", 1, 5},
    {"cql(foo)", 1, 5},
    {"cql(gamenumber)", 1, 15},
    {"cql(matchcount x)", 1, 16},
    {"cql(result 2-0)", 1, 12},
    {"cql(matchstring 3)", 1, 17},
    {"cql(input)", 1, 10},
    {"cql()", 1, 6},
    {"cql() cql() check", 1, 7},
    {"cql()\nK e1 z9", 2, 6},
    {"cql()\nKz9", 2, 1},
    {"cql()\n[a1,z9]", 2, 1},
    {"cql()\n[a9]", 2, 1},
    {"cql()\nh-a1", 2, 1},
    {"cql()\n[a1,,b2]", 2, 1},
    {"cql()\n{1,", 2, 3},
    {"cql()\n. {3,1}", 2, 3},
    {"cql()\ncheck ― mate", 2, 7},
    {"cql()\ncheck ☃", 2, 7},
    {"cql()\ncheck \xff mate", 2, 7},
    {"cql()\n\u2015\u2015()", 2, 4},
    {"cql()\ncheck \x80", 2, 7},
    {"cql()\ncheck \xEF\xBB\xBF", 2, 7},
    {"check\ncql()", 1, 1},
    {"// header comes first\nmate cql() check", 2, 1},
    {"cql()\n\"abc", 2, 1},
    {"cql()\n/* open comment", 2, 1},
    {"cql()\nA ← check wtm", 2, 11},
    {"cql()\n∀x check", 2, 4},
    {"cql()\nx∊check wtm", 2, 3},
    {"cql()\n⊢", 2, 2},
    {"cql()\n\\q", 2, 1},
    {"cql()\ncheck @ mate", 2, 7},
    {"cql()\n100000000000", 2, 1},
    // refused by CQL 6.2 (random-differential/repro B18-B26, set-A): at the token CQL names
    {"cql()\ndictionary local D D[1]=1", 2, 12},          // B18: the kind comes before 'dictionary'
    {"cql()\ndictionary persistent D", 2, 12},
    {"cql()\nsort 5", 2, 6},                               // B20: no number after sort
    {"cql()\nsort quiet \"d\" 5", 2, 16},
    {"cql()\nsort (7)", 2, 6},
    {"cql()\np-- (N attackedby k)", 2, 5},                 // B21: no space between -- and (
    {"cql()\npath focus A a2-8-- ([Rrpn]e1--a)", 2, 21},
    {"cql()\npath Q--[Aa] (r--k A--e7)", 2, 20},          // B21: one filter in ( ) after a path dash
    {"cql()\ndictionary D D[typename Ke1] = 1", 2, 25},   // B22: `Ke1]` is a word
    {"cql()\ndictionary D D[#A] = 1", 2, 17},
    {"cql()\nRg1-12", 2, 1},                               // B26: `Rg1-12` is a word
    {"cql(matchcount 2 sort matchcount 1 100)\ncheck", 1, 18},  // B23
    {"cql(matchcount 2 matchcount 1 100)\ncheck", 1, 18},
    {"cql()\npiece T in A check\nmove capture T", 3, 14},
    {"cql()\nsquare x in a Q attacks x N attacks x", 2, 37},
};

}  // namespace

TEST_CASE("malformed queries are rejected at the expected line:column", "[cql][errors]") {
  STATIC_REQUIRE(sizeof(kCases) / sizeof(kCases[0]) >= 100);
  for (const Malformed& m : kCases) {
    INFO(m.source);
    bool threw = false;
    try {
      parse_query(m.source);
    } catch (const CqlError& e) {
      threw = true;
      INFO(e.what());
      CHECK(e.line == m.line);
      CHECK(e.column == m.column);
    }
    CHECK(threw);
  }
}

TEST_CASE("an error is printed as FILE:LINE:COL, the line and a caret", "[cql][errors]") {
  const std::string src = "cql()\n  move from check";
  try {
    parse_query(src);
    FAIL("accepted");
  } catch (const CqlError& e) {
    CHECK(format_error(e, "q.cql", src) ==
          "q.cql:2:13: Expected a set filter following 'from' in move filter (at 'check')\n"
          "  move from check\n"
          "            ^\n");
  }
  const std::string uni = "cql()\n\u2B13 \u2654 \u2603";
  try {
    parse_query(uni);
    FAIL("accepted");
  } catch (const CqlError& e) {
    CHECK(e.line == 2);
    CHECK(e.column == 5);  // code points, not bytes
    CHECK(format_error(e, "u.cql", uni).find("\n    ^\n") != std::string::npos);
  }
}
