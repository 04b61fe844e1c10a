// SAN / UCI / null-move parsing, and SAN writing.
#include <catch2/catch.hpp>

#include "support/chess_positions.h"

#include <fstream>
#include <string>
#include <vector>

#include "engine/chess/movegen.h"
#include "engine/chess/san.h"
#include "support/shared_data.h"

using namespace cqlindex::chess;
using cqlindex::test::must_parse;

namespace {

// The move a token resolves to, in UCI (Chess960 form), or "error:<kind>".
std::string resolve(const Position& pos, std::string_view token) {
  SanError err = SanError::Syntax;
  Move m = parse_move(pos, token, &err);
  if (err != SanError::None) {
    CHECK(m.is_none());
    return std::string("error:") + san_error_name(err);
  }
  REQUIRE_FALSE(m.is_none());
  if (!m.is_null()) CHECK(legal_moves(pos).contains(m));
  return move_to_uci(m, true);
}

std::string resolve(const std::string& fen, std::string_view token) { return resolve(must_parse(fen), token); }

// SAN of a move given as a token.
std::string san_of(const std::string& fen, std::string_view token) {
  Position pos = must_parse(fen);
  SanError err;
  Move m = parse_move(pos, token, &err);
  INFO(token);
  REQUIRE(err == SanError::None);
  return to_san(pos, m);
}

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// Knights on b1 and f3 can both go to d2 (and the queen and bishop too).
const std::string kTwoKnights = "rnbqkbnr/pppppppp/8/8/8/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 1";
// Knights on c3 and g1 can both go to e2, also one on c1 ... used for rank disambiguation below.
const std::string kKnightsE2 = "4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1";
// Knights on c1 and c3 both reach e2 (and b3 reaches... nothing there): same file, so the rank decides.
const std::string kKnightsFile = "4k3/8/8/8/8/2N5/8/2N1K3 w - - 0 1";
// e.p. available: 1.e4 a6 2.e5 d5.
const std::string kEp = "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
const std::string kCastle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const std::string kPromo = "3r1k2/2P5/8/8/8/8/8/4K3 w - - 0 1";

}  // namespace

TEST_CASE("san in: plain piece and pawn moves", "[chess][san]") {
  CHECK(resolve(kStart, "e4") == "e2e4");
  CHECK(resolve(kStart, "e3") == "e2e3");
  CHECK(resolve(kStart, "Nf3") == "g1f3");
  CHECK(resolve(kStart, "Pe4") == "e2e4");
  CHECK(resolve(kStart, "nf3") == "g1f3");  // lower-case piece letter other than b
  CHECK(resolve(kStart, "  Nf3  ") == "g1f3");
  CHECK(resolve(kTwoKnights, "Qxd7+") == "d1d7");
  CHECK(resolve(kTwoKnights, "Qxd8") == "error:illegal");
  CHECK(resolve(kEp, "exd6") == "e5d6");
  CHECK(resolve(kEp, "Bb5") == "f1b5");
}

TEST_CASE("san in: disambiguation forms", "[chess][san]") {
  CHECK(resolve(kTwoKnights, "Nd2") == "error:ambiguous");
  CHECK(resolve(kTwoKnights, "Nbd2") == "b1d2");
  CHECK(resolve(kTwoKnights, "Nfd2") == "f3d2");
  CHECK(resolve(kTwoKnights, "N1d2") == "b1d2");
  CHECK(resolve(kTwoKnights, "N3d2") == "f3d2");
  CHECK(resolve(kTwoKnights, "Nb1d2") == "b1d2");
  CHECK(resolve(kTwoKnights, "Nb1-d2") == "b1d2");
  CHECK(resolve(kTwoKnights, "Nf3d2") == "f3d2");
  CHECK(resolve(kTwoKnights, "Ncd2") == "error:illegal");
  CHECK(resolve(kKnightsE2, "Ne2") == "error:ambiguous");
  CHECK(resolve(kKnightsE2, "Nge2") == "g1e2");
  CHECK(resolve(kKnightsE2, "Ng1e2") == "g1e2");
  CHECK(resolve(kKnightsE2, "Nce2") == "c3e2");
  CHECK(resolve(kKnightsFile, "Nce2") == "error:ambiguous");
  CHECK(resolve(kKnightsFile, "N1c3") == "error:illegal");  // own piece on c3
  CHECK(resolve(kKnightsFile, "N1e2") == "c1e2");
  CHECK(resolve(kKnightsFile, "N3e2") == "c3e2");
  // A pinned knight does not make the move ambiguous.
  const std::string pinned = "4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1";
  CHECK(resolve(pinned, "Ne2") == "g1e2");
  CHECK(resolve(pinned, "Nce2") == "error:illegal");
}

