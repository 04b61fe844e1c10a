// The YACPDB query parser: grammar, precedence, parameter domains, canonical printing, error columns.
#include "engine/yacpdb/query_parser.h"

#include <catch2/catch.hpp>

using namespace cqlindex::yacpdb;

namespace {

std::string canon(const std::string& q) { return to_string(parse_query(q)); }

// The column and message of the error q raises; fails the test when q parses.
std::pair<int, std::string> error_of(const std::string& q) {
  try {
    parse_query(q);
  } catch (const QueryError& e) {
    return {e.column(), e.message()};
  }
  FAIL("query parsed but should not: " << q);
  return {0, ""};
}

void check_error(const std::string& q, int column, const std::string& fragment) {
  INFO("query: " << q);
  auto [col, msg] = error_of(q);
  INFO("message: " << msg);
  CHECK(col == column);
  CHECK(msg.find(fragment) != std::string::npos);
}

}  // namespace

TEST_CASE("yacpdb query: the guide's and research's example queries parse", "[yacpdb][query]") {
  CHECK(canon("With(\"wR wR\") AND Stip(\"#2\")") == "With(\"wR wR\") AND Stip(\"#2\")");
  CHECK(canon("ClosedWalk(wR, 4, *) AND NOT Fairy") == "ClosedWalk(wR, 4, *) AND NOT Fairy");
  CHECK(canon("Zilahi(2) = 1 AND Phases > 1") == "Zilahi(2) = 1 AND Phases > 1");
  CHECK(canon("Option(*) = 0") == "Option(*) = 0");
  CHECK(canon("Matrix(\"wKa1 nNHh8\")") == "Matrix(\"wKa1 nNHh8\")");
  CHECK(canon("MatrixExtended('bKg3 wKc2', false, false, 'Mirror')") ==
        "MatrixExtended(\"bKg3 wKc2\", false, false, Mirror)");
  CHECK(canon("ReprintType(\"solving event\")") == "ReprintType(\"solving event\")");
  CHECK(canon("TraceBack(wR, 1, true)") == "TraceBack(wR, 1, true)");
  CHECK(canon("ClosedWalk(wB, 7, false) AND LinearCycle(wB, 3, false)") ==
        "ClosedWalk(wB, 7, false) AND LinearCycle(wB, 3, false)");
  CHECK(canon("PW(2) AND PWPiece(wK) AND PWPiece(wR)") == "PW(2) AND PWPiece(wK) AND PWPiece(wR)");
  CHECK(canon("Twins = 27") == "Twins = 27");
  CHECK(canon("ZilahiPiece(wR, true)") == "ZilahiPiece(wR, true)");
  CHECK(canon("PCount(w)=56") == "PCount(w) = 56");
  CHECK(canon("Stip('hs=8')") == "Stip(\"hs=8\")");
  CHECK(canon("Text('%dedicated to%mother%')") == "Text(\"%dedicated to%mother%\")");
  CHECK(canon("ArealCycle(wR, *, true) AND TraceBack(wR, 1, *)") == "ArealCycle(wR, *, true) AND TraceBack(wR, 1, *)");
  CHECK(canon("Star(bK) AND NOT Wheel(*)") == "Star(bK) AND NOT Wheel(*)");
  CHECK(canon("PW(2) OR FourCorners(wQ)") == "PW(2) OR FourCorners(wQ)");
  CHECK(canon("With('wR wR') AND Stip('h#1')") == "With(\"wR wR\") AND Stip(\"h#1\")");
  CHECK(canon("Models(0, false) > 0") == "Models(0, false)");
  CHECK(canon("Excelsior(wS, 5)") == "Excelsior(wS, 5)");
  CHECK(canon("HundredDollar") == "HundredDollar");
  CHECK(canon("Entity(author, 'Loyd, Samuel')") == "Entity(author, \"Loyd, Samuel\")");
  CHECK(canon("PublishedAfter(2009-02)") == "PublishedAfter(2009-02)");
  CHECK(canon("Id(412003)") == "Id(412003)");
}

