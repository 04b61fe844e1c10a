// Every equivalence of spec/cql-precedence.txt, checked on the canonical printed tree (braces and
// parentheses around a single filter leave no trace in the tree, so equal prints mean equal parses).
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"

using namespace cqlindex::cql;

namespace {

std::string tree(const std::string& body) { return print_canonical(parse_query("cql()\n" + body)); }

void same(const std::string& a, const std::string& b) {
  INFO(a << "  vs  " << b);
  CHECK(tree(a) == tree(b));
}

}  // namespace

TEST_CASE("precedence: arithmetic and logic follow custom", "[cql][precedence]") {
  same("2+3*5", "2+(3*5)");
  same("2+3*4<4/2+1", "(2+(3*4))<((4/2)+1)");
  same("check or not mate and Q or stalemate", "check or ((not mate) and Q) or stalemate");
  same("A | ~B&Q | q", "A | ((~B)&Q) | q");
  same("1+2*3<4*5+6", "(1+(2*3))<((4*5)+6)");
  same("not A and B", "{not A} and B");
  CHECK(tree("2+3*5") != tree("(2+3)*5"));
}

TEST_CASE("precedence: set arguments of prefix filters bind at ':'", "[cql][precedence]") {
  same("light a & dark .", "{light a} & {dark .}");
  same("move from K|R", "{move from K} | R");
  same("up R|P", "{up R} | P");
  same("move to . from light a & dark .", "{move to . from {light a}} & {dark .}");
  same("pin through R|Q", "{pin through R} | Q");
  same("move from R to _ attacked by a", "{move from R to _ } attackedby a");
  same("move capture q & a", "{move capture q} & a");
}

// The precedence page calls `move from R|N to r` (and `move from K|R to _`) an error. In CQL 6.2 `to` is also
// a stand-alone filter (the destination of the last move: src/matchcomplexnode.cpp lists match_tonode), so
// the text parses as three filters. Known difference with the page, kept on CQL 6.2's side.
TEST_CASE("precedence: move from R|N to r (known difference: three filters in CQL 6.2)", "[cql][precedence]") {
  same("move from R|N to r", "{move from R} | N  to  r");
  same("move from K|R to _", "{move from K} | R  to  _");
  const std::string t = tree("move from R|N to r");
  CHECK(t.find("(ToSquare:set \"to\")") != std::string::npos);
}

TEST_CASE("precedence: numeric arguments bind just below '+'", "[cql][precedence]") {
  same("sqrt 4 + 8<9 + 5", "{sqrt {4+8}}<{9+5}");
  same("makesquare (2 + 3 3 + 4)", "makesquare ({2+3} {3+4})");
  // The page also writes `abs #Q>sqrt #r + #q ≡ (abs (#Q))>((sqrt (#r)) + (#q))`, which contradicts its own
  // rule (and `sqrt 4 + 8<9 + 5 ≡ {sqrt {4+8}}<{9+5}`). CQL 6.2's source parses the argument of sqrt at the
  // level of '+', so we follow the rule: known difference with that one example.
  same("abs #Q>sqrt #r + #q", "(abs (#Q))>(sqrt ((#r) + (#q)))");
  same("x = 1 + 2 < 4", "{x = {1 + 2}} < 4");
  same("persistent y = 2 * 3 + 1", "persistent y = {{2 * 3} + 1}");
  same("x = 3  x += 2 * 2", "x = 3  x += {2 * 2}");
  same("position 1 + 2 : check", "{position {1 + 2}} : check");
  same("- 2 + 3", "{- 2} + 3");
}

TEST_CASE("precedence: other set arguments bind just below '|'", "[cql][precedence]") {
  same("rank a1 & h8", "rank (a1 & h8)");
  same("file a1 | h8", "file (a1 | h8)");
  same("# Q|K", "#{Q|K}");
  same("power a attackedby Q", "power {a attackedby Q}");
  same("type a1 | b2", "type {a1 | b2}");
  same("square x in A|B check", "square x in {A|B} check");
  same("piece x in A|B check", "piece x in {A|B} check");
  same("between (A|B K)", "between ({A|B} K)");
  same("# _ attacked by K", "#( _ attackedby K)");
  same("_ attacked by k># _ attacked by K", "(#( _ attacked by k))>(#( _ attacked by K))");
  same("pieceid a1 | h8", "pieceid {a1 | h8}");
}

TEST_CASE("precedence: bodies take the lowest precedence", "[cql][precedence]") {
  same("sort find all check>20", "sort (find all check)>20");
  same("sort find all check>20", "sort ((find all check)>20)");
  same("sort find all Q>20", "sort (find all (Q>20))");
  CHECK(tree("sort find all Q>20") != tree("sort (find all Q)>20"));
  same("square x in A rank x<3", "square x in A (rank x<3)");
  same("find {move promote A} or check", "find {{move promote A} or check}");
  CHECK(tree("find {move promote A} or check") != tree("{find move promote A} or check"));
  same("flipcolor pin through R R attacks Q", "{flipcolor {pin through R}} R attacks Q");
  same("flipcolor check or mate", "flipcolor {check or mate}");
  same("echo (s t) s:check or t:mate", "echo (s t) {s:check or t:mate}");
  same("if check mate else stalemate or wtm", "if check mate else {stalemate or wtm}");
  same("notransform A or B", "notransform {A or B}");
}

// CQL 6.2 accepts this and only fails when it runs ("attempt to access unbound variable x"); the body of
// `square` is a single filter, so the second `x` is outside its scope. We report it when parsing.
TEST_CASE("precedence: square x in a Q attacks x N attacks x uses x out of scope", "[cql][precedence]") {
  try {
    parse_query("cql()\nsquare x in a Q attacks x N attacks x");
    FAIL("accepted");
  } catch (const CqlError& e) {
    CHECK(e.line == 2);
    CHECK(e.column == 37);
  }
  CHECK_NOTHROW(parse_query("cql()\nsquare x in a {Q attacks x N attacks x}"));
}

TEST_CASE("precedence: Unicode and ASCII forms give the same tree", "[cql][precedence][unicode]") {
  same("\u2B13 \u2654 \u2192 \u265A", "flipcolor K -> k");
  same("\u2656\u2657\u2658 \u2229 \u25B2 \u222A \u25B3", "[RBN] & a | A");
  same("\u25EDx\u220A\u2659 check", "piece x in P check");
  same("\u2200x\u220A\u25A6 \u25A1", "square all x in . _");
  same("\u22A2 \u25CE\u2659 \u2015\u2015 \u2015\u2015", "path focus P -- --");
  same("\u2219 \u2264 \u2219", "currentposition <= currentposition");
  same("#\u25A1 \u2265 3 and #\u25A1 \u2260 4", "#_ >= 3 and #_ != 4");
  same("\u2735 \u2654\u265Ah1-8", "flip [Kk]h1-8");
  same("\u2659a-h2\u00D7\u265F", "Pa-h2[x]p");
}