TEST_CASE("san in: captures with x, with ':' and without a marker", "[chess][san]") {
  const std::string fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
  CHECK(resolve(fen, "exd5") == "e4d5");
  CHECK(resolve(fen, "e:d5") == "e4d5");
  CHECK(resolve(fen, "ed5") == "e4d5");
  // The old short form naming only the files, where exactly one such capture is legal.
  CHECK(resolve(fen, "ed") == "e4d5");
  CHECK(resolve(fen, "exd") == "e4d5");
  CHECK(resolve(fen, "ef") == "error:illegal");
  CHECK(resolve(fen, "eb") == "error:illegal");
  CHECK(resolve("4k3/8/3p4/4P3/3p4/4P3/8/4K3 w - - 0 1", "ed") == "error:ambiguous");
  CHECK(resolve("4k3/8/3p4/4P3/3p4/4P3/8/4K3 w - - 0 1", "exd4") == "e3d4");
  CHECK(resolve(kEp, "ed") == "e5d6");  // e.p.
  CHECK(resolve(kPromo, "cd=Q") == "c7d8q");
  CHECK(resolve(kPromo, "cd") == "error:illegal");  // promotion piece missing
  CHECK(resolve(fen, "exd6") == "error:illegal");
  CHECK(resolve(fen, "xd5") == "e4d5");  // capture marker, only one pawn can capture
  const std::string scholar = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
  CHECK(resolve(scholar, "Qxf7#") == "f3f7");
  CHECK(resolve(scholar, "Qf7") == "f3f7");
  CHECK(resolve(scholar, "Q:f7") == "f3f7");
  CHECK(resolve(scholar, "Qf3xf7") == "f3f7");
  CHECK(resolve(scholar, "Bxf7+") == "c4f7");
}