TEST_CASE("yacpdb query: every predicate of the catalog parses with wildcards", "[yacpdb][query]") {
  for (const PredicateInfo& p : all_predicates()) {
    std::string q(p.name);
    if (!p.params.empty()) {
      q += '(';
      for (size_t i = 0; i < p.params.size(); ++i) q += i ? ", *" : "*";
      q += ')';
    }
    INFO(q);
    Query parsed = parse_query(q);
    CHECK(parsed.root->call.info->id == p.id);
    CHECK(parsed.root->call.params.size() == p.params.size());
    for (const Param& param : parsed.root->call.params) CHECK(param.wildcard);
    CHECK(to_string(parsed) == q);
  }
  CHECK(all_predicates().size() == 39);
}

TEST_CASE("yacpdb query: precedence NOT > AND > OR, left to right", "[yacpdb][query]") {
  Query q = parse_query("NOT Fairy AND Phases");
  REQUIRE(q.root->kind == Expr::Kind::And);
  CHECK(q.root->children[0]->kind == Expr::Kind::Not);

  q = parse_query("Fairy OR Phases AND Twins");
  REQUIRE(q.root->kind == Expr::Kind::Or);
  REQUIRE(q.root->children.size() == 2);
  CHECK(q.root->children[1]->kind == Expr::Kind::And);

  // NOT binds to the whole comparison: NOT P > 2 is NOT (P > 2).
  q = parse_query("NOT Phases > 2");
  REQUIRE(q.root->kind == Expr::Kind::Not);
  CHECK(q.root->children[0]->value == 2);

  CHECK(canon("(Fairy OR Phases) AND Twins") == "(Fairy OR Phases) AND Twins");
  CHECK(canon("Fairy OR (Phases AND Twins)") == "Fairy OR Phases AND Twins");
  CHECK(canon("NOT (Fairy AND Twins)") == "NOT (Fairy AND Twins)");
  CHECK(canon("NOT NOT Fairy") == "NOT NOT Fairy");
  CHECK(canon("((Fairy))") == "Fairy");
  // nested ANDs/ORs flatten
  q = parse_query("Fairy AND (Phases AND Twins) AND HundredDollar");
  CHECK(q.root->kind == Expr::Kind::And);
  CHECK(q.root->children.size() == 4);
  q = parse_query("Fairy OR Phases OR Twins");
  CHECK(q.root->children.size() == 3);
}

TEST_CASE("yacpdb query: keywords are case-insensitive whole words", "[yacpdb][query]") {
  CHECK(canon("not Fairy and Phases or Twins") == "NOT Fairy AND Phases OR Twins");
  CHECK(canon("Not Fairy aNd Phases Or Twins") == "NOT Fairy AND Phases OR Twins");
  // A bare value that starts with a keyword stays one value (upstream splits it).
  CHECK(canon("Author(Orlov)") == "Author(\"Orlov\")");
  CHECK(canon("Author(Andersson)") == "Author(\"Andersson\")");
  CHECK(canon("Keyword(Nothing)") == "Keyword(\"Nothing\")");
}

TEST_CASE("yacpdb query: comparisons and INT", "[yacpdb][query]") {
  Query q = parse_query("Phases");
  CHECK(q.root->cmp == Cmp::Greater);
  CHECK(q.root->value == 0);
  q = parse_query("Phases = 0");
  CHECK(q.root->cmp == Cmp::Equal);
  CHECK(q.root->value == 0);
  q = parse_query("Phases<3");
  CHECK(q.root->cmp == Cmp::Less);
  CHECK(q.root->value == 3);
  CHECK(canon("Phases   >   1") == "Phases > 1");
  CHECK(canon("Phases > 0") == "Phases");
  CHECK(canon("Phases = 007") == "Phases = 7");
  CHECK(canon("PW(0)") == "PW(0)");
}

