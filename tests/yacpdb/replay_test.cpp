// Textual solution trees replayed into legal-move trees: diagrams, twins, null moves, failures.
#include "engine/yacpdb/replay.h"

#include <catch2/catch.hpp>

#include "engine/chess/movegen.h"
#include "engine/chess/san.h"
#include "engine/yacpdb/diagram.h"
#include "engine/yacpdb/yaml_entries.h"
#include "support/shared_data.h"

using namespace cqlindex;
using namespace cqlindex::yacpdb;

namespace {

std::string olive_dir() { return cqlindex::test::shared_data("problems/yacpdb-olive") + "/"; }

Entry make_entry(const std::string& stipulation, const std::vector<std::string>& white,
                 const std::vector<std::string>& black, const std::string& solution) {
  Entry e;
  e.stipulation = stipulation;
  for (const auto& w : white) {
    DiagramPiece p;
    REQUIRE(parse_algebraic_piece(w, 'w', p));
    e.pieces.push_back(p);
  }
  for (const auto& b : black) {
    DiagramPiece p;
    REQUIRE(parse_algebraic_piece(b, 'b', p));
    e.pieces.push_back(p);
  }
  e.solution = solution;
  return e;
}

// Leaves of the tree, each as the SAN line from its twin ("--" for a null move).
std::vector<std::string> lines(const SolutionTree& t) {
  std::vector<std::string> out;
  std::function<void(int32_t, std::string)> walk = [&](int32_t i, std::string line) {
    const TreeNode& n = t.nodes[i];
    if (n.kind == TreeNode::Kind::Move || n.kind == TreeNode::Kind::Null) {
      const TreeNode& parent = t.nodes[n.parent];
      line += (line.empty() ? "" : " ") + chess::to_san(parent.position, n.move);
    }
    if (n.children.empty()) out.push_back(line);
    for (int32_t c : n.children) walk(c, line);
  };
  walk(0, "");
  return out;
}

}  // namespace

TEST_CASE("yacpdb diagram: first mover, fairy detection, position", "[yacpdb][replay]") {
  CHECK(first_mover("#2") == chess::WHITE);
  CHECK(first_mover("h#2") == chess::BLACK);
  CHECK(first_mover("h=4") == chess::BLACK);
  CHECK(first_mover("ser-h#10") == chess::BLACK);
  CHECK(first_mover("hs#3") == chess::WHITE);
  CHECK(first_mover("s#3") == chess::WHITE);
  CHECK(first_mover("=3") == chess::WHITE);
  Entry e = make_entry("#2", {"Ka1", "Qb2"}, {"Kh8"}, "");
  CHECK_FALSE(is_fairy(e));
  e.options = {"SetPlay", "Defence 2", "Try"};
  CHECK_FALSE(is_fairy(e));
  e.options.push_back("Circe");
  CHECK(is_fairy(e));
  e.options.clear();
  e.pieces.push_back(DiagramPiece{'n', "P", "", 20});
  CHECK(is_fairy(e));
  e.pieces.back() = DiagramPiece{'w', "G", "", 20};
  CHECK(is_fairy(e));
  std::string why;
  CHECK_FALSE(diagram_position(e.pieces, chess::WHITE, &why));
  CHECK(why == "fairy piece wGe3");
  e.pieces.pop_back();
  auto pos = diagram_position(e.pieces, chess::BLACK, &why);
  REQUIRE(pos);
  CHECK(pos->fen() == "7k/8/8/8/8/8/1Q6/K7 b - - 0 1");
  // castling rights where king and rook stand at home
  auto castle =
      diagram_position(make_entry("#2", {"Ke1", "Rh1", "Ra1"}, {"Ke8", "Ra8"}, "").pieces, chess::WHITE, &why);
  REQUIRE(castle);
  CHECK(castle->fen() == "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1");
  CHECK_FALSE(diagram_position(make_entry("#2", {"Ka1"}, {}, "").pieces, chess::WHITE, &why));
  CHECK(why.rfind("not a legal diagram", 0) == 0);
}

