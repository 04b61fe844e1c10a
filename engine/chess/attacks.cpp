// The attack tables, computed by the compiler: they are constants in the binary's read-only data, so a process
// maps the pages it reads from the page cache instead of computing ~108,000 slider entries into freshly zeroed
// memory at every start-up (that took ~1.5 ms of every query's process). Each table is its own constant
// expression, small enough for the compilers' default evaluation limits.
#include "engine/chess/attacks.h"

#include <array>
#include <bit>
#include <cstddef>
#include <utility>

namespace cqlindex::chess {

namespace {

// The square (f, r) as a bitboard, or 0 when it is off the board.
constexpr Bitboard bit(int f, int r) { return (f >= 0 && f < 8 && r >= 0 && r < 8) ? Bitboard(1) << (r * 8 + f) : 0; }

// Directions: rook 0..3 (the first two towards higher squares), bishop 4..7 (likewise).
constexpr int kDirections[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

// The squares from s outwards in direction d, s excluded, up to the edge.
constexpr Bitboard ray(int s, int d) {
  Bitboard result = 0;
  for (int f = s % 8 + kDirections[d][0], r = s / 8 + kDirections[d][1]; bit(f, r);
       f += kDirections[d][0], r += kDirections[d][1])
    result |= bit(f, r);
  return result;
}

struct Rays {
  Bitboard v[8][64] = {};
};
constexpr Rays make_rays() {
  Rays rays;
  for (int d = 0; d < 8; ++d)
    for (int s = 0; s < 64; ++s) rays.v[d][s] = ray(s, d);
  return rays;
}
constexpr Rays kRays = make_rays();

// Slider attacks for an occupancy: each ray cut after its nearest blocker (found by a bit scan).
constexpr Bitboard sliding_attacks(bool rook, int s, Bitboard occupied) {
  Bitboard result = 0;
  for (int d = rook ? 0 : 4, end = d + 4; d < end; ++d) {
    const Bitboard r = kRays.v[d][s];
    const Bitboard blockers = r & occupied;
    if (!blockers) {
      result |= r;
      continue;
    }
    const bool upwards = (d & 3) < 2;  // towards higher squares: the nearest blocker is the lowest
    result |= r & ~kRays.v[d][upwards ? std::countr_zero(blockers) : 63 - std::countl_zero(blockers)];
  }
  return result;
}

// The occupancy squares that matter for a slider on s: its empty-board attacks without the board edges.
constexpr Bitboard relevant_mask(bool rook, int s) {
  const Bitboard rank1 = 0xffULL, rank8 = rank1 << 56, file_a = 0x0101010101010101ULL, file_h = file_a << 7;
  const Bitboard edges = ((rank1 | rank8) & ~(rank1 << (8 * (s / 8)))) | ((file_a | file_h) & ~(file_a << (s % 8)));
  return sliding_attacks(rook, s, 0) & ~edges;
}

// Magic multipliers (found once by a search with fixed seeds): the compiler verifies each of them while it fills
// the tables, and refuses to compile if one maps two occupancies with different attacks to one entry.
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


// The attack sets of a slider on square S, indexed by its magic: every subset of the relevant mask (Carry-Rippler)
// is stored at its index, then every subset is checked to read back its own attacks.
template <bool Rook, int S>
struct SliderSquare {
  static constexpr Bitboard kMask = relevant_mask(Rook, S);
  static constexpr unsigned kShift = 64 - std::popcount(kMask);
  static constexpr Bitboard kMagic = Rook ? kRookMagics[S] : kBishopMagics[S];
  std::array<Bitboard, size_t(1) << std::popcount(kMask)> attacks = {};
};

template <bool Rook, int S>
constexpr SliderSquare<Rook, S> make_slider_square() {
  using T = SliderSquare<Rook, S>;
  T t;
  Bitboard b = 0;
  do {
    t.attacks[((b & T::kMask) * T::kMagic) >> T::kShift] = sliding_attacks(Rook, S, b);
    b = (b - T::kMask) & T::kMask;
  } while (b);
  do {
    if (t.attacks[((b & T::kMask) * T::kMagic) >> T::kShift] != sliding_attacks(Rook, S, b))
      throw "a magic maps two occupancies with different attacks to one entry";
    b = (b - T::kMask) & T::kMask;
  } while (b);
  return t;
}

template <bool Rook, int S>
constexpr SliderSquare<Rook, S> kSliderSquare = make_slider_square<Rook, S>();

template <bool Rook, size_t... S>
constexpr std::array<detail::Magic, 64> make_magics(std::index_sequence<S...>) {
  return {detail::Magic{SliderSquare<Rook, S>::kMask, SliderSquare<Rook, S>::kMagic,
                        kSliderSquare<Rook, S>.attacks.data(), SliderSquare<Rook, S>::kShift}...};
}

constexpr std::array<std::array<Bitboard, 64>, COLOR_NB> make_pawn_attacks() {
  std::array<std::array<Bitboard, 64>, COLOR_NB> t = {};
  for (int s = 0; s < 64; ++s) {
    const int f = s % 8, r = s / 8;
    t[WHITE][s] = bit(f - 1, r + 1) | bit(f + 1, r + 1);
    t[BLACK][s] = bit(f - 1, r - 1) | bit(f + 1, r - 1);
  }
  return t;
}

// Leaper attacks: the squares at the given (df, dr) steps that are on the board.
constexpr std::array<Bitboard, 64> make_leaper_attacks(const int (&steps)[8][2]) {
  std::array<Bitboard, 64> t = {};
  for (int s = 0; s < 64; ++s)
    for (const auto& st : steps) t[s] |= bit(s % 8 + st[0], s / 8 + st[1]);
  return t;
}
constexpr int kKnightSteps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int kKingSteps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

constexpr std::array<Bitboard, 64> make_rays_of(bool rook) {
  std::array<Bitboard, 64> t = {};
  for (int s = 0; s < 64; ++s) t[s] = sliding_attacks(rook, s, 0);
  return t;
}

// between: the squares strictly between a and b on their common ray; line: that whole line, a and b included.
constexpr std::array<std::array<Bitboard, 64>, 64> make_between(bool whole_line) {
  std::array<std::array<Bitboard, 64>, 64> t = {};
  for (int a = 0; a < 64; ++a)
    for (int d = 0; d < 8; ++d) {
      const int opposite = d < 4 ? (d + 2) % 4 : 4 + (3 - (d - 4));  // rook: e<->w, n<->s; bishop: ne<->sw, nw<->se
      for (Bitboard targets = kRays.v[d][a]; targets; targets &= targets - 1) {
        const int b = std::countr_zero(targets);
        t[a][b] = whole_line ? kRays.v[d][a] | kRays.v[opposite][a] | (Bitboard(1) << a)
                             : kRays.v[d][a] & kRays.v[opposite][b];
      }
    }
  return t;
}

}  // namespace

namespace detail {
constexpr std::array<std::array<Bitboard, 64>, COLOR_NB> pawn_attacks = make_pawn_attacks();
constexpr std::array<Bitboard, 64> knight_attacks = make_leaper_attacks(kKnightSteps);
constexpr std::array<Bitboard, 64> king_attacks = make_leaper_attacks(kKingSteps);
constexpr std::array<Magic, 64> bishop_magics = make_magics<false>(std::make_index_sequence<64>());
constexpr std::array<Magic, 64> rook_magics = make_magics<true>(std::make_index_sequence<64>());
constexpr std::array<std::array<Bitboard, 64>, 64> between = make_between(false);
constexpr std::array<Bitboard, 64> bishop_rays = make_rays_of(false);
constexpr std::array<Bitboard, 64> rook_rays = make_rays_of(true);
constexpr std::array<std::array<Bitboard, 64>, 64> line = make_between(true);
}  // namespace detail

void init_attacks() {}

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
