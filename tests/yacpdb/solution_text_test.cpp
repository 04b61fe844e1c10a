// Popeye solution text -> textual solution tree (depths, null nodes, twins, markers).
#include "engine/yacpdb/solution_text.h"

#include <catch2/catch.hpp>
#include <functional>

using namespace cqlindex::yacpdb;

namespace {

// A compact picture of the tree: "T(a)[Sf2-g4[...]]", nulls as "~".
std::string shape(const SolutionNode& n) {
  std::string s;
  switch (n.kind) {
    case SolutionNode::Kind::Root: s = "R"; break;
    case SolutionNode::Kind::Twin: s = "T" + std::string(n.twin_continued ? "+" : "") + n.twin_label; break;
    case SolutionNode::Kind::Null: s = "~"; break;
    case SolutionNode::Kind::Move: s = n.move.text; break;
  }
  if (!n.children.empty()) {
    s += "[";
    for (size_t i = 0; i < n.children.size(); ++i) {
      if (i) s += " ";
      s += shape(*n.children[i]);
    }
    s += "]";
  }
  return s;
}

const SolutionNode& first_move(const SolutionParse& p) { return *p.root->children.at(0)->children.at(0); }

}  // namespace

TEST_CASE("yacpdb solution text: depths, threats and refutations", "[yacpdb][solution]") {
  auto p = parse_solution_text("1.Sf2-g4 + !  1...Kg2-f1  2.Rg8-a8 threat:  3.Ra8-a1 #   but 1...Sc3 !");
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  CHECK_FALSE(p.has_twins);
  CHECK(shape(*p.root) == "R[Ta[Sf2-g4[Kg2-f1[Rg8-a8[~[Ra8-a1]]] Sc3]]]");
  const SolutionNode& key = first_move(p);
  CHECK(key.depth == 2);
  CHECK(key.move.piece == "S");
  CHECK(key.move.from == 13);  // f2
  CHECK(key.move.to == 30);    // g4
  CHECK(key.move.check == "+");
  CHECK(key.move.annotation == "!");
  const SolutionNode& mate = *key.children[0]->children[0]->children[0]->children[0];
  CHECK(mate.move.check == "#");
  CHECK(mate.depth == 6);
  CHECK(key.children[1]->move.annotation == "!");
  CHECK(key.children[1]->move.from == -1);
}

TEST_CASE("yacpdb solution text: Popeye #2 output with tries, threat, set play", "[yacpdb][solution]") {
  const char* text =
      "   1...b2-b4\n"
      "          2.Kd4-c5 #\n"
      "\n"
      "   1.Ke5-d4 ! threat:\n"
      "          2.Kd4-c3 #\n"
      "      1...b2-b3\n"
      "          2.Kd4-c4 #\n"
      "      1...Sa4-c3\n"
      "          2.Kd4-e4 #\n"
      "   1.Ke5-f4 ? zugzwang.\n"
      "      1...Sa4*b2\n"
      "          2.Kf4-e5 #\n"
      "    but\n"
      "      1...Sa4-c5 !\n";
  auto p = parse_solution_text(text);
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  CHECK(shape(*p.root) ==
        "R[Ta[~[b2-b4[Kd4-c5]] Ke5-d4[~[Kd4-c3] b2-b3[Kd4-c4] Sa4-c3[Kd4-e4]] "
        "Ke5-f4[Sa4*b2[Kf4-e5] Sa4-c5]]]");
  const SolutionNode& twin = *p.root->children[0];
  CHECK(twin.children[1]->move.annotation == "!");
  CHECK(twin.children[2]->move.annotation == "?");
  CHECK(twin.children[2]->children[0]->move.capture);
  CHECK(twin.children[0]->children[0]->line == 1);
  CHECK(twin.children[0]->children[0]->column == 8);
  CHECK(node_count(*p.root) == 16);
}

TEST_CASE("yacpdb solution text: twins with commands", "[yacpdb][solution]") {
  auto p = parse_solution_text(
      "a) \n  1.Rb4-c4 Bc5-b4 +   2.a5*b4 Sd4-b5 # \n\nb) bRb4-->f3\n  1.b6*c5 Ka6*a5   2.c5-c4 Sd4-e2 # \n\n"
      "+c) bKc3<-->bPf4\n  1.e5*d4 Bc5*b6   2.Kf4-e5 Bb6-c7 # \n\n+d) bPd2<-->wPe4 -wPa2 +bSh8 rotate 90\n"
      "  1.Rf3-g3 Sd4-f3   2.e4*f3 Bc5-e3 #");
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  CHECK(p.has_twins);
  REQUIRE(p.root->children.size() == 4);
  const auto& a = *p.root->children[0];
  CHECK(a.twin_label == "a");
  CHECK(a.twin_commands.empty());
  CHECK(shape(a) == "Ta[Rb4-c4[Bc5-b4[a5*b4[Sd4-b5]]]]");
  const auto& b = *p.root->children[1];
  CHECK(b.twin_label == "b");
  CHECK_FALSE(b.twin_continued);
  REQUIRE(b.twin_commands.size() == 1);
  CHECK(b.twin_commands[0].kind == TwinCommand::Kind::Move);
  CHECK(b.twin_commands[0].color == 'b');
  CHECK(b.twin_commands[0].piece == "R");
  CHECK(b.twin_commands[0].from == 25);  // b4
  CHECK(b.twin_commands[0].to == 21);    // f3
  const auto& c = *p.root->children[2];
  CHECK(c.twin_continued);
  REQUIRE(c.twin_commands.size() == 1);
  CHECK(c.twin_commands[0].kind == TwinCommand::Kind::Exchange);
  CHECK(c.twin_commands[0].piece2 == "P");
  const auto& d = *p.root->children[3];
  REQUIRE(d.twin_commands.size() == 4);
  CHECK(d.twin_commands[1].kind == TwinCommand::Kind::Remove);
  CHECK(d.twin_commands[2].kind == TwinCommand::Kind::Add);
  CHECK(d.twin_commands[2].color == 'b');
  CHECK(d.twin_commands[3].kind == TwinCommand::Kind::Transform);
  CHECK(d.twin_commands[3].transform == BoardTransform::Rotate90);
  CHECK(d.twin_commands[3].text == "rotate 90");
}

