// Bad input never crashes: random tokens for parse_move and mutated FEN strings for from_fen.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "engine/chess/movegen.h"
#include "engine/chess/san.h"

using namespace cqlindex::chess;

TEST_CASE("robustness: random move tokens give a move or an error kind", "[chess][robustness]") {
  std::mt19937 rng(12345);
  const std::string alphabet = "abcdefghx12345678NBRQKPOo0-=+#!?:()@Z. pe/";
  std::vector<Position> positions = {
      Position::start(),
      *Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
      *Position::from_fen("rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"),
      *Position::from_fen("1k5r/8/8/8/8/8/8/4K3 b h - 0 1"),
      *Position::from_fen("3r1k2/2P5/8/8/8/8/8/4K3 w - - 0 1"),
  };
  int ok = 0, errors = 0;
  for (int i = 0; i < 200000; ++i) {
    const Position& pos = positions[i % positions.size()];
    std::string token;
    int len = 1 + int(rng() % 8);
    for (int k = 0; k < len; ++k) token += alphabet[rng() % alphabet.size()];
    SanError err = SanError::None;
    Move m = parse_move(pos, token, &err);
    if (err == SanError::None) {
      INFO(pos.fen() << " '" << token << "'");
      REQUIRE((m.is_null() || legal_moves(pos).contains(m)));
      ++ok;
    } else {
      REQUIRE(m.is_none());
      ++errors;
    }
  }
  CHECK(ok > 100);
  CHECK(errors > 100000);
}

TEST_CASE("robustness: mutated FEN strings parse or fail cleanly", "[chess][robustness]") {
  std::mt19937 rng(777);
  const std::string seeds[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
      "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
  };
  const std::string alphabet = "pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0x";
  int parsed = 0;
  for (int i = 0; i < 50000; ++i) {
    std::string fen = seeds[i % 4];
    int edits = 1 + int(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % fen.size();
      switch (rng() % 3) {
        case 0: fen[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: fen.erase(at, 1); break;
        default: fen = fen.substr(0, at) + alphabet[rng() % alphabet.size()] + fen.substr(at); break;
      }
      if (fen.empty()) fen.push_back('x');
    }
    std::string err;
    auto pos = Position::from_fen(fen, &err);
    if (!pos) {
      REQUIRE_FALSE(err.empty());
      continue;
    }
    ++parsed;
    // Whatever was accepted is usable: moves, SAN, FEN round trip, key.
    INFO(fen);
    MoveList moves = legal_moves(*pos);
    for (Move m : moves) {
      std::string san = to_san(*pos, m);
      REQUIRE(parse_move(*pos, san) == m);
    }
    auto again = Position::from_fen(pos->fen());
    REQUIRE(again.has_value());
    REQUIRE(again->fen() == pos->fen());
    REQUIRE(again->key() == pos->key());
  }
  CHECK(parsed > 1000);
}
