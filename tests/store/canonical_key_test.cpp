// Canonical similarity keys: every symmetry and shift the spec allows gives the same key; nothing else does.
#include <array>
#include <optional>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "engine/chess/position.h"
#include "store/keys/canonical_key.h"

using cqlindex::chess::Position;
using cqlindex::store::keys::board_key;
using cqlindex::store::keys::canonical_key;

namespace {

// A board as 64 piece letters ('.' empty), index = rank * 8 + file, plus the side to move.
struct Board {
  std::array<char, 64> sq;
  bool white_to_move = true;
};

Board board_from(const std::string& placement, bool white_to_move = true) {
  Board b;
  b.sq.fill('.');
  int rank = 7, file = 0;
  for (char c : placement) {
    if (c == '/') {
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
    } else {
      b.sq[rank * 8 + file++] = c;
    }
  }
  b.white_to_move = white_to_move;
  return b;
}

std::string fen_of(const Board& b) {
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      char c = b.sq[rank * 8 + file];
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += c;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  return fen + (b.white_to_move ? " w - - 0 1" : " b - - 0 1");
}

Position position_of(const Board& b) {
  std::string error;
  auto pos = Position::from_fen(fen_of(b), &error);
  INFO(fen_of(b) << ": " << error);
  REQUIRE(pos);
  return *pos;
}

// The 8 symmetries of the square written out independently of the code under test.
Board symmetry(const Board& b, int t) {
  Board out = b;
  out.sq.fill('.');
  for (int r = 0; r < 8; ++r)
    for (int f = 0; f < 8; ++f) {
      int nf = f, nr = r;
      switch (t) {
        case 0: break;
        case 1: nf = 7 - f; break;
        case 2: nr = 7 - r; break;
        case 3: nf = 7 - f; nr = 7 - r; break;
        case 4: nf = r; nr = f; break;
        case 5: nf = 7 - r; nr = 7 - f; break;
        case 6: nf = r; nr = 7 - f; break;
        case 7: nf = 7 - r; nr = f; break;
      }
      out.sq[nr * 8 + nf] = b.sq[r * 8 + f];
    }
  return out;
}

// The board moved `d` files right (negative: left), or nullopt when a piece would fall off.
std::optional<Board> shifted(const Board& b, int d) {
  Board out = b;
  out.sq.fill('.');
  for (int r = 0; r < 8; ++r)
    for (int f = 0; f < 8; ++f) {
      if (b.sq[r * 8 + f] == '.') continue;
      if (f + d < 0 || f + d > 7) return std::nullopt;
      out.sq[r * 8 + f + d] = b.sq[r * 8 + f];
    }
  return out;
}

bool has_pawns(const Board& b) {
  for (char c : b.sq)
    if (c == 'P' || c == 'p') return true;
  return false;
}

// True when the spec calls `a` and `b` similar (by trying every allowed transform).
bool similar(const Board& a, const Board& b) {
  if (a.white_to_move != b.white_to_move || has_pawns(a) != has_pawns(b)) return false;
  if (!has_pawns(a)) {
    for (int t = 0; t < 8; ++t)
      if (symmetry(a, t).sq == b.sq) return true;
    return false;
  }
  for (int t : {0, 1})
    for (int d = -7; d <= 7; ++d)
      if (auto s = shifted(symmetry(a, t), d); s && s->sq == b.sq) return true;
  return false;
}

// A random board with both kings, up to `extra` other pieces, pawns only on ranks 2-7 if `pawns`.
Board random_board(std::mt19937& rng, int extra, bool pawns, int files = 8) {
  Board b;
  b.sq.fill('.');
  b.white_to_move = rng() % 2;
  auto free_square = [&](bool pawn) {
    while (true) {
      int s = static_cast<int>((pawn ? 8 + rng() % 48 : rng() % 64));
      if ((s & 7) >= files) continue;
      if (b.sq[s] == '.') return s;
    }
  };
  b.sq[free_square(false)] = 'K';
  b.sq[free_square(false)] = 'k';
  const std::string pieces = pawns ? "PPPPpppNnBbRrQq" : "NnBbRrQq";
  for (int i = 0; i < extra; ++i) {
    char p = pieces[rng() % pieces.size()];
    b.sq[free_square(p == 'P' || p == 'p')] = p;
  }
  if (pawns && !has_pawns(b)) b.sq[free_square(true)] = 'P';
  return b;
}

}  // namespace

