// Dictionaries: get, set, count, iteration, unbind; persistent (the default) versus local.
#include <catch2/catch.hpp>

#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

TEST_CASE("dictionary entries: set, get, count, unbind", "[eval][dictionary]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("dictionary local D\nD[\"a\"] = 1\nD[\"b\"] = 2\n#D == 2\nD[\"b\"] == 2", g) == 1);
  CHECK(lang_matches("dictionary local D\nD[\"a\"] = 1\nD[\"c\"] == 1", g) == 0);  // no such key: fails
  CHECK(lang_matches("dictionary local D\nD[\"a\"] = 1\nnot D[\"c\"]", g) == 1);
  CHECK(lang_matches("dictionary local D\nD[1] = \"x\"\nD[2] = \"y\"\nunbind D[1]\n#D == 1", g) == 1);
  CHECK(lang_matches("dictionary local D\nD[1] = \"x\"\nunbind D\n#D == 0", g) == 1);
  CHECK(lang_matches("dictionary local D\nD[Ke1] = 7\nD[Ke1] == 7", g) == 1);  // a set key
  CHECK(lang_matches("dictionary local D\nD[Ke1] = 7\nD[Ke1 | ke8] == 7", g) == 0);  // another set, another key
}

TEST_CASE("iterating a dictionary visits every key in order", "[eval][dictionary]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("dictionary local D\nD[\"b\"] = 2\nD[\"a\"] = 1\nS = \"\"\nkey∊D S += key\nS == \"ab\"", g) == 1);
  CHECK(lang_matches("dictionary local D\nD[\"b\"] = 2\nD[\"a\"] = 1\nSum = 0\nkey∊D Sum += D[key]\nSum == 3", g) == 1);
}

TEST_CASE("a dictionary is persistent unless local", "[eval][dictionary]") {
  std::string three;
  for (int i = 0; i < 3; ++i) three += test::lang_game(test::kLoneKings);
  // the entries of the earlier games stay: game N sees N keys
  CHECK(lang_matches("dictionary D\nD[gamenumber] = 1\n#D == gamenumber", three) == 3);
  CHECK(lang_matches("dictionary local D\nD[gamenumber] = 1\n#D == gamenumber", three) == 1);
}
