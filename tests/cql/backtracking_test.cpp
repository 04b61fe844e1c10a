// The parser tries a path constituent as a dash first and a dash's right side as a set first, and backtracks.
// Nested paths used to parse those tokens twice a level (2^depth: 20 levels took a second, 30 an hour); now
// a refused attempt is kept and read once. What still grows exponentially (function calls expand their body at
// each call) is bounded: a clean error, never a hang.
#include <catch2/catch.hpp>

#include <string>

#include "engine/cql/error.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"

using namespace cqlindex::cql;

namespace {

// `depth` copies of `open` around `core`, each closed by `close`.
std::string nest(int depth, const std::string& open, const std::string& core, const std::string& close) {
  std::string s = core;
  for (int i = 0; i < depth; ++i) s = open + s + close;
  return s;
}

// Parses the body `text`, prints it back and checks the print parses to the same tree.
void parses_and_round_trips(const std::string& text) {
  INFO(text);
  Query q = parse_query("cql()\n" + text + "\n");
  Query again = parse_query(print_cql(q));
  CHECK(print_canonical(again) == print_canonical(q));
}

}  // namespace

TEST_CASE("nested paths parse in time linear in their depth", "[cql][backtracking]") {
  // each level cost twice the one inside it: 40 levels were 2^40 attempts before the fix (the parser's depth
  // limit allows about 50 such levels)
  parses_and_round_trips(nest(40, "path {", "check", "}"));
  parses_and_round_trips(nest(40, "path A--", "check", ""));
  parses_and_round_trips(nest(40, "path (A--", "check", ")"));
  std::string chain = "path";
  for (int i = 0; i < 40; ++i) chain += " A--path";
  parses_and_round_trips(chain + " check");
}

TEST_CASE("the tree of a nested path is the one a shallow path gives, level by level", "[cql][backtracking]") {
  const Query deep = parse_query("cql()\n" + nest(3, "path A--", "check", "") + "\n");
  const Query flat = parse_query("cql()\npath A-- path A-- path A-- check\n");
  CHECK(print_canonical(deep) == print_canonical(flat));
  const Query braced = parse_query("cql()\npath {path {check}}\n");
  CHECK(print_cql(braced).find("path") != std::string::npos);
}

TEST_CASE("a dash's refused right side is read once, in and out of paths", "[cql][backtracking]") {
  // a dash outside a path tries the braces after it as its right side, then reads them as the next filter:
  // 2^depth until the refused attempt was kept there too (40 levels hit the parser's work limit)
  parses_and_round_trips(nest(40, "A--{", "check", "}"));
  // tenth fuzz finding (cql_parser_fuzz, a timeout): `A--path--` on each line, the dash's right side `path ...`
  // tried as a set, refused, kept, but then dropped when the dash came back as a path's dash constituent and
  // tried its right side again
  std::string lines;
  for (int i = 0; i < 60; ++i) lines += "A--path--\n";
  parses_and_round_trips(lines + "check");
}

TEST_CASE("exponential work that remains is refused cleanly", "[cql][backtracking]") {
  // function calls expand their body at each call: 26 functions each calling the one before twice are 2^26
  // bodies, bounded by the parser's work limit, a CqlError at the innermost call
  std::string text = "function fa(){check}\n";
  std::string previous = "fa";
  for (char c = 'a'; c <= 'z'; ++c) {
    const std::string name = std::string("f") + c + c;
    text += "function " + name + "(){" + previous + "() " + previous + "()}\n";
    previous = name;
  }
  try {
    parse_query("cql()\n" + text + previous + "()\n");
    FAIL("parsed");
  } catch (const CqlError& e) {
    CHECK(std::string(e.what()).find("too complex to parse") != std::string::npos);
    CHECK(e.line == 3);  // the first call of fa, in faa's body
  }
  // ten levels are well within the bound
  std::string ten = "function fa(){check}\n";
  previous = "fa";
  for (char c = 'a'; c <= 'j'; ++c) {
    const std::string name = std::string("f") + c + c;
    ten += "function " + name + "(){" + previous + "() " + previous + "()}\n";
    previous = name;
  }
  parses_and_round_trips(ten + previous + "()");
}
