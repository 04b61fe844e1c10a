// Problem files: PGN collections (tags -> metadata, movetext -> solution tree) and YAML through one loader.
#include "engine/yacpdb/problem.h"

#include <catch2/catch.hpp>

#include "engine/chess/movegen.h"
#include "support/shared_data.h"

using namespace cqlindex;
using namespace cqlindex::yacpdb;

namespace {

std::string problems_dir() { return cqlindex::test::shared_data("problems") + "/"; }

int leaves(const SolutionTree& t) {
  int n = 0;
  for (const TreeNode& node : t.nodes) n += node.children.empty();
  return n;
}

}  // namespace

TEST_CASE("yacpdb problems: PGN tags map to entry metadata", "[yacpdb][problem]") {
  const char* pgn =
      "[Event \"Some Event\"]\n[White \"Loyd, Samuel\"]\n[Composer \"Müller, Dieter; Wiehagen, Rolf\"]\n"
      "[Source \"Broodings\"]\n[Date \"2009.02.??\"]\n[Stipulation \"h#1\"]\n[Options \"SetPlay; Try\"]\n"
      "[Keywords \"Zilahi;Model mates\"]\n[Judge \"A; B\"]\n[Tourney \"T\"]\n[Award \"1st Prize\"]\n"
      "[SourceId \"3\"]\n[IssueId \"50\"]\n[YacpdbId \"412003\"]\n[ReprintType \"solving event\"]\n"
      "[SetUp \"1\"]\n[FEN \"7k/8/6K1/8/8/8/2n5/R3R3 b - - 0 1\"]\n\n"
      "1... Nxa1 (1... Nxe1 2. Ra8#) 2. Re8# *\n\n"
      "[Event \"Second\"]\n[White \"Anon\"]\n[Date \"1851\"]\n\n1. e4 e5 *\n";
  ProblemFile f = read_pgn_problems(pgn, "t.pgn");
  CHECK(f.errors.empty());
  REQUIRE(f.problems.size() == 2);
  const Entry& e = f.problems[0].entry;
  CHECK(e.number == 1);
  CHECK(e.line == 1);
  CHECK(e.authors == std::vector<std::string>{"Müller, Dieter", "Wiehagen, Rolf"});
  CHECK(e.source == "Broodings");
  CHECK(e.date.year == 2009);
  CHECK(e.date.month == 2);
  CHECK(e.date.day == 0);
  CHECK(e.stipulation == "h#1");
  CHECK(e.options == std::vector<std::string>{"SetPlay", "Try"});
  CHECK(e.keywords == std::vector<std::string>{"Zilahi", "Model mates"});
  CHECK(e.judges.size() == 2);
  CHECK(e.tourney == "T");
  CHECK(e.distinction == "1st Prize");
  CHECK(e.source_id == "3");
  CHECK(e.issue_id == "50");
  CHECK(e.id == 412003);
  CHECK(e.reprint_types == std::vector<std::string>{"solving event"});
  CHECK(e.fen == "7k/8/6K1/8/8/8/2n5/R3R3 b - - 0 1");
  CHECK(e.pieces.size() == 5);
  CHECK(e.text.rfind("[Event \"Some Event\"]", 0) == 0);
  CHECK(e.text.find("Second") == std::string::npos);
  const SolutionTree& t = f.problems[0].tree;
  CHECK(t.complete);
  CHECK(t.twin_count() == 1);
  CHECK(t.nodes.size() == 6);  // root, twin, Nxa1, Re8, Nxe1, Ra8
  CHECK(leaves(t) == 2);
  for (const TreeNode& n : t.nodes)
    if (n.children.empty()) CHECK(chess::is_checkmate(n.position));

  const Entry& second = f.problems[1].entry;
  CHECK(second.authors == std::vector<std::string>{"Anon"});
  CHECK(second.source == "Second");
  CHECK(second.date.year == 1851);
  CHECK(second.number == 2);
  CHECK(f.problems[1].tree.nodes[0].position == chess::Position::start());
}

TEST_CASE("yacpdb problems: null moves and broken games", "[yacpdb][problem]") {
  const char* pgn =
      "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 0 1\"]\n\n1. -- Kb8 2. Rh8# (1. Rh8#) *\n\n"
      "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 0 1\"]\n\n1. Rh8# Kb7 *\n";
  ProblemFile f = read_pgn_problems(pgn, "t.pgn");
  REQUIRE(f.problems.size() == 2);
  const SolutionTree& t = f.problems[0].tree;
  CHECK(t.complete);
  REQUIRE(t.nodes.size() == 6);
  CHECK(t.nodes[2].kind == TreeNode::Kind::Null);
  CHECK_FALSE(f.problems[1].tree.complete);
  CHECK(f.problems[1].tree.error.find("7:9:") == 0);
  REQUIRE_FALSE(f.errors.empty());
  INFO(f.errors[0] << " / " << f.problems[1].tree.error);
  CHECK(f.errors[0].rfind("t.pgn:7:9: game 2:", 0) == 0);
}

TEST_CASE("yacpdb problems: the mate-in-n and lichess PGN collections read completely", "[yacpdb][problem]") {
  struct Expect {
    const char* file;
    size_t games;
  };
  for (Expect x : {Expect{"mate-in-n-from-games/mate_in_2.pgn", 166}, Expect{"mate-in-n-from-games/mate_in_3.pgn", 375},
                   Expect{"mate-in-n-from-games/mate_in_4.pgn", 373}}) {
    INFO(x.file);
    ProblemFile f = read_problem_file(problems_dir() + x.file);
    CHECK(f.problems.size() == x.games);
    int complete = 0, mated = 0;
    for (const Problem& p : f.problems) {
      complete += p.tree.complete;
      const TreeNode* n = &p.tree.nodes[1];
      while (!n->children.empty()) n = &p.tree.nodes[n->children[0]];
      mated += chess::is_checkmate(n->position);
    }
    CHECK(complete == static_cast<int>(x.games));
    CHECK(mated == static_cast<int>(x.games));
  }
  ProblemFile lichess =
      read_problem_file(problems_dir() + "lichess-checkmate-puzzles/lichess-beautiful-checkmate-puzzles.pgn");
  CHECK(lichess.problems.size() == 27);
  int complete = 0;
  for (const Problem& p : lichess.problems) complete += p.tree.complete;
  CHECK(complete == 27);
}

TEST_CASE("yacpdb problems: YAML files go through the same loader", "[yacpdb][problem]") {
  ProblemFile f = read_problem_file(problems_dir() + "yacpdb-olive/Broodings-50.olv");
  CHECK(f.errors.empty());
  REQUIRE(f.problems.size() == 12);
  int complete = 0;
  for (const Problem& p : f.problems) complete += p.tree.complete;
  CHECK(complete == 5);
  ProblemFile missing = read_problem_file("/nonexistent/x.pgn");
  CHECK(missing.problems.empty());
  CHECK(missing.errors.size() == 1);
}
