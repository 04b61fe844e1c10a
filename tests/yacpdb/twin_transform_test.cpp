// Twins that rotate, mirror or shift the diagram (Popeye's "rotate 90", "mirror a1<-->h1", "shift a1 ==> a2"):
// the squares map as Popeye's transformSquare maps them, and the replayed twins stand where the text says.
#include <catch2/catch.hpp>

#include "engine/chess/position.h"
#include "engine/yacpdb/diagram.h"
#include "engine/yacpdb/replay.h"
#include "engine/yacpdb/solution_text.h"
#include "engine/yacpdb/yaml_entries.h"
#include "twin_fixtures.h"

using namespace cqlindex;
using namespace cqlindex::yacpdb;
using namespace cqlindex::yacpdb::test;

TEST_CASE("yacpdb twins: board transforms map squares as Popeye does", "[yacpdb][twin]") {
  // rotate 90 turns the board a quarter anticlockwise: a1 -> h1 -> h8 -> a8 -> a1.
  CHECK(transformed_square(BoardTransform::Rotate90, sq("a1")) == sq("h1"));
  CHECK(transformed_square(BoardTransform::Rotate90, sq("h1")) == sq("h8"));
  CHECK(transformed_square(BoardTransform::Rotate90, sq("g6")) == sq("c7"));
  CHECK(transformed_square(BoardTransform::Rotate180, sq("a1")) == sq("h8"));
  CHECK(transformed_square(BoardTransform::Rotate180, sq("b3")) == sq("g6"));
  CHECK(transformed_square(BoardTransform::Rotate270, sq("a1")) == sq("a8"));
  CHECK(transformed_square(BoardTransform::MirrorA1H1, sq("a1")) == sq("h1"));
  CHECK(transformed_square(BoardTransform::MirrorA1H1, sq("c5")) == sq("f5"));
  CHECK(transformed_square(BoardTransform::MirrorA1A8, sq("c2")) == sq("c7"));
  CHECK(transformed_square(BoardTransform::MirrorA1H8, sq("a1")) == sq("h8"));
  CHECK(transformed_square(BoardTransform::MirrorA1H8, sq("a8")) == sq("a8"));  // on the a8-h1 diagonal
  CHECK(transformed_square(BoardTransform::MirrorA8H1, sq("a8")) == sq("h1"));
  CHECK(transformed_square(BoardTransform::MirrorA8H1, sq("b2")) == sq("b2"));  // on the a1-h8 diagonal
  for (int s = 0; s < 64; ++s) {
    int r = s;
    for (int k = 0; k < 4; ++k) r = transformed_square(BoardTransform::Rotate90, r);
    CHECK(r == s);
    CHECK(transformed_square(BoardTransform::Rotate270, transformed_square(BoardTransform::Rotate90, s)) == s);
    for (auto m : {BoardTransform::MirrorA1H1, BoardTransform::MirrorA1A8, BoardTransform::MirrorA1H8,
                   BoardTransform::MirrorA8H1})
      CHECK(transformed_square(m, transformed_square(m, s)) == s);
  }
}

TEST_CASE("yacpdb twins: rotate, mirror and shift commands are read as one command each", "[yacpdb][twin]") {
  auto p = parse_solution_text("a) 1.Ra2-a8 #\nb) rotate 90 1.Rg1-a1 #\nc) Mirror a1<-->h1 1.Rh2-h8 #\n"
                               "d) shift a2 ==> a1 1.Ra1-a7 +\ne) shift a2 a1 -wRa1 1.Kg5-f5");
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  REQUIRE(p.root->children.size() == 5);
  const auto& b = p.root->children[1]->twin_commands;
  REQUIRE(b.size() == 1);
  CHECK(b[0].kind == TwinCommand::Kind::Transform);
  CHECK(b[0].transform == BoardTransform::Rotate90);
  const auto& c = p.root->children[2]->twin_commands;
  REQUIRE(c.size() == 1);
  CHECK(c[0].transform == BoardTransform::MirrorA1H1);
  const auto& d = p.root->children[3]->twin_commands;
  REQUIRE(d.size() == 1);
  CHECK(d[0].kind == TwinCommand::Kind::Shift);
  CHECK(d[0].from == sq("a2"));
  CHECK(d[0].to == sq("a1"));
  CHECK(d[0].text == "shift a2 ==> a1");
  const auto& e = p.root->children[4]->twin_commands;  // Popeye's input form, then a piece command
  REQUIRE(e.size() == 2);
  CHECK(e[0].kind == TwinCommand::Kind::Shift);
  CHECK(e[1].kind == TwinCommand::Kind::Remove);
}

TEST_CASE("yacpdb twins: transformed diagrams replay, with piece identities carried along", "[yacpdb][twin]") {
  // #1 in every twin: the mate pattern turned, mirrored; the shift leaves only a check.
  Entry e = entry_with("#1", "a) 1.Ra2-a8 #\nb) rotate 90 1.Rg1-a1 #\nc) mirror a1<-->h1 1.Rh2-h8 #\n"
                       "d) shift a2 ==> a1 1.Ra1-a7 +\n+e) rotate 180 1.Rh8-h2 +");
  SolutionTree t = replay_solution(e);
  INFO(t.error);
  REQUIRE(t.complete);
  CHECK(board_of(t, 0) == "7k/8/6K1/8/8/8/R7/8");
  CHECK(board_of(t, 1) == "k7/2K5/8/8/8/8/8/6R1");  // Kg6 -> c7, Ra2 -> g1, Kh8 -> a8
  CHECK(board_of(t, 2) == "k7/8/1K6/8/8/8/7R/8");
  CHECK(board_of(t, 3) == "8/7k/8/6K1/8/8/8/R7");
  CHECK(board_of(t, 4) == "7R/8/8/8/1K6/8/k7/8");  // continued from d): turned half round
  // The rook of the diagram (a2) is followed to its square in each twin.
  const auto& twins = t.root().children;
  CHECK(t.nodes[twins[1]].origins[sq("g1")] == sq("a2"));
  CHECK(t.nodes[twins[2]].origins[sq("h2")] == sq("a2"));
  CHECK(t.nodes[twins[3]].origins[sq("a1")] == sq("a2"));
  CHECK(t.nodes[twins[3]].origins[sq("a2")] == -1);
  CHECK(t.nodes[twins[4]].origins[sq("h8")] == sq("a2"));
}

TEST_CASE("yacpdb twins: a shift that would push a piece off the board is refused", "[yacpdb][twin]") {
  SolutionTree t = replay_solution(entry_with("#1", "a) 1.Ra2-a8 #\nb) shift a1 ==> b1 1.Rb2-b8 #"));
  CHECK_FALSE(t.complete);
  CHECK(t.error.find("off the board") != std::string::npos);
}