TEST_CASE("yacpdb solution text: h#2.5 and series play get null nodes", "[yacpdb][solution]") {
  auto p = parse_solution_text("1...Be5-a1   2.Qf8*f4 Re2-b2   3.Ke6-e5 + Rb2-b6 # \n1...Be5-h8   2.Bd8-f6 f4-f5 +");
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  CHECK(shape(*p.root) == "R[Ta[~[Be5-a1[Qf8*f4[Re2-b2[Ke6-e5[Rb2-b6]]]] Be5-h8[Bd8-f6[f4-f5]]]]]");
  p = parse_solution_text("1.Kd4 2.Kc3 3.Rxc4");
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  CHECK(shape(*p.root) == "R[Ta[Kd4[~[Kc3[~[Rxc4]]]]]]");
}

TEST_CASE("yacpdb solution text: short algebraic, castling, promotion, en passant", "[yacpdb][solution]") {
  auto p = parse_solution_text(
      "1.Ra6 ! (2.Qa7+ Kb5 3.Sd4+ Rxd4#)\n  1...Qxa3 2.d4+ c4xd3 ep. 3.Sxd3+ Qxd3#\n 1…Sf2! 2.0-0-0 e1=Q 3.O-O "
      "B:g5 4.exd6e.p. fxe8=N+ 5.e7*d8=EH {comment here} 5...Kxe8=");
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  const SolutionNode& key = first_move(p);
  CHECK(key.move.text == "Ra6");
  REQUIRE(key.children.size() == 3);
  CHECK(key.children[0]->kind == SolutionNode::Kind::Null);  // the threat in parentheses
  CHECK(shape(*key.children[0]) == "~[Qa7+[Kb5[Sd4+[Rxd4#]]]]");
  const SolutionNode& qxa3 = *key.children[1];
  CHECK(qxa3.move.capture);
  const SolutionNode& ep = *qxa3.children[0]->children[0];
  CHECK(ep.move.text == "c4xd3");
  CHECK(ep.move.en_passant);
  CHECK(ep.move.from == 26);
  const SolutionNode& sf2 = *key.children[2];
  CHECK(sf2.depth == 3);
  CHECK(sf2.move.annotation == "!");
  const SolutionNode& ooo = *sf2.children[0];
  CHECK(ooo.move.castle == 2);
  CHECK(ooo.children[0]->move.promotion == "Q");
  const SolutionNode& oo = *ooo.children[0]->children[0];
  CHECK(oo.move.castle == 1);
  CHECK(oo.children[0]->move.capture);  // B:g5
  const SolutionNode& exd6 = *oo.children[0]->children[0];
  CHECK(exd6.move.en_passant);
  CHECK(exd6.children[0]->move.promotion == "N");
  CHECK(exd6.children[0]->move.check == "+");
  const SolutionNode& eh = *exd6.children[0]->children[0];
  CHECK(eh.move.promotion == "EH");
  CHECK(eh.comment == "comment here");
  CHECK(eh.children[0]->move.check == "=");
}

TEST_CASE("yacpdb solution text: fairy extras are kept, labels dropped", "[yacpdb][solution]") {
  auto p = parse_solution_text("1.Ka1-b1 ? threat: 2.Rh8-g8 #\n  1...Gb4*e7[bGe7->e1] !\n 1...Ne5[a] 2.Nd6#[A]");
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  const SolutionNode& key = first_move(p);
  CHECK(key.children[1]->move.extras == "[bGe7->e1]");
  CHECK(key.children[1]->move.piece == "G");
  CHECK(key.children[2]->move.extras.empty());
  CHECK(key.children[2]->children[0]->move.check == "#");
}

TEST_CASE("yacpdb solution text: what cannot be read is reported with line and column", "[yacpdb][solution]") {
  auto p = parse_solution_text("1.e7-e8=S/N+ ?\nbut\n  1...Kg7-f8 !");
  REQUIRE(p.error);
  CHECK(*p.error == "1:3: cannot read 'e7-e8=S/N+' as a move");
  p = parse_solution_text("1.Nd3? (>2.Nf~)");
  REQUIRE(p.error);
  CHECK(p.error->rfind("1:9:", 0) == 0);
  p = parse_solution_text("Ra6 Kb5");
  REQUIRE(p.error);
  CHECK(*p.error == "1:1: a move without a move number: 'Ra6'");
  p = parse_solution_text("0...g7-g5\n1.gxf5");
  REQUIRE(p.error);
  CHECK(p.error->rfind("1:1:", 0) == 0);
  p = parse_solution_text("1.Rd5 {unterminated");
  REQUIRE(p.error);
  CHECK(*p.error == "1:7: unterminated comment");
  p = parse_solution_text("1.Rd5\n 2.Nxc7(Nc8)#");
  REQUIRE(p.error);
  CHECK(*p.error == "2:4: cannot read 'Nxc7(Nc8)#' as a move");
  // what was read before the error is kept
  CHECK(node_count(*p.root) == 3);
  p = parse_solution_text("");
  CHECK_FALSE(p.error);
  CHECK(node_count(*p.root) == 1);
}
