// PolishType and Imitator twins. PolishType swaps the colours of all pieces on their squares (Popeye's
// total_side_exchange, Olive's invertColors; neutral pieces stay neutral); Imitator sets the imitators' squares,
// a fairy condition, so such a twin is read but not replayed orthodoxly. Real cases: Popeye's own output for
// annan.inp (b) PolishType) and imitator.inp (c) Imitator c5, d) Imitator a7) from the popeye-examples archive.
#include <unistd.h>

#include <algorithm>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/yacpdb/analysis.h"
#include "engine/yacpdb/diagram.h"
#include "engine/yacpdb/replay.h"
#include "engine/yacpdb/solution_text.h"
#include "engine/yacpdb/yaml_entries.h"
#include "twin_fixtures.h"
#include "popeye_output.h"
#include "support/shared_data.h"

using namespace cqlindex;
using namespace cqlindex::yacpdb;
using namespace cqlindex::yacpdb::test;
namespace fs = std::filesystem;

namespace {

// Two Popeye output files of the archive, unpacked into a temporary directory (removed at the end).
struct PopeyeOutputs {
  fs::path root;
  bool ok = false;
  PopeyeOutputs() {
    root = fs::temp_directory_path() / ("cqlindex-polish-" + std::to_string(::getpid()));
    fs::create_directories(root);
    std::string archive = cqlindex::test::shared_data("problems/popeye-examples-and-regression-outputs.tar.xz");
    std::string cmd = "tar xJf '" + archive + "' -C '" + root.string() +
                      "' REGRESSIONTESTS/annan.ref REGRESSIONTESTS/imitator.out";
    ok = std::system(cmd.c_str()) == 0;
  }
  ~PopeyeOutputs() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::vector<testing::PopeyeProblem> problems(const std::string& name) const {
    std::ifstream in(root / "REGRESSIONTESTS" / name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return testing::read_popeye_output(ss.str(), name);
  }
};

// The problem of Popeye output `file` (annan.ref or imitator.out) whose solution contains `text`.
testing::PopeyeProblem popeye_problem(const std::string& file, const std::string& text) {
  PopeyeOutputs outputs;
  REQUIRE(outputs.ok);
  for (auto& p : outputs.problems(file))
    if (p.entry.solution.find(text) != std::string::npos) return p;
  FAIL("no problem of " << file << " has '" << text << "' in its solution");
  return {};
}

}  // namespace

TEST_CASE("yacpdb twins: PolishType and Imitator commands are read", "[yacpdb][twin]") {
  auto p = parse_solution_text("a) 1.Ra2-a8 #\nb) PolishType 1.Kh8-g8\nc) Imitator c5 1.Ra2-a8[Ia7] +\n"
                               "d) Imitator a7 b7 1.Ra2-a3[Ia8,b8]\ne) imitator d4e5 -wRa2 1.Kg6-f6[Ic4,d5]");
  INFO(p.error.value_or(""));
  REQUIRE_FALSE(p.error);
  REQUIRE(p.root->children.size() == 5);
  const auto& b = p.root->children[1]->twin_commands;
  REQUIRE(b.size() == 1);
  CHECK(b[0].kind == TwinCommand::Kind::PolishType);
  const auto& c = p.root->children[2]->twin_commands;
  REQUIRE(c.size() == 1);
  CHECK(c[0].kind == TwinCommand::Kind::Imitator);
  CHECK(c[0].squares == std::vector<int>{sq("c5")});
  CHECK(c[0].text == "Imitator c5");
  const auto& d = p.root->children[3]->twin_commands;
  REQUIRE(d.size() == 1);
  CHECK(d[0].squares == std::vector<int>{sq("a7"), sq("b7")});
  const auto& e = p.root->children[4]->twin_commands;  // squares run together (Popeye's input), then a removal
  REQUIRE(e.size() == 2);
  CHECK(e[0].kind == TwinCommand::Kind::Imitator);
  CHECK(e[0].squares == std::vector<int>{sq("d4"), sq("e5")});
  CHECK(e[1].kind == TwinCommand::Kind::Remove);
  // every twin still has its move
  for (const auto& twin : p.root->children) CHECK(twin->children.size() == 1);
}

TEST_CASE("yacpdb twins: PolishType swaps the colours of every piece on its square", "[yacpdb][twin]") {
  std::vector<DiagramPiece> pieces = entry_with("#1", "").pieces;
  pieces.push_back(DiagramPiece{'n', "Q", {}, sq("d4")});
  TwinCommand polish;
  polish.kind = TwinCommand::Kind::PolishType;
  std::string why;
  REQUIRE(apply_twin_command(pieces, polish, &why));
  REQUIRE(pieces.size() == 4);
  CHECK(pieces[0].color == 'b');  // Kg6
  CHECK(pieces[0].square == sq("g6"));
  CHECK(pieces[1].color == 'b');  // Ra2
  CHECK(pieces[2].color == 'w');  // Kh8
  CHECK(pieces[3].color == 'n');  // a neutral stays neutral
  REQUIRE(apply_twin_command(pieces, polish, &why));
  CHECK(pieces[0].color == 'w');
  CHECK(pieces[2].color == 'b');
}

TEST_CASE("yacpdb twins: a PolishType twin replays on the colour-swapped diagram", "[yacpdb][twin]") {
  // a) the rook mates; b) colours swapped: White (to move in #1) now has only the king on h8; +c) continued from b):
  // swapped back.
  Entry e = entry_with("#1", "a) 1.Ra2-a8 #\nb) PolishType 1.Kh8-g8\n+c) PolishType 1.Ra2-a8 #");
  SolutionTree t = replay_solution(e);
  INFO(t.error);
  REQUIRE(t.complete);
  CHECK(board_of(t, 0) == "7k/8/6K1/8/8/8/R7/8");
  CHECK(board_of(t, 1) == "7K/8/6k1/8/8/8/r7/8");
  CHECK(board_of(t, 2) == "7k/8/6K1/8/8/8/R7/8");
  // every unit keeps its identity: the rook is the diagram's a2 rook in every twin
  const auto& twins = t.root().children;
  for (int32_t twin : twins)
    if (!t.nodes[twin].origins.empty()) CHECK(t.nodes[twin].origins[sq("a2")] == sq("a2"));
  CHECK(t.twin_count() == 3);
  // The twin of a twin with the old colours cannot play the white rook.
  t = replay_solution(entry_with("#1", "a) 1.Ra2-a8 #\nb) PolishType 1.Ra2-a8 #"));
  CHECK_FALSE(t.complete);
}

TEST_CASE("yacpdb twins: an Imitator twin is fairy play, never replayed orthodoxly", "[yacpdb][twin]") {
  Entry e = entry_with("#1", "a) 1.Ra2-a8 #\nb) Imitator c5 1.Ra2-a8[Ic8] #");
  SolutionTree t = replay_solution(e);
  CHECK_FALSE(t.complete);
  CHECK(t.error == "2:1: twin b: imitators (a fairy condition)");
  // continued twins keep the imitators
  t = replay_solution(entry_with("#1", "a) 1.Ra2-a8 #\nb) Imitator c5 1.Ra2-a8[Ic8] #\n+c) bKh8-->h7"));
  CHECK_FALSE(t.complete);
  // the analysis predicates then count nothing for the entry (research 4.2), the entry is not analysed
  Problem problem{e, replay_solution(e)};
  CHECK_FALSE(problem.tree.complete);
}

TEST_CASE("yacpdb twins: Popeye's PolishType twin of annan.inp applies to the real diagram", "[yacpdb][twin]") {
  const testing::PopeyeProblem p = popeye_problem("annan.ref", "PolishType");
  // S. Emmerson, The Problemist 2007, h#3 AnnanChess: wBa1 wKb1, bBg1 bKh1.
  auto parse = parse_solution_text(p.entry.solution);
  INFO(parse.error.value_or(""));
  REQUIRE_FALSE(parse.error);
  REQUIRE(parse.root->children.size() == 2);
  const auto& b = *parse.root->children[1];
  CHECK(b.twin_label == "b");
  REQUIRE(b.twin_commands.size() == 1);
  CHECK(b.twin_commands[0].kind == TwinCommand::Kind::PolishType);
  // Popeye's twin b starts 1.Kb1-a2 Kh1-g2 2.Ba1-b1: the black king and bishop now stand on b1 and a1, the white
  // king on h1. The first move pair is orthodox; 2.Ba1-b1 is an Annan move (the bishop moves as the king behind
  // it), so orthodox replay of the text stops exactly there.
  Entry e = p.entry;
  e.options.clear();  // the condition is kept in p.conditions; replay the board commands as they are
  e.solution = "b) PolishType 1.Kb1-a2 Kh1-g2";
  SolutionTree t = replay_solution(e);
  INFO(t.error);
  REQUIRE(t.complete);
  CHECK(board_of(t, 0) == "8/8/8/8/8/8/8/bk4BK");
  e.solution = "b) PolishType 1.Kb1-a2 Kh1-g2 2.Ba1-b1";
  t = replay_solution(e);
  CHECK_FALSE(t.complete);
  CHECK(t.error.find("cannot play 'Ba1-b1'") != std::string::npos);
}

TEST_CASE("yacpdb twins: Popeye's Imitator twins of imitator.inp are read as imitator squares", "[yacpdb][twin]") {
  const testing::PopeyeProblem p = popeye_problem("imitator.out", "Imitator c5");
  // Th. Maeder, feenschach 1987, h=2 Imitator e5: b) wKf5-->g5, c) Imitator c5, d) Imitator a7. The solutions
  // promote to fairy pieces (=I), which the solution reader refuses, so the twin lines are read on their own.
  std::istringstream lines(p.entry.solution);
  std::string line, headers;
  while (std::getline(lines, line))
    if (line.size() > 2 && line[1] == ')') headers += line + "\n";
  CHECK(headers == "a) \nb) wKf5-->g5  \nc) Imitator c5  \nd) Imitator a7  \n");
  auto parse = parse_solution_text(headers);
  INFO(parse.error.value_or(""));
  REQUIRE_FALSE(parse.error);
  REQUIRE(parse.root->children.size() == 4);
  CHECK(parse.root->children[1]->twin_commands.at(0).kind == TwinCommand::Kind::Move);
  const auto& c = parse.root->children[2]->twin_commands;
  REQUIRE(c.size() == 1);
  CHECK(c[0].kind == TwinCommand::Kind::Imitator);
  CHECK(c[0].squares == std::vector<int>{sq("c5")});
  const auto& d = parse.root->children[3]->twin_commands;
  REQUIRE(d.size() == 1);
  CHECK(d[0].squares == std::vector<int>{sq("a7")});
  // The entry itself is fairy (condition Imitator): never replayed.
  CHECK(std::find(p.conditions.begin(), p.conditions.end(), "Imitator e5") != p.conditions.end());
}
