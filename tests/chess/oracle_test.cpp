// Random playouts checked by chess.js (tests/oracle/chess_playout_check.js, installed by scripts/oracle-setup):
// legal move lists as SAN, SAN of each move, FEN after each move, mate and stalemate.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/chess/movegen.h"
#include "engine/chess/san.h"
#include "support/shared_data.h"

using namespace cqlindex::chess;

namespace {

// Sorted SAN of every legal move, each followed by a space (the checker's format).
std::string sorted_sans(const Position& pos) {
  std::vector<std::string> sans;
  for (Move m : legal_moves(pos)) sans.push_back(to_san(pos, m));
  std::sort(sans.begin(), sans.end());
  std::string all;
  for (const auto& s : sans) all += s + ' ';
  return all;
}

}  // namespace

TEST_CASE("oracle: random playouts agree with chess.js", "[chess][oracle]") {
  namespace fs = std::filesystem;
  const fs::path source = CQLINDEX_SOURCE_DIR;
  const fs::path checker = source / "tests/oracle/chess_playout_check.js";
  INFO("needs Node.js and chess.js: run scripts/oracle-setup");
  REQUIRE(fs::exists(source / "tests/oracle/node_modules/chess.js"));
  REQUIRE(std::system("node --version > /dev/null 2>&1") == 0);

  // Start positions: the initial position and the standard perft suite (chess.js knows no Chess960).
  std::vector<Position> starts = {Position::start()};
  std::ifstream epd(cqlindex::test::shared_data("pgn-edge-cases/pychess/perftsuite.epd"));
  std::string line;
  while (std::getline(epd, line)) starts.push_back(*Position::from_fen(line.substr(0, line.find(';'))));
  REQUIRE(starts.size() == 128);

  const fs::path dir = fs::temp_directory_path() / ("cqlindex-chess-oracle-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path games = dir / "playouts.txt";
  std::mt19937 rng(2024);
  int plies = 0, ends = 0;
  {
    std::ofstream out(games);
    for (int g = 0; g < 256; ++g) {
      Position pos = starts[g % starts.size()];
      out << "G\t" << pos.fen() << '\n';
      for (int ply = 0; ply < 80; ++ply) {
        MoveList moves = legal_moves(pos);
        std::string sans = sorted_sans(pos);
        if (moves.empty()) {
          out << "E\t" << sans << '\t' << is_checkmate(pos) << '\t' << is_stalemate(pos) << '\n';
          ++ends;
          break;
        }
        Move m = moves.moves[rng() % moves.size];
        std::string san = to_san(pos, m);
        pos.do_move(m);
        out << "M\t" << sans << '\t' << san << '\t' << pos.fen() << '\n';
        ++plies;
      }
    }
  }
  const std::string cmd = "NODE_PATH='" + (source / "tests/oracle/node_modules").string() + "' node '" +
                          checker.string() + "' '" + games.string() + "' 2>&1";
  std::string output;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) output.append(buf.data(), n);
    pclose(p);
  }
  fs::remove_all(dir);
  INFO(output);
  CHECK(plies > 10000);
  // Every line was checked and none differed.
  CHECK(output.find("plies " + std::to_string(plies + ends) + " differences 0\n") != std::string::npos);
}
