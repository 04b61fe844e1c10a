#include "engine/chess/attacks.h"

#include <vector>

namespace cqlindex::chess {

namespace detail {
Bitboard pawn_attacks[COLOR_NB][64];
Bitboard knight_attacks[64];
Bitboard king_attacks[64];
Magic bishop_magics[64];
Magic rook_magics[64];
Bitboard between[64][64];
Bitboard line[64][64];
}  // namespace detail

namespace {

// Shared storage of every slider attack set (rook 102400 + bishop 5248 entries).
Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

// The square (f, r) + (df, dr) as a bitboard, or 0 when it falls off the board.
Bitboard step(Square s, int df, int dr) {
  int f = file_of(s) + df, r = rank_of(s) + dr;
  return (f >= 0 && f < 8 && r >= 0 && r < 8) ? square_bb(make_square(File(f), Rank(r))) : 0;
}

// Slider attacks computed ray by ray (slow; only used to fill the tables).
Bitboard sliding_attacks(bool rook, Square s, Bitboard occupied) {
  static const int kRook[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  static const int kBishop[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  const int(*dirs)[2] = rook ? kRook : kBishop;
  Bitboard result = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_of(s), r = rank_of(s);
    while (true) {
      f += dirs[d][0];
      r += dirs[d][1];
      if (f < 0 || f > 7 || r < 0 || r > 7) break;
      Bitboard b = square_bb(make_square(File(f), Rank(r)));
      result |= b;
      if (occupied & b) break;
    }
  }
  return result;
}

// xorshift64* generator with a fixed seed: the magics found are the same on every run.
struct Prng {
  uint64_t s;
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  uint64_t sparse() { return next() & next() & next(); }
};

// Finds a magic for every square (trial and error, a few milliseconds) and fills its attack table.
void init_magics(bool rook, Bitboard* table, detail::Magic* magics) {
  static const uint64_t kSeeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
  std::vector<Bitboard> occupancy(4096), reference(4096);
  std::vector<int> epoch(4096, 0);
  int current = 0;
  Bitboard* next_table = table;
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    Bitboard edges = ((rank_bb(RANK_1) | rank_bb(RANK_8)) & ~rank_bb(s)) |
                     ((file_bb(FILE_A) | file_bb(FILE_H)) & ~file_bb(s));
    detail::Magic& m = magics[sq];
    m.mask = sliding_attacks(rook, s, 0) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.attacks = next_table;
    // Enumerate every subset of the mask (Carry-Rippler).
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = sliding_attacks(rook, s, b);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    Prng rng{kSeeds[rank_of(s)]};
    Bitboard* entries = next_table;
    for (int i = 0; i < size;) {
      do {
        m.magic = rng.sparse();
      } while (popcount((m.magic * m.mask) >> 56) < 6);
      ++current;
      for (i = 0; i < size; ++i) {
        unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < current) {
          epoch[idx] = current;
          entries[idx] = reference[i];
        } else if (entries[idx] != reference[i]) {
          break;
        }
      }
    }
    next_table += size;
  }
}

struct AutoInit {
  AutoInit() { init_attacks(); }
} auto_init;

}  // namespace

void init_attacks() {
  static bool done = false;
  if (done) return;
  done = true;
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    detail::pawn_attacks[WHITE][s] = step(s, -1, 1) | step(s, 1, 1);
    detail::pawn_attacks[BLACK][s] = step(s, -1, -1) | step(s, 1, -1);
    detail::knight_attacks[s] = step(s, 1, 2) | step(s, 2, 1) | step(s, 2, -1) | step(s, 1, -2) |
                                step(s, -1, -2) | step(s, -2, -1) | step(s, -2, 1) | step(s, -1, 2);
    detail::king_attacks[s] = step(s, 1, 0) | step(s, 1, 1) | step(s, 0, 1) | step(s, -1, 1) |
                              step(s, -1, 0) | step(s, -1, -1) | step(s, 0, -1) | step(s, 1, -1);
  }
  init_magics(true, rook_table, detail::rook_magics);
  init_magics(false, bishop_table, detail::bishop_magics);
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      Square sa = Square(a), sb = Square(b);
      detail::between[a][b] = 0;
      detail::line[a][b] = 0;
      if (a == b) continue;
      for (bool rook : {true, false}) {
        if (sliding_attacks(rook, sa, 0) & square_bb(sb)) {
          detail::line[a][b] = (sliding_attacks(rook, sa, 0) & sliding_attacks(rook, sb, 0)) |
                               square_bb(sa) | square_bb(sb);
          detail::between[a][b] =
              sliding_attacks(rook, sa, square_bb(sb)) & sliding_attacks(rook, sb, square_bb(sa));
        }
      }
    }
  }
}

std::string square_name(Square s) {
  if (!is_ok(s)) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

char piece_char(Piece p) {
  static const char kChars[] = ".PNBRQK..pnbrqk.";
  return p < PIECE_NB ? kChars[p] : '?';
}

char piece_type_char(PieceType pt) {
  static const char kChars[] = "?PNBRQK";
  return pt < PIECE_TYPE_NB ? kChars[pt] : '?';
}

std::string move_to_uci(Move m, bool chess960) {
  if (m.is_null()) return "0000";
  if (m.is_none()) return "(none)";
  Square to = m.to();
  if (m.kind() == CASTLING && !chess960)
    to = make_square(m.to() > m.from() ? FILE_G : FILE_C, rank_of(m.from()));
  std::string s = square_name(m.from()) + square_name(to);
  if (m.kind() == PROMOTION) s += char(piece_type_char(m.promotion()) + ('a' - 'A'));
  return s;
}

}  // namespace cqlindex::chess