TEST_CASE("yacpdb replay: #2 with threat and tries, all moves legal", "[yacpdb][replay]") {
  Entry e = make_entry("#2", {"Kf6", "Qa1"}, {"Kh7"},
                       "1.Qa1-a7 + ! 1...Kh7-h6 2.Qa7-g7 # 1...Kh7-h8 2.Qa7-g7 #\n"
                       "1.Qa1-h1 + ? 1...Kh7-g8 !");
  auto t = replay_solution(e);
  INFO(t.error);
  REQUIRE(t.complete);
  CHECK(lines(t) == std::vector<std::string>{"Qa7+ Kh6 Qg7+", "Qa7+ Kh8 Qg7#", "Qh1+ Kg8"});
  CHECK(t.twin_count() == 1);
}

TEST_CASE("yacpdb replay: set play and threats become null moves", "[yacpdb][replay]") {
  Entry e = make_entry("#2", {"Kd6", "Ra1", "Pc6"}, {"Kb8", "Pa7"},
                       "1...a7-a6 2.c6-c7 #\n1.Ra1-h1 ! threat: 2.Rh1-h8 #\n1...a7-a5 2.c6-c7 #");
  auto t = replay_solution(e);
  INFO(t.error);
  REQUIRE(t.complete);
  CHECK(lines(t) == std::vector<std::string>{"-- a6 c7+", "Rh1 -- Rh8#", "Rh1 a5 c7+"});
}

TEST_CASE("yacpdb replay: helpmates start with Black, h#n.5 with a null", "[yacpdb][replay]") {
  Entry e = make_entry("h#1", {"Kf6", "Ra1"}, {"Kh8", "Pg7"}, "1.g7-g6 Ra1-h1 #");
  auto t = replay_solution(e);
  REQUIRE(t.complete);
  CHECK(lines(t) == std::vector<std::string>{"g6 Rh1+"});
  e = make_entry("h#1.5", {"Kf6", "Ra1"}, {"Kh8", "Pg6"}, "1...Ra1-a2 2.g6-g5 Ra2-h2 #");
  t = replay_solution(e);
  INFO(t.error);
  REQUIRE(t.complete);
  CHECK(lines(t) == std::vector<std::string>{"-- Ra2 g5 Rh2+"});
}

TEST_CASE("yacpdb replay: twins apply their commands", "[yacpdb][replay]") {
  Entry e =
      make_entry("#1", {"Kf6", "Ra1"}, {"Kh8"}, "a) 1.Ra1-a8 #\nb) wRa1-->b2 1.Rb2-b8 #\n+c) -wRb2 +wQc3 1.Qc3-h3 #");
  auto t = replay_solution(e);
  INFO(t.error);
  REQUIRE(t.complete);
  CHECK(t.twin_count() == 3);
  CHECK(lines(t) == std::vector<std::string>{"Ra8+", "Rb8+", "Qh3+"});
  // Board transforms apply (twin_transform_test.cpp): the rotated diagram no longer has a rook on a1.
  e.solution = "a) 1.Ra1-a8 #\nb) rotate 90 1.Ra1-a8 #";
  t = replay_solution(e);
  CHECK_FALSE(t.complete);
  CHECK(t.error == "2:16: cannot play 'Ra1-a8': illegal in k7/8/2K5/8/8/8/8/7R w - - 0 1");
  e.solution = "a) 1.Ra1-a8 #\nb) rotate 90 1.Rh1-h8 +";
  t = replay_solution(e);
  INFO(t.error);
  CHECK(t.complete);
  // A condition change is not a board command: the twin cannot be replayed orthodoxly.
  e.solution = "a) 1.Ra1-a8 #\nb) Circe 1.Ra1-a8 #";
  t = replay_solution(e);
  CHECK_FALSE(t.complete);
  CHECK(t.error == "2:1: twin command 'Circe' is not supported");
  // PolishType applies (twin_transform_test.cpp): the rook on a1 is black now, so White cannot play it.
  e.solution = "a) 1.Ra1-a8 #\nb) PolishType 1.Ra1-a8 #";
  t = replay_solution(e);
  CHECK_FALSE(t.complete);
  CHECK(t.error.rfind("2:17: cannot play 'Ra1-a8': illegal in ", 0) == 0);
}