TEST_CASE("san in: en passant with and without markers", "[chess][san]") {
  for (const char* t : {"exd6", "exd6 e.p.", "exd6e.p.", "exd6ep", "exd6 ep", "ed6", "e:d6", "exd6+ e.p.",
                        "exd6 e.p.+", "e5d6"}) {
    INFO(t);
    CHECK(resolve(kEp, t) == "e5d6");
  }
  // Without a double step there is no e.p. capture.
  CHECK(resolve("rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "exd6") == "error:illegal");
}

TEST_CASE("san in: castling forms", "[chess][san]") {
  for (const char* t : {"O-O", "0-0", "o-o", "O-O+", "0-0!", "OO", "e1g1", "e1h1", "Kg1", "Ke1h1"}) {
    INFO(t);
    CHECK(resolve(kCastle, t) == "e1h1");
  }
  for (const char* t : {"O-O-O", "0-0-0", "o-o-o", "O-O-O#", "e1c1", "e1a1", "Kc1"}) {
    INFO(t);
    CHECK(resolve(kCastle, t) == "e1a1");
  }
  Position black = must_parse("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  CHECK(resolve(black, "O-O") == "e8h8");
  CHECK(resolve(black, "0-0-0") == "e8a8");
  CHECK(resolve(black, "e8g8") == "e8h8");
  CHECK(resolve(kStart, "O-O") == "error:illegal");
  CHECK(resolve("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "O-O") == "error:illegal");
  CHECK(resolve("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "e1g1") == "error:illegal");
  // Through an attacked square / out of check: illegal.
  CHECK(resolve("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O") == "error:illegal");
  CHECK(resolve("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "O-O-O") == "error:illegal");
  CHECK(resolve("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1", "O-O-O") == "e1a1");  // b1 attacked is fine
  CHECK(resolve(kCastle, "O-O-O-O") == "error:syntax");
}

TEST_CASE("san in: Chess960 castling", "[chess][san][960]") {
  // King b1, rooks a1 and h1: O-O-O leaves the king on c1 (a step to the right) and puts the rook on d1.
  const std::string fen = "r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1";
  Position pos = must_parse(fen);
  CHECK(pos.is_chess960());
  CHECK(resolve(pos, "O-O") == "b1h1");
  CHECK(resolve(pos, "O-O-O") == "b1a1");
  CHECK(resolve(pos, "b1a1") == "b1a1");
  CHECK(resolve(pos, "b1h1") == "b1h1");
  CHECK(resolve(pos, "Kc1") == "b1c1");  // an ordinary king step, not castling
  CHECK(resolve(pos, "Kxa1") == "b1a1");
  Position after = pos.after(parse_move(pos, "O-O-O"));
  CHECK(after.fen() == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
  Position after_oo = pos.after(parse_move(pos, "O-O"));
  CHECK(after_oo.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
  Position b = after;
  CHECK(resolve(b, "O-O") == "e8h8");
  CHECK(b.after(parse_move(b, "O-O")).fen() == "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");
  CHECK(resolve(b, "O-O-O") == "error:illegal");  // the white rook on d1 covers d8
  // Black king on b8, rook on h8 (Shredder letter h).
  Position k = must_parse("1k5r/8/8/8/8/8/8/4K3 b h - 0 1");
  CHECK(resolve(k, "O-O") == "b8h8");
  CHECK(resolve(k, "b8h8") == "b8h8");
  CHECK(resolve(k, "O-O-O") == "error:illegal");
  CHECK(k.after(parse_move(k, "O-O")).fen() == "5rk1/8/8/8/8/8/8/4K3 w - - 1 2");
  // King already on g1 with the rook on h1: O-O only moves the rook.
  Position g = must_parse("4k3/8/8/8/8/8/8/4R1KR w H - 0 1");
  CHECK(resolve(g, "O-O") == "g1h1");
  CHECK(g.after(parse_move(g, "O-O")).fen() == "4k3/8/8/8/8/8/8/4RRK1 b - - 1 1");
  // A rook shielding the king's destination from an enemy rook on the a-file: illegal (Stockfish's case).
  CHECK(resolve("4k3/8/8/8/8/8/8/rRK5 w B - 0 1", "O-O-O") == "error:illegal");
}

TEST_CASE("san in: promotions", "[chess][san]") {
  for (const char* t : {"c8=Q", "c8Q", "c8=q", "c8q", "c8(Q)", "c8/Q", "c8=Q+", "c7c8q"}) {
    INFO(t);
    CHECK(resolve(kPromo, t) == "c7c8q");
  }
  CHECK(resolve(kPromo, "c8=N") == "c7c8n");
  CHECK(resolve(kPromo, "c8N") == "c7c8n");
  CHECK(resolve(kPromo, "c8=B") == "c7c8b");
  CHECK(resolve(kPromo, "c8b") == "c7c8b");
  CHECK(resolve(kPromo, "c7c8r") == "c7c8r");
  CHECK(resolve(kPromo, "cxd8=Q+") == "c7d8q");
  CHECK(resolve(kPromo, "cd8Q") == "c7d8q");
  CHECK(resolve(kPromo, "c7d8n") == "c7d8n");
  CHECK(resolve(kPromo, "c8") == "error:illegal");  // promotion piece missing
  CHECK(resolve(kPromo, "c8=K") == "error:syntax");
  CHECK(resolve(kStart, "e4=Q") == "error:illegal");
}

TEST_CASE("san in: annotation suffixes", "[chess][san]") {
  for (const char* t : {"Nf3+", "Nf3#", "Nf3++", "Nf3!", "Nf3?", "Nf3!!", "Nf3??", "Nf3!?", "Nf3?!", "Nf3+!?"}) {
    INFO(t);
    CHECK(resolve(kStart, t) == "g1f3");
  }
}

TEST_CASE("san in: null moves", "[chess][san]") {
  Position pos = Position::start();
  for (const char* t : {"--", "Z0", "0000", "@@@@"}) {
    SanError err = SanError::Syntax;
    Move m = parse_move(pos, t, &err);
    INFO(t);
    CHECK(err == SanError::None);
    CHECK(m.is_null());
  }
  Position after = pos.after(Move::null());
  CHECK(after.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1");
  CHECK(to_san(pos, Move::null()) == "--");
}

TEST_CASE("san in: UCI long algebraic", "[chess][san]") {
  CHECK(resolve(kStart, "g1f3") == "g1f3");
  CHECK(resolve(kStart, "e2e4") == "e2e4");
  CHECK(resolve(kStart, "e2-e4") == "e2e4");
  CHECK(resolve(kStart, "b1c3") == "b1c3");
  CHECK(resolve(kStart, "e2e5") == "error:illegal");
  CHECK(resolve(kStart, "e3e4") == "error:illegal");  // empty origin
  CHECK(resolve(kStart, "e7e5") == "error:illegal");  // opponent's pawn
  CHECK(resolve(kStart, "g1g3") == "error:illegal");
  CHECK(resolve("r3k2r/3P4/8/8/8/8/8/R3K2R w KQkq - 0 1", "d7d8r") == "d7d8r");
}

TEST_CASE("san in: error kinds", "[chess][san]") {
  for (const char* t : {"", " ", "x", "Nf", "N", "e9", "i4", "Xe4", "Nf3f3f3", "e4e4e4", "++", "O-", "-",
                        "e4)", "(Q)", "Nf3=", "1-0", "*", "Ke", "\xff\xfe", "Ye4"}) {
    INFO("'" << t << "'");
    CHECK(resolve(kStart, t).rfind("error:", 0) == 0);
  }
  CHECK(resolve(kStart, "Ye4") == "error:syntax");
  CHECK(resolve(kStart, "Nf6") == "error:illegal");
  CHECK(resolve(kStart, "e5") == "error:illegal");
  CHECK(resolve(kStart, "Ke2") == "error:illegal");
  CHECK(resolve(kStart, "Bb5") == "error:illegal");
  CHECK(resolve(kStart, "Nd2") == "error:illegal");  // own piece there
  // In check: only evasions.
  const std::string check = "4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1";
  CHECK(resolve(check, "Ra2") == "error:illegal");
  CHECK(resolve(check, "O-O-O") == "error:illegal");
  CHECK(resolve(check, "Kxe2") == "e1e2");
}

TEST_CASE("san out: disambiguation, captures, promotions, castling, suffixes", "[chess][san]") {
  CHECK(san_of(kTwoKnights, "b1d2") == "Nbd2");
  CHECK(san_of(kTwoKnights, "f3d2") == "Nfd2");
  CHECK(san_of(kTwoKnights, "f3e5") == "Ne5");
  CHECK(san_of(kKnightsFile, "c1e2") == "N1e2");
  CHECK(san_of(kKnightsFile, "c3e2") == "N3e2");
  CHECK(san_of(kKnightsE2, "g1e2") == "Nge2");
  // Both file and rank needed: queens on a1, a3, c1 all reach b2.
  const std::string queens = "3k3K/8/8/8/8/Q7/8/Q1Q5 w - - 0 1";
  CHECK(san_of(queens, "a1b2") == "Qa1b2");
  CHECK(san_of(queens, "a3b2") == "Q3b2");
  CHECK(san_of(queens, "c1b2") == "Qcb2");
  // Pinned pieces do not count.
  CHECK(san_of("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2") == "Ne2");
  CHECK(san_of("4k3/4r3/8/8/8/8/4R3/R3K3 w - - 0 1", "a1a2") == "Ra2");
  CHECK(san_of("7k/8/8/8/8/8/4R3/R3K3 w - - 0 1", "a1a2") == "Raa2");
  // Pawns, e.p., promotion (CQL writes d8=N), captures.
  CHECK(san_of(kStart, "e2e4") == "e4");
  CHECK(san_of(kEp, "e5d6") == "exd6");
  CHECK(san_of(kPromo, "c7c8n") == "c8=N");
  CHECK(san_of(kPromo, "c7c8q") == "c8=Q");
  CHECK(san_of(kPromo, "c7d8q") == "cxd8=Q+");
  CHECK(san_of(kPromo, "c7d8r") == "cxd8=R+");
  CHECK(san_of(kPromo, "c7d8b") == "cxd8=B");
  CHECK(san_of("8/8/8/k7/8/8/1K6/8 w - - 0 1", "b2a3") == "Ka3");
  CHECK(san_of("8/8/8/k7/1P6/8/1K6/8 b - - 0 1", "a5b4") == "Kxb4");
  CHECK(san_of(kCastle, "O-O") == "O-O");
  CHECK(san_of(kCastle, "O-O-O") == "O-O-O");
  CHECK(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O") == "O-O+");
  CHECK(san_of("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3", "Qxf7") == "Qxf7#");
  CHECK(san_of("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3", "Bxf7") == "Bxf7+");
  CHECK(san_of("r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1", "b1a1") == "O-O-O");
  // Stalemating move has no suffix.
  CHECK(san_of("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", "Qc7") == "Qc7");
}

namespace {

// The positions of the perft suites `files` (pgn-edge-cases/pychess) and each one's children.
std::vector<Position> suite_positions(std::initializer_list<const char*> files) {
  std::vector<Position> positions;
  for (const char* file : files) {
    std::ifstream in(cqlindex::test::shared_data(std::string("pgn-edge-cases/pychess/") + file));
    REQUIRE(in.good());
    std::string line;
    while (std::getline(in, line)) {
      auto pos = Position::from_fen(line.substr(0, line.find(';')));
      if (!pos) continue;
      positions.push_back(*pos);
      for (Move m : legal_moves(*pos)) positions.push_back(pos->after(m));
    }
  }
  return positions;
}

}  // namespace

// Every legal move in every suite position and its children: SAN and UCI written by us parse back to the
// same move, and a UCI string parses exactly when it names a legal move.
TEST_CASE("san: round trip over the perft suites", "[chess][san][slow]") {
  const std::vector<Position> positions = suite_positions({"perftsuite.epd", "frc_perftsuite.epd"});
  REQUIRE(positions.size() > 1500);
  size_t moves_checked = 0;
  for (const Position& pos : positions) {
    MoveList legal = legal_moves(pos);
    for (Move m : legal) {
      std::string san = to_san(pos, m);
      SanError err;
      Move back = parse_move(pos, san, &err);
      INFO(pos.fen() << " " << san);
      REQUIRE(err == SanError::None);
      REQUIRE(back == m);
      REQUIRE(parse_move(pos, move_to_uci(m, true)) == m);
      if (!pos.is_chess960()) REQUIRE(parse_move(pos, move_to_uci(m, false)) == m);
      ++moves_checked;
    }
    // Every origin/destination pair (with a queen promotion where a pawn reaches the last rank).
    for (int from = 0; from < 64; ++from) {
      for (int to = 0; to < 64; ++to) {
        if (from == to) continue;
        std::string uci = square_name(Square(from)) + square_name(Square(to));
        Piece p = pos.piece_on(Square(from));
        if (type_of(p) == PAWN && (rank_of(Square(to)) == RANK_1 || rank_of(Square(to)) == RANK_8)) uci += 'q';
        SanError err;
        Move m = parse_move(pos, uci, &err);
        INFO(pos.fen() << " " << uci);
        if (err == SanError::None) REQUIRE(legal.contains(m));
        else REQUIRE(err == SanError::Illegal);
      }
    }
  }
  CHECK(moves_checked > 25000);
}

namespace {

// What parse_move must answer for a token of the common SAN forms, found by brute force over the legal moves:
// the one legal move of piece type `pt` (PAWN: a push when `pawn_file` < 0, else a capture from that file) to `to`
// from the file and rank asked, else "error:illegal" (none, or a pawn reaching the last rank with no promotion
// piece written), else "error:ambiguous".
std::string brute_force(const Position& pos, PieceType pt, int pawn_file, int from_file, int from_rank, Square to) {
  std::vector<Move> fits;
  for (Move m : legal_moves(pos)) {
    if (m.to() != to || m.kind() == CASTLING || type_of(pos.piece_on(m.from())) != pt) continue;
    if (from_file >= 0 && file_of(m.from()) != from_file) continue;
    if (from_rank >= 0 && rank_of(m.from()) != from_rank) continue;
    if (pt == PAWN) {
      const bool capture = file_of(m.from()) != file_of(to);
      if (capture != (pawn_file >= 0) || (capture && file_of(m.from()) != pawn_file)) continue;
      if (m.kind() == PROMOTION) return "error:illegal";
    }
    fits.push_back(m);
  }
  if (fits.empty()) return "error:illegal";
  if (fits.size() > 1) return "error:ambiguous";
  return move_to_uci(fits[0], true);
}

}  // namespace

TEST_CASE("san in: the common forms resolve as a brute force over the legal moves says", "[chess][san][slow]") {
  // parse_move answers these forms on a short path: every such token, at every destination, with every
  // disambiguation, with and without 'x' and a check sign, must give what the legal moves say
  const std::vector<Position> positions = suite_positions({"perftsuite.epd"});
  REQUIRE(positions.size() > 1000);
  size_t tokens = 0, moves = 0, ambiguous = 0;
  for (size_t p = 0; p < positions.size(); p += 5) {  // every fifth: ~6 s
    const Position& pos = positions[p];
    for (int t = 0; t < 64; ++t) {
      const Square to = Square(t);
      const std::string dest = square_name(to);
      auto check = [&](const std::string& token, const std::string& want) {
        for (const char* sign : {"", "+", "#"}) {
          INFO(pos.fen() << " '" << token << sign << "'");
          if (resolve(pos, token + sign) != want) REQUIRE(resolve(pos, token + sign) == want);  // (fewer asserts)
          ++tokens;
        }
        moves += want.rfind("error:", 0) != 0;
        ambiguous += want == "error:ambiguous";
      };
      check(dest, brute_force(pos, PAWN, -1, -1, -1, to));
      for (int f = 0; f < 8; ++f)
        if (f != file_of(to)) check(std::string(1, char('a' + f)) + "x" + dest, brute_force(pos, PAWN, f, -1, -1, to));
      for (char letter : {'N', 'B', 'R', 'Q'}) {
        const PieceType pt = letter == 'N' ? KNIGHT : letter == 'B' ? BISHOP : letter == 'R' ? ROOK : QUEEN;
        for (const char* x : {"", "x"}) {
          const std::string tail = std::string(x) + dest;
          check(letter + tail, brute_force(pos, pt, -1, -1, -1, to));
          for (int f = 0; f < 8; ++f)
            check(letter + std::string(1, char('a' + f)) + tail, brute_force(pos, pt, -1, f, -1, to));
          for (int r = 0; r < 8; ++r)
            check(letter + std::string(1, char('1' + r)) + tail, brute_force(pos, pt, -1, -1, r, to));
        }
      }
    }
  }
  CHECK(tokens > 1000000);
  CHECK(moves > 10000);
  CHECK(ambiguous > 20);
}
