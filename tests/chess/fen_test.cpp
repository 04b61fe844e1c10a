// FEN / X-FEN / Shredder-FEN parsing and writing.
#include <catch2/catch.hpp>

#include "support/chess_positions.h"

#include <string>

#include "engine/chess/movegen.h"
#include "engine/chess/san.h"

using namespace cqlindex::chess;
using cqlindex::test::must_parse;

namespace {

std::string play(const std::string& fen, std::initializer_list<const char*> moves) {
  Position pos = must_parse(fen);
  for (const char* m : moves) {
    SanError err;
    Move mv = parse_move(pos, m, &err);
    INFO(m << " in " << pos.fen());
    REQUIRE(err == SanError::None);
    pos.do_move(mv);
  }
  return pos.fen();
}

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace

TEST_CASE("fen: standard positions round-trip", "[chess][fen]") {
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "4k3/8/8/8/8/8/8/4K2R b K - 99 150",
           "r3k3/8/8/8/8/8/8/4K3 w q - 0 1",
       }) {
    CHECK(must_parse(fen).fen() == fen);
  }
  CHECK(Position::start().fen() == kStart);
  CHECK(Position().fen() == kStart);  // default-constructed = initial position
  CHECK(must_parse("4k3/8/8/8/8/8/8/4K3 w - - 0 0").fullmove_number() == 1);
  CHECK_FALSE(Position::start().is_chess960());
}