TEST_CASE("key layout: side to move, big-endian occupancy, piece nibbles in square order", "[store][keys]") {
  Position pos = position_of(board_from("8/8/8/8/8/8/8/K6k", false));  // Ka1, kh1, black to move
  std::string key = board_key(pos);
  REQUIRE(key == std::string("\x01\x00\x00\x00\x00\x00\x00\x00\x81\x6e", 10));
}

TEST_CASE("a pawnless board has the same key under all 8 symmetries of the square", "[store][keys]") {
  Board b = board_from("8/8/2k5/8/5N2/8/1K6/6r1");
  std::string key = canonical_key(position_of(b));
  for (int t = 0; t < 8; ++t) REQUIRE(canonical_key(position_of(symmetry(b, t))) == key);
  Board other_side = b;
  other_side.white_to_move = false;
  REQUIRE(canonical_key(position_of(other_side)) != key);  // same side to move required
}

TEST_CASE("a board with pawns matches its mirror and its horizontal shifts, not its vertical flip", "[store][keys]") {
  Board b = board_from("8/8/3k4/3p4/3P4/3K4/8/8");
  std::string key = canonical_key(position_of(b));
  REQUIRE(canonical_key(position_of(symmetry(b, 1))) == key);  // left-right mirror
  int shifts = 0;
  for (int d = -7; d <= 7; ++d)
    if (auto s = shifted(b, d)) {
      REQUIRE(canonical_key(position_of(*s)) == key);
      REQUIRE(canonical_key(position_of(symmetry(*s, 1))) == key);
      ++shifts;
    }
  REQUIRE(shifts == 8);  // one-file-wide board: every file
  // Upside down (or rotated) the pawns change direction: not similar.
  Board flipped = board_from("8/8/3K4/3P4/3p4/3k4/8/8");
  REQUIRE(canonical_key(position_of(flipped)) != key);
}

TEST_CASE("castling rights and en passant do not enter the key", "[store][keys]") {
  auto a = Position::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
  auto b = Position::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w - - 5 40");
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(canonical_key(*a) == canonical_key(*b));
  REQUIRE(board_key(*a) == board_key(*b));
}

TEST_CASE("property: transforms the spec allows give equal keys on random boards", "[store][keys]") {
  std::mt19937 rng(20261122);
  for (int trial = 0; trial < 600; ++trial) {
    bool pawns = trial % 2;
    Board b = random_board(rng, 1 + trial % 14, pawns, pawns ? 3 + trial % 6 : 8);
    std::string key = canonical_key(position_of(b));
    INFO(fen_of(b));
    if (!pawns) {
      for (int t = 0; t < 8; ++t) REQUIRE(canonical_key(position_of(symmetry(b, t))) == key);
    } else {
      for (int t : {0, 1})
        for (int d = -7; d <= 7; ++d)
          if (auto s = shifted(symmetry(b, t), d)) REQUIRE(canonical_key(position_of(*s)) == key);
    }
  }
}

