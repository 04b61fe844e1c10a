// Dictionaries: get, set, count, iteration, unbind; persistent (the default) versus local.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

TEST_CASE("dictionary entries: set, get, count, unbind", "[eval][dictionary]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("local dictionary D\nD[\"a\"] = 1\nD[\"b\"] = 2\n#D == 2\nD[\"b\"] == 2", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[\"a\"] = 1\nD[\"c\"] == 1", g) == 0);  // no such key: fails
  CHECK(lang_matches("local dictionary D\nD[\"a\"] = 1\nnot D[\"c\"]", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[1] = \"x\"\nD[2] = \"y\"\nunbind D[1]\n#D == 1", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[1] = \"x\"\nunbind D\n#D == 0", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[Ke1 ] = 7\nD[Ke1 ] == 7", g) == 1);  // a set key
  CHECK(lang_matches("local dictionary D\nD[Ke1 ] = 7\nD[Ke1 | ke8 ] == 7", g) == 0);  // another set, another key
}

TEST_CASE("iterating a dictionary visits every key in order", "[eval][dictionary]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("local dictionary D\nD[\"b\"] = 2\nD[\"a\"] = 1\nS = \"\"\nkey∊D S += key\nS == \"ab\"", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[\"b\"] = 2\nD[\"a\"] = 1\nSum = 0\nkey∊D Sum += D[key]\nSum == 3", g) == 1);
}

TEST_CASE("a dictionary is persistent unless local", "[eval][dictionary]") {
  std::string three;
  for (int i = 0; i < 3; ++i) three += test::lang_game(test::kLoneKings);
  // the entries of the earlier games stay: game N sees N keys
  CHECK(lang_matches("dictionary D\nD[gamenumber] = 1\n#D == gamenumber", three) == 3);
  CHECK(lang_matches("local dictionary D\nD[gamenumber] = 1\n#D == gamenumber", three) == 1);
}

TEST_CASE("iterating a dictionary gives each key its own type", "[eval][dictionary]") {
  const std::string g = test::lang_game(test::kLoneKings);
  // number keys: the key variable is numeric, so D[key] finds the entry and arithmetic works on it
  CHECK(lang_matches("local dictionary D\nD[3] = 30\nD[1] = 10\nS = 0\nkey∊D S += D[key] + key\nS == 44", g) == 1);
  // numbers iterate in ascending order
  CHECK(lang_matches("local dictionary D\nD[10] = 1\nD[2] = 1\nT = \"\"\nkey∊D T += str key\nT == \"210\"", g) == 1);
  // set keys: the key variable is a set (here the kings' squares), D[key] finds the entry
  CHECK(lang_matches("local dictionary D\nD[Ke1 ] = 7\nD[ke8 ] = 8\nTot = 0\nkey∊D {Tot += D[key]\nkey & [e1,e8]}\nTot == 15", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[Ke1 ] = 7\nC = 0\nkey∊D {#key == 1 C += 1}\nC == 1", g) == 1);
  // string keys as before
  CHECK(lang_matches("local dictionary D\nD[\"x\"] = 5\nTot = 0\nkey∊D Tot += D[key]\nTot == 5", g) == 1);
}

TEST_CASE("a dictionary's keys have one type", "[eval][dictionary][errors]") {
  using cqlindex::cql::CqlError;
  auto rejects_at = [](const std::string& q, int line, int col) {
    try {
      cql::parse_query(q);
    } catch (const CqlError& e) {
      CHECK(e.line == line);
      CHECK(e.column == col);
      return true;
    }
    return false;
  };
  CHECK(rejects_at("cql()\ndictionary D\nD[1] = 2\nD[\"a\"] = 3", 4, 1));
  CHECK(rejects_at("cql()\ndictionary D\nD[1] = 2\nx = \"s\"\nx∊D check", 5, 1));  // x is a string, keys are numbers
  CHECK(rejects_at("cql()\ndictionary D\nD[check] = 1", 3, 1));                    // a key has a value
  // as CQL 6.2: the first assignment fixes the types; iterating or unbinding an entry needs it
  CHECK(rejects_at("cql()\ndictionary D\nkey∊D check\nD[1] = 2", 3, 5));
  CHECK(rejects_at("cql()\ndictionary D\nunbind D[1]", 3, 8));
  // positions only in a local dictionary
  CHECK(rejects_at("cql()\ndictionary D\nD[currentposition] = 1", 3, 1));
  CHECK(rejects_at("cql()\ndictionary D\nD[1] = currentposition", 3, 1));
  CHECK_NOTHROW(cql::parse_query("cql()\nlocal dictionary D\nD[currentposition] = currentposition"));
  // a read before the first assignment does not fix the key type
  CHECK_NOTHROW(cql::parse_query("cql()\ndictionary D\nnot D[\"a\"]\nD[1] = 2"));
}

TEST_CASE("indexing a dictionary by a bare square, a capture-like or piece-like name", "[eval][dictionary]") {
  const std::string g = test::lang_game(test::kLoneKings);
  // `[e1]` after a dictionary name is an index, not the square list [e1]
  CHECK(lang_matches("local dictionary D\nD[e1] = 7\nD[e1] == 7", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[e1] = 7\nD[Ke1 ] == 7", g) == 1);  // same key: the set {e1}
  CHECK(lang_matches("local dictionary D\nD[e1] = 7\nD[e2] == 7", g) == 0);
  CHECK(lang_matches("local dictionary D\nD[e1,e8] = 7\nD[Ke1 | ke8 ] == 7", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[a-h1] = 3\nD[a1,b1,c1,d1,e1,f1,g1,h1] == 3\n#D == 1", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[e1] = 7\nunbind D[e1]\n#D == 0", g) == 1);
  // `[x]` (the capture symbol) holds a variable name here; `[Kk]` is a piece list for CQL 6.2's lexer, so
  // `D[Kk] = 9` is refused (repro-2 R14)
  CHECK(lang_matches("local dictionary D\nx = 4\nD[x] = 9\nD[4] == 9", g) == 1);
  CHECK_THROWS(cql::parse_query("cql()\nlocal dictionary D\nKk = \"a\"\nD[Kk] = 9\nD[\"a\"] == 9"));
  // the index may be any expression
  CHECK(lang_matches("local dictionary D\nD[2 + 3] = 1\nD[5] == 1", g) == 1);
  // x∊D[k] is a square loop over the set D[k], not an iteration over D
  CHECK(lang_matches("local dictionary D\nD[2] = [e1,e8]\nC = 0\nx∊D[2] C += 1\nC == 2", g) == 1);
  // a square list after the declaration itself, or after a space, is still a square list
  CHECK(lang_matches("local dictionary D\n[e1,e8] == 2", g) == 1);
  CHECK(lang_matches("local dictionary D\nD[1] = 2\nunbind D\n[e1] & K", g) == 1);
}

TEST_CASE("a bad key inside the brackets of a dictionary is reported at its line and column", "[cql][errors]") {
  try {
    cql::parse_query("cql()\ndictionary D\n  D[Vq] = 1");  // Vq: no such variable
    FAIL("accepted");
  } catch (const cql::CqlError& e) {
    CHECK(e.line == 3);
    CHECK(e.column == 5);  // the name inside the brackets
  }
}

TEST_CASE("CQL 6.1's 'string k in D F' iterates a dictionary with string keys", "[eval][dictionary]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("local dictionary D\nD[\"b\"] = 2\nD[\"a\"] = 1\nS = \"\"\nstring key in D S += key\nS == \"ab\"", g) == 1);
  CHECK_THROWS_AS(cql::parse_query("cql()\ndictionary D\nD[1] = 2\nstring key in D check"), cql::CqlError);
}
