// The depth limit of the bound tree (kMaxTreeDepth): a deeper query is a CqlError at the operator or filter
// where the limit is crossed, never a stack overflow later; long chains of one operator print back without
// nesting, so they survive a round trip through print_cql.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "engine/cql/node.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"

using namespace cqlindex::cql;

namespace {

// `terms` filters joined by `op`.
std::string chain(int terms, const std::string& op) {
  std::string s = "check";
  for (int i = 1; i < terms; ++i) s += " " + op + " check";
  return s;
}

// Checks that the body `text` is refused as nested too deeply, on its line (2), and returns the error's column.
int refused_too_deep(const std::string& text) {
  try {
    parse_query("cql()\n" + text + "\n");
  } catch (const CqlError& e) {
    CHECK(std::string(e.what()).find("nested too deeply") != std::string::npos);
    CHECK(e.line == 2);
    return e.column;
  }
  FAIL("parsed");
  return 0;
}

}  // namespace

TEST_CASE("a chain deeper than the limit is refused at the operator that crosses it", "[cql][depth]") {
  for (const std::string op : {"and", "or", "|", "+"}) {
    std::string text = chain(10000, op);
    if (op == "|") {  // a set chain
      text = "A";
      for (int i = 0; i < 10000; ++i) text += " | A";
    } else if (op == "+") {  // a numeric chain
      text = "1";
      for (int i = 0; i < 10000; ++i) text += " + 1";
      text += " > 3";
    }
    INFO(op);
    CHECK(refused_too_deep(text) > 1);
  }
}

TEST_CASE("chains within the limit parse, and print back without nesting", "[cql][depth]") {
  for (const std::string op : {"and", "or"}) {
    Query q = parse_query("cql()\n" + chain(900, op) + "\n");
    CHECK(q.body->height == 901);  // the body's compound, then one level per operator
    const std::string printed = print_cql(q);
    CHECK(printed.find("{ {") == std::string::npos);
    Query again = parse_query(printed);
    CHECK(print_canonical(again) == print_canonical(q));
  }
  CHECK_NOTHROW(parse_query("cql()\n" + chain(int(kMaxTreeDepth) - 1, "and") + "\n"));
  CHECK_THROWS_AS(parse_query("cql()\n" + chain(int(kMaxTreeDepth), "and") + "\n"), CqlError);
}

TEST_CASE("20,000 nested braces, parentheses and nots are refused at their position", "[cql][depth]") {
  std::string nots;
  for (int i = 0; i < 20000; ++i) nots += "not ";
  for (const std::string& body : {std::string(20000, '{') + "check" + std::string(20000, '}'),
                                  std::string(20000, '(') + "check" + std::string(20000, ')'), nots + "check"})
    refused_too_deep(body);
}