TEST_CASE("yacpdb query: strings quoted or bare", "[yacpdb][query]") {
  CHECK(canon("Author('Loyd, Samuel')") == "Author(\"Loyd, Samuel\")");
  CHECK(canon("Author(\"O'Keefe, J.\")") == "Author(\"O'Keefe, J.\")");
  CHECK(canon("Text('say \"hi\"')") == "Text('say \"hi\"')");
  // bare values are trimmed and may hold spaces, '#', '=', TitleCase words
  CHECK(canon("Stip( #2 )") == "Stip(\"#2\")");
  CHECK(canon("Keyword(Zilahi)") == "Keyword(\"Zilahi\")");
  CHECK(canon("Keyword(Model mates)") == "Keyword(\"Model mates\")");
  CHECK(canon("Stip(h=3)") == "Stip(\"h=3\")");
  CHECK(canon("TraceBack(wB , 3 , true)") == "TraceBack(wB, 3, true)");
  CHECK(canon("MatrixExtended('wKa1', true, false, Mirror)") == "MatrixExtended(\"wKa1\", true, false, Mirror)");
  // a quoted '*' is the wildcard too (upstream compares the value)
  Query q = parse_query("Author('*')");
  CHECK(q.root->call.params[0].wildcard);
  // UTF-8 passes through
  CHECK(canon("Author('Јаневски, Живко')") == "Author(\"Јаневски, Живко\")");
  // the empty quoted string is a value
  CHECK(canon("Text('')") == "Text(\"\")");
}

TEST_CASE("yacpdb query: parameter domains", "[yacpdb][query]") {
  Query q = parse_query("ClosedWalk(bS, 4, TRUE)");
  const auto& ps = q.root->call.params;
  CHECK(ps[0].piece == PieceSpec{'b', "S"});
  CHECK(ps[1].integer == 4);
  CHECK(ps[2].boolean);
  // N is accepted as the knight
  CHECK(canon("Star(wN)") == "Star(wS)");
  CHECK(canon("Star(bn)") == "Star(bS)");
  // fairy codes and neutral colour are valid syntax
  CHECK(canon("Star(nNH)") == "Star(nNH)");
  CHECK(canon("Star(wG)") == "Star(wG)");
  CHECK(canon("Star(bB2)") == "Star(bB2)");
  CHECK(canon("PCount(b)") == "PCount(b)");
  CHECK(canon("PCount(N)") == "PCount(n)");
  CHECK(canon("Entity(Tourney, x)") == "Entity(tourney, \"x\")");
  CHECK(canon("MatrixExtended('wKa1', *, *, mirror)") == "MatrixExtended(\"wKa1\", *, *, Mirror)");
  CHECK(canon("PublishedAfter(1999)") == "PublishedAfter(1999)");
  CHECK(canon("PublishedAfter('2000-02-29')") == "PublishedAfter(2000-02-29)");
  CHECK(canon("Id('12')") == "Id(12)");
  CHECK(canon("With('wR  wR\tbK')") == "With(\"wR  wR\tbK\")");
}

TEST_CASE("yacpdb query: the canonical text parses back to itself", "[yacpdb][query]") {
  const char* queries[] = {
      "not (Fairy or Twins) and Phases = 2 or Stip('#2')",
      "With(\"wR wR\") AND (Stip(\"#2\") OR Stip('h#2')) AND NOT Option(*) > 1",
      "Author(\"O'Hara\") OR Text('a \"b\"')",
      "ClosedWalk(wR, 4, *) < 3 AND NOT NOT (Zilahi(2) = 1 OR Models(*, true))",
  };
  for (const char* q : queries) {
    std::string once = canon(q);
    INFO(q << " -> " << once);
    CHECK(canon(once) == once);
  }
}

TEST_CASE("yacpdb query: syntax errors name the column and what was expected", "[yacpdb][query]") {
  check_error("", 1, "expected a predicate, NOT or '('");
  check_error("   ", 4, "expected a predicate, NOT or '('");
  check_error("Fairy AND", 10, "expected a predicate, NOT or '(' but found the end of the query");
  check_error("Fairy OR OR Twins", 10, "but found 'OR'");
  check_error("AND Fairy", 1, "but found 'AND'");
  check_error("NOT", 4, "expected a predicate");
  check_error("Fairy Twins", 7, "expected AND, OR or the end of the query but found 'Twins'");
  check_error("(Fairy", 7, "to close the '(' at column 1");
  check_error("(Fairy OR Twins", 16, "expected AND, OR or ')'");
  check_error("Fairy)", 6, "expected AND, OR or the end of the query but found ')'");
  check_error("(Fairy) > 1", 9, "a comparison can only follow a predicate");
  check_error("Phases >", 9, "expected a non-negative integer after '>'");
  check_error("Phases > -1", 10, "expected a non-negative integer");
  check_error("Phases >= 1", 9, "the comparisons are >, < and = only");
  check_error("Phases > 1x", 10, "expected a non-negative integer");
  check_error("Phases > 99999999999", 10, "too large");
  check_error("Phases > 1 2", 12, "expected AND, OR");
  check_error("42", 1, "expected a predicate");
  check_error("#2", 1, "expected a predicate");
  check_error("Fairy && Twins", 7, "expected AND, OR");
}