TEST_CASE("fen: missing trailing fields take defaults", "[chess][fen]") {
  CHECK(must_parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").fen() ==
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
  CHECK(must_parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b").fen() ==
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
  CHECK(must_parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq").fen() == kStart);
  CHECK(must_parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").fen() == kStart);
  CHECK(must_parse("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq - 3  ").fen() ==
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 1");
}

TEST_CASE("fen: garbage is an error, never a crash", "[chess][fen]") {
  for (const char* bad : {
           "",
           "   ",
           "garbage",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",          // 7 ranks
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1",  // 9 ranks
           "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",    // 9 squares
           "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
           "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",     // 7 squares
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1",
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
           "8/8/8/8/8/8/8/8 w - - 0 1",                                // no kings
           "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",    // black has no king
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",    // two white kings
           "QQQQkQQQ/QQQQQQQQ/Q7/8/8/8/8/4K3 w - - 0 1",               // 17 white pieces
           "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",                           // pawn on rank 1
           "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",                           // pawn on rank 8
       }) {
    std::string err;
    INFO("'" << bad << "'");
    CHECK_FALSE(Position::from_fen(bad, &err).has_value());
    CHECK_FALSE(err.empty());
  }
  CHECK_FALSE(Position::from_fen("garbage").has_value());  // no error string wanted: still fine
}

TEST_CASE("fen: an error names the field at fault and the byte where it goes wrong", "[chess][fen]") {
  struct Bad {
    const char* fen;
    FenField field;
    size_t offset;
  };
  for (const Bad& bad : {
           Bad{"", FenField::Board, 0},
           Bad{"4k3/8/8/8/8/8/7/4K3 w - - 0 1", FenField::Board, 14},      // rank 2: 7 squares
           Bad{"4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", FenField::Board, 20},    // a ninth rank
           Bad{"4k3/8/8/8/8/8/4K3 w - - 0 1", FenField::Board, 17},        // 7 ranks: where the 8th should be
           Bad{"4k3/8/8/8/8/8/8/4X3 w - - 0 1", FenField::Board, 17},      // the character
           Bad{"  4k3/8/8/8/8/8/8/4X3 w", FenField::Board, 19},            // counted from the text's start
           Bad{"8/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Board, 0},         // no black king: the board
           Bad{"4k3/8/8/8/8/8/8/4K3 x - - 0 1", FenField::SideToMove, 20},
           Bad{"r3k2r/8/8/8/8/8/8/R3K2R w KQkz - 0 1", FenField::Castling, 29},
           Bad{"4k3/8/8/8/8/8/8/4K3 w - e9 0 1", FenField::EnPassant, 24},
           Bad{"4k3/8/8/8/8/8/8/4K3 w - - x 1", FenField::Clocks, 26},
           Bad{"4k3/8/8/8/8/8/8/4K3 w - - 0 y", FenField::Clocks, 28},
           Bad{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 z", FenField::Clocks, 30},
       }) {
    INFO("'" << bad.fen << "'");
    FenError error;
    CHECK_FALSE(Position::from_fen(bad.fen, error).has_value());
    CHECK(fen_field_name(error.field) == std::string(fen_field_name(bad.field)));
    CHECK(error.offset == bad.offset);
    CHECK_FALSE(error.message.empty());
    std::string message;  // the same reason through the plain overload
    CHECK_FALSE(Position::from_fen(bad.fen, &message).has_value());
    CHECK(message == error.message);
  }
}

TEST_CASE("fen: a FEN that must say who moves is refused without it", "[chess][fen]") {
  FenError error;
  CHECK_FALSE(Position::from_fen("4k3/8/8/8/8/8/8/4K3", error, FenSide::Required).has_value());
  CHECK(error.field == FenField::SideToMove);
  CHECK(error.offset == 19);  // just after the board
  CHECK(Position::from_fen("4k3/8/8/8/8/8/8/4K3", error).has_value());  // white moves, as PGN's FEN tags are read
  CHECK(Position::from_fen("4k3/8/8/8/8/8/8/4K3 b", error, FenSide::Required)->side_to_move() == BLACK);
}

TEST_CASE("fen: a line of ranks is meant as a FEN, PGN never is", "[chess][fen]") {
  for (const char* fen : {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3", "  4k3/8/8/8/8/8/8/4K3 x",
                          "4k3/8/8/8/8/8/4K3 w", "4k3/8/8 /8/8/8/8/4K3 w", "kq/8/8"})
    CHECK(looks_like_fen(fen));
  for (const char* pgn : {"[Event \"a/b/c\"]", "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]", "1. e4 e5 2. Nf3",
                          "1/2-1/2", "1/2-1/2 {drawn}", "e4 1/2-1/2", "{see 8/8/8/8/8/8/8/8}", "; a/b/c", "% x/y/z", "", "   ",
                          "Nf3 {4k3/8/8/8/8/8/8/4K3}", "8/8 w"})
  {
    INFO("'" << pgn << "'");
    CHECK_FALSE(looks_like_fen(pgn));
  }
}

TEST_CASE("fen: inconsistent castling and e.p. fields are dropped, not refused", "[chess][fen]") {
  // No rook on h1 / king not at home: the right is dropped.
  CHECK(must_parse("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1").fen() == "r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1");
  CHECK(must_parse("r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1").fen() == "r3k2r/8/8/8/8/8/4K3/R6R w kq - 0 1");
  // An e.p. square that no double step produced is ignored.
  Position p = must_parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1");
  CHECK(p.ep_square() == SQ_NONE);
}

TEST_CASE("fen: en-passant square written only when an e.p. capture is legal", "[chess][fen]") {
  // 1. e4: no black pawn can capture, so no square (the chess.js rule), though ep_square() knows it.
  Position p = Position::start().after(parse_move(Position::start(), "e4"));
  CHECK(p.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  CHECK(p.ep_square() == SQ_E3);
  CHECK_FALSE(p.ep_capture_possible());
  // A capture is possible: written.
  CHECK(play(kStart, {"e4", "a6", "e5", "d5"}) == "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
  // The capturing pawn is pinned (diagonal, file): not written.
  CHECK(play("8/8/3k4/8/5p2/8/4P2B/4K3 w - - 0 1", {"e4"}) == "8/8/3k4/8/4Pp2/8/7B/4K3 b - - 0 1");
  CHECK(play("5k2/8/8/8/5p2/8/4P3/4KR2 w - - 0 1", {"e4"}) == "5k2/8/8/8/4Pp2/8/8/4KR2 b - - 0 1");
  // Pinned along the capture diagonal itself: the capture stays on the line, so it is legal.
  CHECK(play("8/8/8/6k1/5p2/8/3BP3/4K3 w - - 0 1", {"e4"}) == "8/8/8/6k1/4Pp2/8/3B4/4K3 b - e3 0 1");
  // Rank pin through both pawns (king, the two pawns, rook on one rank): not written.
  CHECK(play("8/8/8/8/k4p1R/8/4P3/4K3 w - - 0 1", {"e4"}) == "8/8/8/8/k3Pp1R/8/8/4K3 b - - 0 1");
  // Without the rook it is written.
  CHECK(play("8/8/8/8/k4p2/8/4P3/4K3 w - - 0 1", {"e4"}) == "8/8/8/8/k3Pp2/8/8/4K3 b - e3 0 1");
  // The double step gives check and the e.p. capture removes the checker: written.
  CHECK(play("8/8/8/3k4/5p2/8/4P3/4K3 w - - 0 1", {"e4"}) == "8/8/8/3k4/4Pp2/8/8/4K3 b - e3 0 1");
  // The double step discovers a check by a bishop; capturing e.p. does not end it: not written.
  CHECK(play("8/8/8/7k/5p2/8/4P3/3BK3 w - - 0 1", {"e4"}) == "8/8/8/7k/4Pp2/8/8/3BK3 b - - 0 1");
  // A FEN that names the square when the capture is legal round-trips; when illegal it is omitted.
  CHECK(must_parse("rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3").fen() ==
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
  CHECK(must_parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").fen() ==
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST_CASE("fen: Chess960 castling in X-FEN and Shredder-FEN", "[chess][fen][960]") {
  // Shredder letters for a position where KQkq would also do: written back as KQkq.
  Position a = must_parse("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
  CHECK(a.is_chess960());
  CHECK(a.fen() == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
  CHECK(a.castling_rook_square(WHITE_OO) == SQ_H1);
  CHECK(a.castling_rook_square(WHITE_OOO) == SQ_F1);
  CHECK(a.castling_rook_square(BLACK_OO) == SQ_H8);
  CHECK(a.castling_rook_square(BLACK_OOO) == SQ_F8);
  // KQkq resolves to the outermost rooks.
  Position b = must_parse("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
  CHECK(b.castling_rook_square(WHITE_OOO) == SQ_F1);
  CHECK(b.key() == a.key());
  // Two rooks on one side: the inner one needs its file letter (X-FEN), the outer one is K.
  Position c = must_parse("4k3/8/8/8/8/8/8/R1K2RR1 w F - 0 1");
  CHECK(c.castling_rook_square(WHITE_OO) == SQ_F1);
  CHECK(c.fen() == "4k3/8/8/8/8/8/8/R1K2RR1 w F - 0 1");
  Position d = must_parse("4k3/8/8/8/8/8/8/R1K2RR1 w KA - 0 1");
  CHECK(d.castling_rook_square(WHITE_OO) == SQ_G1);
  CHECK(d.castling_rook_square(WHITE_OOO) == SQ_A1);
  CHECK(d.fen() == "4k3/8/8/8/8/8/8/R1K2RR1 w KQ - 0 1");
  // The EPD suite's form: EGeg names each side's outermost own rooks, so it is written as KQkq.
  Position e = must_parse("R3rkrR/8/8/8/8/8/8/r3RKRr w EGeg - 0 1");
  CHECK(e.castling_rook_square(WHITE_OOO) == SQ_E1);
  CHECK(e.castling_rook_square(WHITE_OO) == SQ_G1);
  CHECK(e.fen() == "R3rkrR/8/8/8/8/8/8/r3RKRr w KQkq - 0 1");
  CHECK(must_parse(e.fen()).key() == e.key());
  // A standard set-up written with Shredder letters is not Chess960.
  Position f = must_parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  CHECK_FALSE(f.is_chess960());
  CHECK(f.fen() == kStart);
  CHECK(f.key() == Position::start().key());
}

TEST_CASE("fen: positions with the side not to move in check are accepted", "[chess][fen]") {
  // Documented decision: such (impossible) positions are read; move generation still works.
  Position p = must_parse("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1");
  CHECK(p.in_check());
  Position q = must_parse("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1");  // white in check, black to move
  CHECK_FALSE(q.in_check());
  CHECK(legal_moves(q).size > 0);
}
