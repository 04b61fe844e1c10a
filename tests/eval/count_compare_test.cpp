// The fused material comparison (CountCompare, eval_count_compare.cpp) agrees with the generic evaluation of
// the same condition, which a set expression in place of the designator keeps unfused.
#include <catch2/catch.hpp>

#include "eval/eval_support.h"

using namespace cqlindex;

namespace {

uint64_t count(const std::string& body, const std::string& pgn) {
  return test::run_query("cql()\n" + body + "\n", pgn).matches;
}

std::string output(const std::string& body, const std::string& pgn) {
  return test::run_query("cql()\n" + body + "\n", pgn).output;
}

}  // namespace

TEST_CASE("count comparisons fused and generic agree", "[eval][count_compare]") {
  // promotion and captures change the material along the game
  const std::string g =
      "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"4k3/P6r/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n"
      "1. a8=Q+ Kd7 2. Qxh8 Rxa1+ 3. Kd2 Ra2+ *\n\n";
  for (const char* rel : {"<", "<=", ">", ">=", "==", "!="})
    for (int k = 0; k <= 2; ++k)
      for (const char* piece : {"Q", "R", "r", "P", "[Rr]", "A", "_", "a-h1"}) {
        const std::string fused = std::string(piece) + " " + rel + " " + std::to_string(k);
        const std::string generic = "(" + std::string(piece) + " | " + piece + ") " + rel + " " + std::to_string(k);
        INFO(fused);
        CHECK(count(fused, g) == count(generic, g));
        CHECK(output(fused, g) == output(generic, g));
      }
  // the start position has no queen, a rook each and one pawn; after 1. a8=Q+ never again
  CHECK(output("flipcolor {Q == 0 q == 0 R == 1 r == 1 P <= 2}", g) ==
        output("flipcolor {(Q|Q) == 0 (q|q) == 0 (R|R) == 1 (r|r) == 1 (P|P) <= 2}", g));
  CHECK(count("flipcolor {Q == 0 q == 0 R == 1 r == 1 P <= 2}", g) == 1);
  CHECK(count("not initial flipcolor {Q == 0 q == 0 R == 1 r == 1 P <= 2}", g) == 0);
  CHECK(count("Q == 1", g) == 1);
  CHECK(output("comment(#Q) Q >= 1", g) == output("comment(#(Q|Q)) (Q|Q) >= 1", g));
}
