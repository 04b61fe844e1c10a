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
Bitboard bishop_rays[64];
Bitboard rook_rays[64];
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

// The squares from s outwards in direction (df, dr), s excluded, up to the edge.
Bitboard ray(Square s, int df, int dr) {
  Bitboard result = 0;
  for (int f = file_of(s) + df, r = rank_of(s) + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr)
    result |= square_bb(make_square(File(f), Rank(r)));
  return result;
}

// The open rays of every square, by direction: rook directions 0..3 (the first two towards higher squares),
// bishop directions 4..7 (likewise). Filled first by init_attacks; the slider tables are computed from them.
constexpr int kDirections[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
Bitboard open_rays[8][64];

// Slider attacks for a given occupancy: each ray cut after its first blocker (only used to fill the tables, but
// that runs at every start-up for 107,648 occupancies, so it takes the nearest blocker by a bit scan).
Bitboard sliding_attacks(bool rook, Square s, Bitboard occupied) {
  Bitboard result = 0;
  for (int d = rook ? 0 : 4, end = d + 4; d < end; ++d) {
    const Bitboard r = open_rays[d][s];
    const Bitboard blockers = r & occupied;
    if (!blockers) {
      result |= r;
      continue;
    }
    const bool upwards = (d & 3) < 2;  // towards higher squares: the nearest blocker is the lowest
    result |= r & ~open_rays[d][upwards ? lsb(blockers) : msb(blockers)];
  }
  return result;
}

// Magic multipliers the search below finds from its fixed seeds, kept so that start-up only has to verify
// them (a few milliseconds) instead of searching again; any that fails verification is searched anew.
constexpr uint64_t kRookMagics[64] = {
    0x0a80004000801220ULL, 0x8040004010002008ULL, 0x2080200010008008ULL, 0x1100100008210004ULL,
    0xc200209084020008ULL, 0x2100010004000208ULL, 0x0400081000822421ULL, 0x0200010422048844ULL,
    0x0800800080400024ULL, 0x0001402000401000ULL, 0x3000801000802001ULL, 0x4400800800100083ULL,
    0x0904802402480080ULL, 0x4040800400020080ULL, 0x0018808042000100ULL, 0x4040800080004100ULL,
    0x0040048001458024ULL, 0x00a0004000205000ULL, 0x3100808010002000ULL, 0x4825010010000820ULL,
    0x5004808008000401ULL, 0x2024818004000a00ULL, 0x0005808002000100ULL, 0x2100060004806104ULL,
    0x0080400880008421ULL, 0x4062220600410280ULL, 0x010a004a00108022ULL, 0x0000100080080080ULL,
    0x0021000500080010ULL, 0x0044000202001008ULL, 0x0000100400080102ULL, 0xc020128200040545ULL,
    0x0080002000400040ULL, 0x0000804000802004ULL, 0x0000120022004080ULL, 0x010a386103001001ULL,
    0x9010080080800400ULL, 0x8440020080800400ULL, 0x0004228824001001ULL, 0x000000490a000084ULL,
    0x0080002000504000ULL, 0x200020005000c000ULL, 0x0012088020420010ULL, 0x0010010080080800ULL,
    0x0085001008010004ULL, 0x0002000204008080ULL, 0x0040413002040008ULL, 0x0000304081020004ULL,
    0x0080204000800080ULL, 0x3008804000290100ULL, 0x1010100080200080ULL, 0x2008100208028080ULL,
    0x5000850800910100ULL, 0x8402019004680200ULL, 0x0120911028020400ULL, 0x0000008044010200ULL,
    0x0020850200244012ULL, 0x0020850200244012ULL, 0x0000102001040841ULL, 0x140900040a100021ULL,
    0x000200282410a102ULL, 0x000200282410a102ULL, 0x000200282410a102ULL, 0x4048240043802106ULL,
};
constexpr uint64_t kBishopMagics[64] = {
    0x40106000a1160020ULL, 0x0020010250810120ULL, 0x2010010220280081ULL, 0x002806004050c040ULL,
    0x0002021018000000ULL, 0x2001112010000400ULL, 0x0881010120218080ULL, 0x1030820110010500ULL,
    0x0000120222042400ULL, 0x2000020404040044ULL, 0x8000480094208000ULL, 0x0003422a02000001ULL,
    0x000a220210100040ULL, 0x8004820202226000ULL, 0x0018234854100800ULL, 0x0100004042101040ULL,
    0x0004001004082820ULL, 0x0010000810010048ULL, 0x1014004208081300ULL, 0x2080818802044202ULL,
    0x0040880c00a00100ULL, 0x0080400200522010ULL, 0x0001000188180b04ULL, 0x0080249202020204ULL,
    0x1004400004100410ULL, 0x00013100a0022206ULL, 0x2148500001040080ULL, 0x4241080011004300ULL,
    0x4020848004002000ULL, 0x10101380d1004100ULL, 0x0008004422020284ULL, 0x01010a1041008080ULL,
    0x0808080400082121ULL, 0x0808080400082121ULL, 0x0091128200100c00ULL, 0x0202200802010104ULL,
    0x8c0a020200440085ULL, 0x01a0008080b10040ULL, 0x0889520080122800ULL, 0x100902022202010aULL,
    0x04081a0816002000ULL, 0x0000681208005000ULL, 0x8170840041008802ULL, 0x0a00004200810805ULL,
    0x0830404408210100ULL, 0x2602208106006102ULL, 0x1048300680802628ULL, 0x2602208106006102ULL,
    0x0602010120110040ULL, 0x0941010801043000ULL, 0x000040440a210428ULL, 0x0008240020880021ULL,
    0x0400002012048200ULL, 0x00ac102001210220ULL, 0x0220021002009900ULL, 0x84440c080a013080ULL,
    0x0001008044200440ULL, 0x0004c04410841000ULL, 0x2000500104011130ULL, 0x1a0c010011c20229ULL,
    0x0044800112202200ULL, 0x0434804908100424ULL, 0x0300404822c08200ULL, 0x48081010008a2a80ULL,
};

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
void init_magics(bool rook, Bitboard* table, detail::Magic* magics, const uint64_t* known) {
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
    bool first_try = true;
    for (int i = 0; i < size;) {
      if (first_try) {
        m.magic = known[sq];
        first_try = false;
      } else {
        do {
          m.magic = rng.sparse();
        } while (popcount((m.magic * m.mask) >> 56) < 6);
      }
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
  for (int d = 0; d < 8; ++d)
    for (int sq = 0; sq < 64; ++sq) open_rays[d][sq] = ray(Square(sq), kDirections[d][0], kDirections[d][1]);
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    detail::pawn_attacks[WHITE][s] = step(s, -1, 1) | step(s, 1, 1);
    detail::pawn_attacks[BLACK][s] = step(s, -1, -1) | step(s, 1, -1);
    detail::knight_attacks[s] = step(s, 1, 2) | step(s, 2, 1) | step(s, 2, -1) | step(s, 1, -2) |
                                step(s, -1, -2) | step(s, -2, -1) | step(s, -2, 1) | step(s, -1, 2);
    detail::king_attacks[s] = step(s, 1, 0) | step(s, 1, 1) | step(s, 0, 1) | step(s, -1, 1) |
                              step(s, -1, 0) | step(s, -1, -1) | step(s, 0, -1) | step(s, 1, -1);
    detail::bishop_rays[s] = sliding_attacks(false, s, 0);
    detail::rook_rays[s] = sliding_attacks(true, s, 0);
  }
  init_magics(true, rook_table, detail::rook_magics, kRookMagics);
  init_magics(false, bishop_table, detail::bishop_magics, kBishopMagics);
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