TEST_CASE("property: equal keys only for similar boards (random pairs and near misses)", "[store][keys]") {
  std::mt19937 rng(42);
  int similar_pairs = 0, dissimilar_pairs = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    bool pawns = trial % 2;
    Board a = random_board(rng, trial % 5, pawns, 3 + trial % 6);
    Board b;
    switch (trial % 3) {
      case 0:  // an image under some symmetry (similar only where the spec allows that symmetry)
        b = symmetry(a, static_cast<int>(rng() % 8));
        break;
      case 1: {  // the same, then one piece moved: a near miss
        b = symmetry(a, static_cast<int>(rng() % 8));
        int from = static_cast<int>(rng() % 64), to = static_cast<int>(8 + rng() % 48);
        if (b.sq[from] != '.' && b.sq[to] == '.') std::swap(b.sq[from], b.sq[to]);
        break;
      }
      default:
        b = random_board(rng, trial % 5, pawns, 3 + trial % 6);
    }
    bool pawn_on_edge_rank = false;
    for (int f = 0; f < 8; ++f)
      for (int s : {f, 56 + f}) pawn_on_edge_rank |= (b.sq[s] == 'P' || b.sq[s] == 'p');
    if (pawn_on_edge_rank) continue;  // not a position: a symmetry moved a pawn to rank 1 or 8
    bool same_key = canonical_key(position_of(a)) == canonical_key(position_of(b));
    INFO(fen_of(a) << " vs " << fen_of(b));
    REQUIRE(same_key == similar(a, b));
    (same_key ? similar_pairs : dissimilar_pairs)++;
  }
  REQUIRE(similar_pairs > 300);
  REQUIRE(dissimilar_pairs > 1000);
}

namespace {

// Returns `key` in hexadecimal, two digits a byte.
std::string hex(const std::string& key) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : key) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// Returns the canonical key of the position given by FEN.
std::string key_of_fen(const std::string& fen) {
  auto pos = Position::from_fen(fen);
  REQUIRE(pos);
  return canonical_key(*pos);
}

}  // namespace

// The bytes of canonical keys are pinned: the similar family files positions under their hash, so an index
// written by one build is read by another only while every key keeps its bytes.
TEST_CASE("canonical key bytes are pinned: a few positions", "[store][keys]") {
  // Side to move, occupancy of ranks 8 to 1, then a nibble a piece from a1 on (R N B Q K B N R, pawns, ...).
  CHECK(hex(key_of_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")) ==
        "00ffff00000000ffff423563241111111199999999cabdebac");
  // Pawnless: the least of the 8 images (Rd1 Ke1 kc3), whichever image is given.
  CHECK(hex(key_of_fen("8/8/8/8/8/2k5/8/3RK3 b - - 0 1")) == "01000000000004001846e0");
  CHECK(hex(key_of_fen("3RK3/8/2k5/8/8/8/8/8 b - - 0 1")) == "01000000000004001846e0");
  CHECK(hex(key_of_fen("8/8/8/8/8/5k2/8/3KR3 b - - 0 1")) == "01000000000004001846e0");
  // With pawns: the board moved to the a-file, or its mirror moved there, whichever is less (Kb2 Pa5 ka7 here).
  CHECK(hex(key_of_fen("8/5k2/8/5P2/8/8/6K1/8 w - - 0 1")) == "00000100010000020061e0");
  CHECK(hex(key_of_fen("8/2k5/8/2P5/8/8/1K6/8 w - - 0 1")) == "00000100010000020061e0");
}

TEST_CASE("canonical key bytes are pinned: a digest of 20,000 random boards", "[store][keys]") {
  std::mt19937 rng(2026);
  uint64_t digest = 0xcbf29ce484222325ull;  // FNV-1a 64 over each key's length and bytes
  auto add = [&](unsigned char byte) { digest = (digest ^ byte) * 0x100000001b3ull; };
  for (int trial = 0; trial < 20000; ++trial) {
    const Board b = random_board(rng, trial % 9, trial % 2, 3 + trial % 6);
    std::array<cqlindex::chess::Piece, 64> board{};
    for (int s = 0; s < 64; ++s) board[s] = cqlindex::chess::Piece(std::string_view(".PNBRQK..pnbrqk").find(b.sq[s]));
    char key[cqlindex::store::keys::kMaxKeyBytes];
    const size_t length = canonical_key(board, b.white_to_move ? cqlindex::chess::WHITE : cqlindex::chess::BLACK, key);
    add(static_cast<unsigned char>(length));
    for (size_t i = 0; i < length; ++i) add(static_cast<unsigned char>(key[i]));
  }
  CHECK(digest == 0x22fa393404ec81c2ull);
}
