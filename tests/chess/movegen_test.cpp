// Move generation details beyond perft: pseudo-legal moves, mate/stalemate, has_legal_move.
#include <catch2/catch.hpp>

#include "support/chess_positions.h"

#include <algorithm>
#include <fstream>
#include <string>

#include "engine/chess/movegen.h"
#include "engine/chess/perft.h"
#include "engine/chess/san.h"
#include "support/shared_data.h"

using namespace cqlindex::chess;
using cqlindex::test::must_parse;

TEST_CASE("movegen: legal moves are exactly the pseudo-legal moves that pass is_legal", "[chess][movegen]") {
  size_t positions = 0, filtered = 0;
  for (const char* file : {"perftsuite.epd", "frc_perftsuite.epd"}) {
    std::ifstream in(cqlindex::test::shared_data(std::string("pgn-edge-cases/pychess/") + file));
    REQUIRE(in.good());
    std::string line;
    while (std::getline(in, line)) {
      auto root = Position::from_fen(line.substr(0, line.find(';')));
      REQUIRE(root.has_value());
      std::vector<Position> all = {*root};
      for (Move m : legal_moves(*root)) all.push_back(root->after(m));
      for (const Position& pos : all) {
        MoveList legal = legal_moves(pos), pseudo = pseudo_legal_moves(pos);
        std::vector<uint16_t> a, b;
        for (Move m : legal) a.push_back(m.raw());
        for (Move m : pseudo)
          if (pos.is_legal(m)) b.push_back(m.raw());
          else ++filtered;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        INFO(pos.fen());
        REQUIRE(std::adjacent_find(a.begin(), a.end()) == a.end());  // no duplicates
        REQUIRE(a == b);
        CHECK(has_legal_move(pos) == !legal.empty());
        ++positions;
      }
    }
  }
  CHECK(positions > 1500);
  CHECK(filtered > 1000);
}

TEST_CASE("movegen: pseudo-legal moves ignore king safety", "[chess][movegen]") {
  // The king may step into the rook's file; the knight may leave its pin line.
  Position pos = must_parse("4r1k1/8/8/8/8/8/8/3K4 w - - 0 1");
  auto has = [](const MoveList& l, Move m) { return l.contains(m); };
  CHECK(has(pseudo_legal_moves(pos), Move(SQ_D1, SQ_E1)));
  CHECK_FALSE(has(legal_moves(pos), Move(SQ_D1, SQ_E1)));
  Position pinned = must_parse("4r1k1/8/8/8/8/5p2/4N3/4K3 w - - 0 1");
  CHECK(has(pseudo_legal_moves(pinned), Move(SQ_E2, SQ_F4)));
  CHECK_FALSE(has(legal_moves(pinned), Move(SQ_E2, SQ_F4)));
  // Castling through an attacked square is pseudo-legal, not legal.
  Position castle = must_parse("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1");
  Move oo = Move::make(SQ_E1, SQ_H1, CASTLING);
  CHECK(has(pseudo_legal_moves(castle), oo));
  CHECK_FALSE(has(legal_moves(castle), oo));
}

TEST_CASE("movegen: checkmate and stalemate", "[chess][movegen]") {
  Position fools = Position::start();
  for (const char* m : {"f3", "e5", "g4", "Qh4#"}) fools.do_move(parse_move(fools, m));
  CHECK(is_checkmate(fools));
  CHECK_FALSE(is_stalemate(fools));
  CHECK(legal_moves(fools).empty());
  Position stale = must_parse("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
  CHECK(is_stalemate(stale));
  CHECK_FALSE(is_checkmate(stale));
  CHECK_FALSE(is_checkmate(Position::start()));
  CHECK_FALSE(is_stalemate(Position::start()));
  // Double check: only king moves.
  Position dbl = must_parse("4k3/8/8/8/1b6/8/3N4/r3K3 w - - 0 1");
  for (Move m : legal_moves(dbl)) CHECK(m.from() == SQ_E1);
  // The most moves known in a legal position: 218.
  CHECK(legal_moves(must_parse("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1")).size == 218);
}

TEST_CASE("movegen: a king left in check by a null move is never captured", "[chess][movegen]") {
  // White is in check and passes; Black may not take the king, and nothing crashes.
  Position pos = must_parse("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
  REQUIRE(pos.in_check());
  Position after = pos.after(parse_move(pos, "--"));
  for (Move m : legal_moves(after)) CHECK(m.to() != SQ_E1);
  for (Move m : pseudo_legal_moves(after)) CHECK(m.to() != SQ_E1);
  CHECK(legal_moves(after).size > 0);
  SanError err;
  CHECK(parse_move(after, "Rxe1", &err).is_none());
  CHECK(err == SanError::Illegal);
  CHECK(parse_move(after, "a1e1", &err).is_none());
  // A set-up position with the side not to move in check behaves the same.
  Position setup = must_parse("4k3/8/8/8/8/8/8/r3K3 b - - 0 1");
  for (Move m : legal_moves(setup)) CHECK(m.to() != SQ_E1);
  CHECK(perft(setup, 3) > 0);
}