TEST_CASE("yacpdb replay: illegal, ambiguous and fairy moves stop the replay", "[yacpdb][replay]") {
  Entry e = make_entry("#2", {"Kf6", "Ra1", "Re1"}, {"Kh8"}, "1.Ra1-a3 Kh8-g8 2.Ra3-a9");
  auto t = replay_solution(e);
  CHECK_FALSE(t.complete);
  e.solution = "1.Ra1-a7 Kh8-g8 2.Ra7-a8 #";
  t = replay_solution(e);
  CHECK(t.complete);
  e.solution = "1.Ra1-b1 Kh8-g7";
  t = replay_solution(e);
  CHECK_FALSE(t.complete);
  CHECK(t.error.rfind("1:10: cannot play 'Kh8-g7': illegal", 0) == 0);
  e.solution = "1.Rb1 Kg8";
  t = replay_solution(e);
  CHECK_FALSE(t.complete);
  CHECK(t.error.rfind("1:3: cannot play 'Rb1': ambiguous", 0) == 0);
  e.solution = "1.Rab1 Kg8";
  CHECK(replay_solution(e).complete);
  e.solution = "1.Ra1-a2[+bPa7] Kg8";
  t = replay_solution(e);
  CHECK(t.error.rfind("1:3: cannot play 'Ra1-a2[+bPa7]': fairy effect", 0) == 0);
}

TEST_CASE("yacpdb replay: short algebraic, castling, en passant, promotion", "[yacpdb][replay]") {
  Entry e = make_entry("#3", {"Ke1", "Rh1", "Pe5", "Pb7"}, {"Ke8", "Pd7"}, "1.0-0 d7-d5 2.e5xd6 ep. Ke8-d8 3.b8=S");
  auto t = replay_solution(e);
  INFO(t.error);
  REQUIRE(t.complete);
  CHECK(lines(t) == std::vector<std::string>{"O-O d5 exd6 Kd8 b8=N"});
}

TEST_CASE("yacpdb replay: the orthodox Olive entries replay completely", "[yacpdb][replay]") {
  auto broodings = read_yaml_file(olive_dir() + "Broodings-50.olv");
  REQUIRE(broodings.entries.size() == 12);
  // entries 1, 3, 4, 5, 6 are orthodox with Popeye or SAN solutions; 7-11 have fairy pieces; 12 is Mirror
  // Circe (its moves happen to be legal orthodox moves, but fairy rules forbid an orthodox replay); 2 uses "~"
  for (int i : {1, 3, 4, 5, 6}) {
    INFO("Broodings entry " << i);
    const Entry& e = broodings.entries[i - 1];
    CHECK_FALSE(is_fairy(e));
    auto t = replay_solution(e);
    INFO(t.error);
    CHECK(t.complete);
  }
  for (int i : {7, 8, 9, 10, 11}) {
    const Entry& e = broodings.entries[i - 1];
    CHECK(is_fairy(e));
    auto t = replay_solution(e);
    CHECK_FALSE(t.complete);
    CHECK(t.error.rfind("diagram: fairy piece", 0) == 0);
  }
  auto twelfth = replay_solution(broodings.entries[11]);
  CHECK_FALSE(twelfth.complete);
  CHECK(twelfth.error == "fairy condition 'MirrorCirce'");
  auto second = replay_solution(broodings.entries[1]);
  CHECK_FALSE(second.complete);
  CHECK(second.error == "5:46: cannot read '~' as a move");
  auto third = replay_solution(broodings.entries[2]);
  CHECK(third.twin_count() == 4);
  // every h#2 solution line ends in mate
  for (const TreeNode& n : third.nodes)
    if (n.children.empty()) CHECK(chess::is_checkmate(n.position));

  auto chest = read_yaml_file(olive_dir() + "chest_test.olv");
  REQUIRE(chest.entries.size() == 14);
  for (int i : {2, 6, 7, 9, 11}) {
    INFO("chest_test entry " << i);
    auto t = replay_solution(chest.entries[i - 1]);
    INFO(t.error);
    CHECK(t.complete);
  }
  // the #9 with a written variation "(4. f8=N+? Kc8! 5. Ne6+ Qe8!)" keeps the main line under 4. Nf8+
  auto nine = replay_solution(chest.entries[8]);
  int leaves = 0, mates = 0;
  for (const TreeNode& n : nine.nodes)
    if (n.children.empty()) {
      ++leaves;
      mates += chess::is_checkmate(n.position);
    }
  CHECK(leaves == 3);
  CHECK(mates == 2);
}
