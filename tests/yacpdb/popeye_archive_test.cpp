// Popeye's own solver output (the popeye-examples archive): every orthodox problem's solution text parses into
// a tree whose every move is legal, and the moves Popeye marks '#' / '=' are mates / stalemates.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/chess/movegen.h"
#include "engine/yacpdb/replay.h"
#include "popeye_output.h"
#include "support/shared_data.h"

using namespace cqlindex;
using namespace cqlindex::yacpdb;
namespace fs = std::filesystem;

namespace {

// The archive's REGRESSIONTESTS folder unpacked into a temporary directory, removed again at the end.
struct UnpackedOutputs {
  fs::path root;
  fs::path dir;  // empty when tar failed
  UnpackedOutputs() {
    root = fs::temp_directory_path() / ("cqlindex-popeye-" + std::to_string(::getpid()));
    fs::create_directories(root);
    std::string archive = cqlindex::test::shared_data("problems/popeye-examples-and-regression-outputs.tar.xz");
    std::string cmd = "tar xJf '" + archive + "' -C '" + root.string() + "' REGRESSIONTESTS";
    if (std::system(cmd.c_str()) == 0) dir = root / "REGRESSIONTESTS";
  }
  ~UnpackedOutputs() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// True when a textual tree twins only with piece commands we can apply.
bool twins_applicable(const SolutionParse& parse) {
  for (const auto& twin : parse.root->children)
    for (const TwinCommand& c : twin->twin_commands)
      if (c.kind == TwinCommand::Kind::Other) return false;
  return true;
}

// Checks that the '#' and '=' markers of the text agree with the replayed positions.
void check_markers(const SolutionNode& text, const SolutionTree& tree, int32_t node, int& checked, int& wrong) {
  if (text.kind == SolutionNode::Kind::Move) {
    const chess::Position& pos = tree.nodes[node].position;
    if (text.move.check == "#") {
      ++checked;
      wrong += !chess::is_checkmate(pos);
    } else if (text.move.check == "=") {
      ++checked;
      wrong += !chess::is_stalemate(pos);
    }
  }
  const auto& kids = tree.nodes[node].children;
  for (size_t i = 0; i < text.children.size() && i < kids.size(); ++i)
    check_markers(*text.children[i], tree, kids[i], checked, wrong);
}

}  // namespace

TEST_CASE("yacpdb popeye archive: orthodox solutions replay with legal moves only", "[yacpdb][popeye]") {
  UnpackedOutputs unpacked;
  const fs::path& dir = unpacked.dir;
  REQUIRE_FALSE(dir.empty());
  int blocks = 0, orthodox = 0, replayed = 0, twin_skipped = 0, markers = 0, wrong_markers = 0;
  size_t moves = 0;
  std::vector<std::string> failures;
  std::vector<fs::path> files;
  for (const auto& f : fs::directory_iterator(dir)) {
    std::string ext = f.path().extension().string();
    if (ext == ".ref" || ext == ".tst" || ext == ".reg") files.push_back(f.path());  // .out is German
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    for (auto& p : testing::read_popeye_output(slurp(f), f.filename().string())) {
      ++blocks;
      if (!p.orthodox) continue;
      ++orthodox;
      SolutionParse parse = parse_solution_text(p.entry.solution);
      if (!twins_applicable(parse)) {
        ++twin_skipped;
        continue;
      }
      // Popeye's EnPassant option is not printed; a first move written "ep." tells it
      const SolutionNode* first = parse.root->children.empty() || parse.root->children[0]->children.empty()
                                      ? nullptr
                                      : parse.root->children[0]->children[0].get();
      if (first && first->kind == SolutionNode::Kind::Move && first->move.en_passant)
        p.entry.options.push_back("EnPassant " +
                                  std::string{char('a' + first->move.to % 8), char('1' + first->move.to / 8)});
      SolutionTree tree = replay_solution(p.entry, parse);
      if (!tree.complete) {
        failures.push_back(p.entry.file + ":" + std::to_string(p.entry.line) + " " + p.entry.stipulation + ": " +
                           tree.error);
        continue;
      }
      ++replayed;
      moves += tree.nodes.size();
      int twin_index = 0;
      for (const auto& twin : parse.root->children) {
        int32_t node = tree.root().children[twin_index++];
        check_markers(*twin, tree, node, markers, wrong_markers);
      }
    }
  }
  for (const auto& f : failures) UNSCOPED_INFO(f);
  INFO("blocks " << blocks << ", orthodox " << orthodox << ", twins skipped " << twin_skipped << ", replayed "
                 << replayed << ", tree nodes " << moves << ", markers " << markers);
  CHECK(failures.empty());
  CHECK(orthodox >= 40);
  CHECK(replayed + twin_skipped == orthodox);
  CHECK(markers > 100);
  CHECK(wrong_markers == 0);
}
