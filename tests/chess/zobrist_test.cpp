// Zobrist keys: incremental == recomputed, equal positions share a key, state changes change it.
#include <catch2/catch.hpp>

#include "support/chess_positions.h"

#include <string>

#include "engine/chess/movegen.h"
#include "engine/chess/san.h"

using namespace cqlindex::chess;
using cqlindex::test::must_parse;

namespace {

// Walks the legal move tree; every incremental key must equal the recomputed one and the FEN's key.
void check_tree(const Position& pos, int depth, size_t& nodes) {
  ++nodes;
  REQUIRE(pos.key() == pos.compute_key());
  if (depth == 0) {
    auto again = Position::from_fen(pos.fen());
    REQUIRE(again.has_value());
    INFO(pos.fen());
    REQUIRE(again->key() == pos.key());
    return;
  }
  for (Move m : legal_moves(pos)) check_tree(pos.after(m), depth - 1, nodes);
}

Position play(Position pos, std::initializer_list<const char*> moves) {
  for (const char* m : moves) {
    SanError err;
    Move mv = parse_move(pos, m, &err);
    INFO(m);
    REQUIRE(err == SanError::None);
    pos.do_move(mv);
  }
  return pos;
}

}  // namespace

TEST_CASE("zobrist: incremental keys equal recomputed keys", "[chess][zobrist]") {
  size_t nodes = 0;
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "R3rkrR/8/8/8/8/8/8/r3RKRr w EGeg - 0 1",
           "nr1kqrbn/pbpppppp/1p6/8/8/BP6/P1PPPPPP/NR1KQRBN b BFbf - 0 1",
       }) {
    check_tree(must_parse(fen), 3, nodes);
  }
  CHECK(nodes > 100000);
}

TEST_CASE("zobrist: transpositions share a key, different states do not", "[chess][zobrist]") {
  Position start = Position::start();
  Position a = play(start, {"Nf3", "Nf6", "Nc3", "Nc6"});
  Position b = play(start, {"Nc3", "Nc6", "Nf3", "Nf6"});
  CHECK(a.key() == b.key());
  // Knights out and back: same board, same rights, same key as the start.
  CHECK(play(start, {"Nf3", "Nf6", "Ng1", "Ng8"}).key() == start.key());
  // Side to move matters.
  CHECK(start.after(Move::null()).key() != start.key());
  // Castling rights matter: the king walks out and back.
  Position k = play(start, {"e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8"});
  Position k2 = play(start, {"e4", "e5", "Nf3", "Nf6", "Ng1", "Ng8"});
  CHECK(k.fen().substr(0, 60).find("KQkq") == std::string::npos);
  CHECK(k.key() != k2.key());
  // e.p. counts only when a capture is legal: 1.e4 leaves the same key as a FEN without the square.
  Position e4 = play(start, {"e4"});
  CHECK(e4.key() == must_parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").key());
  Position ep = play(start, {"e4", "a6", "e5", "d5"});
  Position no_ep = must_parse("rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
  CHECK(ep.key() != no_ep.key());
  CHECK(ep.key() == must_parse(ep.fen()).key());
  // X-FEN: the same board and rights mask with a different castling rook is a different position.
  Position inner = must_parse("4k3/8/8/8/8/8/8/R1K2RR1 w F - 0 1");
  Position outer = must_parse("4k3/8/8/8/8/8/8/R1K2RR1 w K - 0 1");
  CHECK(inner.castling_rights() == outer.castling_rights());
  CHECK(inner.key() != outer.key());
}
