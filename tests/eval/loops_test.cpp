// loop and while (the manual: loop re-evaluates its body until it fails and matches when the body matched at
// least once; while (T) F runs F while T holds; while (s ~~ re) iterates over the matches of re).
#include <catch2/catch.hpp>

#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

TEST_CASE("loop re-evaluates its body until it fails", "[eval][loops]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("Cnt = 0\nloop {Cnt += 1 Cnt < 5}\nCnt == 5", g) == 1);
  CHECK(lang_matches("loop false", g) == 0);  // the body never matched
  CHECK(lang_matches("Cnt = 0\nloop {Cnt += 1 Cnt < 1}\nCnt == 1", g) == 0);  // matched never: the loop fails
}

TEST_CASE("a loop follows a chain of pins (serialpin.cql's pattern)", "[eval][loops]") {
  // Bb2 pins nc3 to kd4: one link; the knight pins nothing, so the second iteration fails and the loop stops
  const std::string g = test::lang_game("8/8/8/8/3k4/2n5/1B6/4K3 w - - 0 1");
  CHECK(lang_matches("◭Pinner∊(pin from ◭) {\n Links = 0\n ◭Cur = Pinner\n loop {◭Cur = pin through ◭ from Cur\n Links += 1}\n Links == 1}", g) == 1);
}

TEST_CASE("while runs its body while the condition holds", "[eval][loops]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("Cnt = 0\nwhile (Cnt < 3) Cnt += 1\nCnt == 3", g) == 1);
  CHECK(lang_matches("Cnt = 0\nwhile (Cnt > 3) Cnt += 1\nCnt == 0", g) == 1);  // while matches even with no iteration
}

TEST_CASE("while over the matches of a regular expression binds the groups per match", "[eval][loops]") {
  const std::string g = test::lang_game(test::kLoneKings);
  CHECK(lang_matches("S = \"\"\nwhile (\"RBNQ\" ~~ \".\") S += \\0\nS == \"RBNQ\"", g) == 1);
  CHECK(lang_matches("S = \"\"\nwhile (\"a1b22c3\" ~~ \"[a-z]([0-9]+)\") S += \\1\nS == \"1223\"", g) == 1);
  // the body's failures do not stop the iteration (babson2.cql: the line fails for most types)
  CHECK(lang_matches("Cnt = 0\nwhile (\"xyz\" ~~ \".\") {Cnt += 1 false}\nCnt == 3", g) == 1);
}