TEST_CASE("yacpdb query: unknown predicates and arity", "[yacpdb][query]") {
  check_error("Foo", 1, "unknown predicate 'Foo'");
  check_error("Fairy AND stip('#2')", 11, "did you mean 'Stip'");
  check_error("FAIRY", 1, "did you mean 'Fairy'");
  check_error("Fairy()", 6, "'Fairy' takes no parameters");
  check_error("Phases ( )", 8, "'Phases' takes no parameters");
  check_error("Stip", 5, "expected '(' and the parameters of Stip(STRING)");
  check_error("Stip > 1", 6, "expected '(' and the parameters of Stip(STRING)");
  check_error("Stip()", 6, "expected STRING but found ')'");
  check_error("Stip('#2', 3)", 12, "too many parameters: Stip(STRING) takes 1");
  check_error("ClosedWalk(wR, 4)", 17, "expected ',' and BOOLEAN");
  check_error("ClosedWalk(wR)", 14, "takes 3 parameters");
  check_error("ClosedWalk(wR,, true)", 15, "expected INTEGER");
  check_error("Stip('#2'", 10, "expected ',' or ')' but found the end of the query");
  check_error("Stip('#2' '#3')", 11, "expected ',' or ')'");
  check_error("Stip('#2)", 6, "unterminated string: no closing '");
  check_error("Stip(\"#2)", 6, "unterminated string: no closing \"");
  check_error("Author(O'Keefe)", 9, "put the value in quotes");
  check_error("Author(a(b))", 9, "put the value in quotes");
}

TEST_CASE("yacpdb query: parameter domain errors", "[yacpdb][query]") {
  check_error("Star(wX1y)", 6, "expected PIECE");
  check_error("Star(R)", 6, "expected PIECE");
  check_error("Star(xR)", 6, "expected PIECE");
  check_error("Star(w1)", 6, "expected PIECE");
  check_error("Star(  wRRR)", 8, "found 'wRRR'");
  check_error("ClosedWalk(wR, four, true)", 16, "expected INTEGER");
  check_error("ClosedWalk(wR, 4, yes)", 19, "expected BOOLEAN (true or false) but found 'yes'");
  check_error("PCount(white)", 8, "expected COLOR (w, b or n)");
  check_error("PublishedAfter(09-2009)", 16, "expected DATE");
  check_error("PublishedAfter(2009-13)", 16, "is not a valid date");
  check_error("PublishedAfter(2009-02-29)", 16, "is not a valid date");
  check_error("PublishedAfter(2009-2)", 16, "expected DATE");
  check_error("Entity(composer, 'x')", 8, "expected REFTYPE");
  check_error("MatrixExtended('wKa1', true, true, Rotate)", 36, "expected TRANSFORMATIONS");
  check_error("Id(-3)", 4, "expected INTEGER");
}

TEST_CASE("yacpdb query: piece lists inside strings are checked", "[yacpdb][query]") {
  check_error("With('wR wX9z')", 10, "expected a PIECE such as wR or bS but found 'wX9z'");
  check_error("With(wR R)", 9, "found 'R'");
  check_error("With('')", 7, "expected at least one PIECE");
  check_error("Matrix('wKa1 wRi1')", 14, "found 'wRi1'");
  check_error("Matrix(\"wKa1 wR\")", 14, "expected a piece on a square");
  check_error("MatrixExtended('Ka1', true, true, All)", 17, "found 'Ka1'");
  check_error("Stip('h#(2')", 6, "not a valid regular expression");
  check_error("Author('Ж') AND With('Жx')", 23, "expected a PIECE such as");
}
