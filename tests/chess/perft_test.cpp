// Perft against published node counts (chessprogramming.org positions and the pychess EPD suites).
#include <catch2/catch.hpp>

#include "support/chess_positions.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/chess/perft.h"
#include "support/shared_data.h"

using namespace cqlindex::chess;
using cqlindex::test::must_parse;

namespace {

// Runs every depth whose published count is at most this many leaves: keeps the suite a few seconds long.
constexpr uint64_t kMaxEpdNodes = 20'000'000;

struct EpdCase {
  std::string fen;
  std::vector<std::pair<int, uint64_t>> depths;
};

std::vector<EpdCase> read_epd(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<EpdCase> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::stringstream ss(line);
    EpdCase c;
    std::getline(ss, c.fen, ';');
    std::string field;
    while (std::getline(ss, field, ';')) {
      std::stringstream fs(field);
      std::string tag;
      uint64_t nodes = 0;
      fs >> tag >> nodes;
      if (tag.size() >= 2 && tag[0] == 'D') c.depths.emplace_back(std::stoi(tag.substr(1)), nodes);
    }
    out.push_back(c);
  }
  return out;
}

void run_epd(const std::string& file, size_t expected_positions) {
  auto cases = read_epd(cqlindex::test::shared_data("pgn-edge-cases/pychess/" + file));
  REQUIRE(cases.size() == expected_positions);
  int checked = 0;
  for (const auto& c : cases) {
    Position pos = must_parse(c.fen);
    REQUIRE(!c.depths.empty());
    for (auto [depth, nodes] : c.depths) {
      if (nodes > kMaxEpdNodes && depth > 1) continue;
      INFO(c.fen << " depth " << depth);
      CHECK(perft(pos, depth) == nodes);
      ++checked;
    }
  }
  CHECK(checked >= int(expected_positions) * 3);
}

}  // namespace

TEST_CASE("perft: start position to depth 5", "[chess][perft]") {
  Position pos = Position::start();
  const uint64_t expected[] = {1, 20, 400, 8902, 197281, 4865609};
  for (int d = 0; d <= 5; ++d) CHECK(perft(pos, d) == expected[d]);
}

TEST_CASE("perft: Kiwipete to depth 4", "[chess][perft]") {
  Position pos = must_parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  const uint64_t expected[] = {1, 48, 2039, 97862, 4085603};
  for (int d = 0; d <= 4; ++d) CHECK(perft(pos, d) == expected[d]);
}

TEST_CASE("perft: position 3 to depth 5", "[chess][perft]") {
  Position pos = must_parse("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
  const uint64_t expected[] = {1, 14, 191, 2812, 43238, 674624};
  for (int d = 0; d <= 5; ++d) CHECK(perft(pos, d) == expected[d]);
}

TEST_CASE("perft: position 4 (and its mirror) to depth 4", "[chess][perft]") {
  const uint64_t expected[] = {1, 6, 264, 9467, 422333};
  Position pos = must_parse("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
  Position mirror = must_parse("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1");
  for (int d = 0; d <= 4; ++d) {
    CHECK(perft(pos, d) == expected[d]);
    CHECK(perft(mirror, d) == expected[d]);
  }
}

TEST_CASE("perft: position 5 to depth 4", "[chess][perft]") {
  Position pos = must_parse("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8");
  const uint64_t expected[] = {1, 44, 1486, 62379, 2103487};
  for (int d = 0; d <= 4; ++d) CHECK(perft(pos, d) == expected[d]);
}

TEST_CASE("perft: position 6 to depth 4", "[chess][perft]") {
  Position pos = must_parse("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10");
  const uint64_t expected[] = {1, 46, 2079, 89890, 3894594};
  for (int d = 0; d <= 4; ++d) CHECK(perft(pos, d) == expected[d]);
}

TEST_CASE("perft: pychess perftsuite.epd (every depth up to 20M leaves)", "[chess][perft]") {
  run_epd("perftsuite.epd", 127);
}

TEST_CASE("perft: pychess frc_perftsuite.epd, Chess960 (every depth up to 20M leaves)", "[chess][perft][960]") {
  run_epd("frc_perftsuite.epd", 9);
}
