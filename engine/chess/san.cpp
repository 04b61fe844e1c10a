#include "engine/chess/san.h"

#include "engine/chess/movegen.h"

namespace cqlindex::chess {

namespace {

constexpr bool is_file_char(char c) { return c >= 'a' && c <= 'h'; }
constexpr bool is_rank_char(char c) { return c >= '1' && c <= '8'; }

// Piece type of an upper-case SAN piece letter (NO_PIECE_TYPE otherwise).
constexpr PieceType piece_letter(char c) {
  switch (c) {
    case 'P': return PAWN;
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return NO_PIECE_TYPE;
  }
}

// Promotion piece of a letter in either case (lower-case 'b' included: it follows a rank digit).
constexpr PieceType promotion_letter(char c) {
  switch (c) {
    case 'N': case 'n': return KNIGHT;
    case 'B': case 'b': return BISHOP;
    case 'R': case 'r': return ROOK;
    case 'Q': case 'q': return QUEEN;
    default: return NO_PIECE_TYPE;
  }
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

void trim(std::string_view& s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
}

// Removes check/mate/annotation suffixes and an "e.p."/"ep" marker.
std::string_view strip_suffixes(std::string_view s) {
  auto strip_annotations = [&s] {
    while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?'))
      s.remove_suffix(1);
    trim(s);
  };
  trim(s);
  strip_annotations();
  if (s.empty() || (s.back() != '.' && s.back() != 'p')) return s;  // the common case: no e.p. marker
  if (ends_with(s, "e.p.")) s.remove_suffix(4);
  else if (ends_with(s, "e.p")) s.remove_suffix(3);
  else if (ends_with(s, "ep")) {
    std::string_view rest = s.substr(0, s.size() - 2);
    trim(rest);
    if (!rest.empty() && is_rank_char(rest.back())) s = rest;
  }
  trim(s);
  strip_annotations();
  return s;
}

Move fail(SanError* error, SanError kind) {
  if (error) *error = kind;
  return Move::none();
}

// The castling move on the given side, or none if the right is missing or castling is illegal now.
Move castling_move(const Position& pos, bool king_side) {
  Color us = pos.side_to_move();
  Square rsq = pos.castling_rook_square(castling_right(us, king_side));
  if (rsq == SQ_NONE) return Move::none();
  Move m = Move::make(pos.king_square(us), rsq, CASTLING);
  return pos.is_legal(m) ? m : Move::none();
}

// Parses "O-O", "0-0-0", "o-o", "OO": returns 2 (king side), 3 (queen side) or 0.
int castling_token(std::string_view s) {
  int os = 0;
  for (char c : s) {
    if (c == 'O' || c == 'o' || c == '0') ++os;
    else if (c != '-') return 0;
  }
  return (os == 2 || os == 3) && !s.empty() && s.front() != '-' ? os : 0;
}

// Origins of pieces of colour us and type pt that could move to `to` (ignoring pins and checks).
Bitboard pawn_origins(const Position& pos, Square to, bool capture) {
  Color us = pos.side_to_move();
  if (capture) return pawn_attacks(~us, to) & pos.pieces(us, PAWN);
  if (!pos.empty(to)) return 0;
  int push = pawn_push(us);
  int one = int(to) - push;
  if (one < 0 || one > 63) return 0;
  Square s1 = Square(one);
  if (pos.piece_on(s1) == make_piece(us, PAWN)) return square_bb(s1);
  if (pos.empty(s1) && relative_rank(us, rank_of(to)) == RANK_4 &&
      pos.piece_on(s1 - push) == make_piece(us, PAWN))
    return square_bb(s1 - push);
  return 0;
}

// Of the pieces `candidates` (all of type pt, pt not a pawn), those that could move to `to` (ignoring pins and
// checks). Sliders are walked one by one: fewer cache misses than a magic look-up for the common case.
Bitboard origins_of(const Position& pos, PieceType pt, Square to, Bitboard candidates) {
  switch (pt) {
    case KNIGHT: return knight_attacks(to) & candidates;
    case KING: return king_attacks(to) & candidates;
    case BISHOP: return sliders_reaching(to, 0, candidates, pos.pieces());
    case ROOK: return sliders_reaching(to, candidates, 0, pos.pieces());
    case QUEEN: return sliders_reaching(to, candidates, candidates, pos.pieces());
    default: return 0;
  }
}

// Old short form "exd" / "ed": the pawn capture from one file to the next, if exactly one is legal.
Move pawn_capture_by_files(const Position& pos, File from, File to, PieceType promo, SanError* error) {
  if (from - to != 1 && to - from != 1) return fail(error, SanError::Illegal);
  Color us = pos.side_to_move();
  Bitboard targets = pos.pieces(~us);
  if (pos.ep_square() != SQ_NONE) targets |= square_bb(pos.ep_square());
  Move found = Move::none();
  for (Bitboard pawns = pos.pieces(us, PAWN) & file_bb(from); pawns;) {
    Square o = pop_lsb(pawns);
    for (Bitboard t = pawn_attacks(us, o) & file_bb(to) & targets; t;) {
      Square d = pop_lsb(t);
      bool promotes = relative_rank(us, rank_of(d)) == RANK_8;
      if (promotes != (promo != NO_PIECE_TYPE)) continue;
      MoveKind kind = d == pos.ep_square() ? EN_PASSANT : promotes ? PROMOTION : NORMAL;
      Move m = Move::make(o, d, kind, promo ? promo : KNIGHT);
      if (!pos.is_legal(m)) continue;
      if (!found.is_none()) return fail(error, SanError::Ambiguous);
      found = m;
    }
  }
  return found.is_none() ? fail(error, SanError::Illegal) : found;
}

// The move of a token in one of the common SAN forms ("e4", "exd5", "Nf3", "Nxf3", "Nbd2", "R1e2", "Nbxd2",
// "R1xe2", each with or without one '+' or '#'), when exactly one legal move fits it; Move::none() for any other
// token or answer (no legal move, several, a promotion, en passant, a king move): the lenient parser then decides,
// as it would have decided these.
Move common_san_move(const Position& pos, std::string_view token) {
  size_t n = token.size();
  if (n > 0 && (token[n - 1] == '+' || token[n - 1] == '#')) --n;
  if (n < 2 || n > 5) return Move::none();
  const char* c = token.data();
  if (!is_file_char(c[n - 2]) || !is_rank_char(c[n - 1])) return Move::none();
  const Square to = make_square(File(c[n - 2] - 'a'), Rank(c[n - 1] - '1'));
  const Color us = pos.side_to_move();
  if (pos.pieces(us) & square_bb(to)) return Move::none();
  Bitboard origins = 0;
  if (n == 2 || (n == 4 && is_file_char(c[0]) && c[1] == 'x')) {  // a pawn's push or capture
    if (relative_rank(us, rank_of(to)) == RANK_8) return Move::none();
    if (n == 2) {
      origins = pawn_origins(pos, to, false);
    } else {
      if (pos.empty(to)) return Move::none();  // en passant, or no capture at all
      origins = pawn_origins(pos, to, true) & file_bb(File(c[0] - 'a'));
    }
  } else {
    PieceType pt = NO_PIECE_TYPE;
    switch (c[0]) {
      case 'N': pt = KNIGHT; break;
      case 'B': pt = BISHOP; break;
      case 'R': pt = ROOK; break;
      case 'Q': pt = QUEEN; break;
      default: return Move::none();
    }
    Bitboard from_mask = ~Bitboard(0);
    size_t i = 1;
    if (i < n - 2 && is_file_char(c[i])) from_mask = file_bb(File(c[i++] - 'a'));
    else if (i < n - 2 && is_rank_char(c[i])) from_mask = rank_bb(Rank(c[i++] - '1'));
    if (i < n - 2 && c[i] == 'x') ++i;
    if (i != n - 2) return Move::none();
    origins = origins_of(pos, pt, to, pos.pieces(us, pt) & from_mask);
  }
  Move found = Move::none();
  while (origins) {
    const Move m = Move::make(pop_lsb(origins), to);
    if (!pos.is_legal(m)) continue;
    if (!found.is_none()) return Move::none();
    found = m;
  }
  return found;
}

}  // namespace

const char* san_error_name(SanError e) {
  switch (e) {
    case SanError::None: return "none";
    case SanError::Syntax: return "syntax";
    case SanError::Illegal: return "illegal";
    case SanError::Ambiguous: return "ambiguous";
  }
  return "?";
}

Move parse_move(const Position& pos, std::string_view token, SanError* error) {
  if (error) *error = SanError::None;
  if (Move m = common_san_move(pos, token); !m.is_none()) return m;
  std::string_view s = strip_suffixes(token);
  if (s.empty()) return fail(error, SanError::Syntax);
  char first = s.front();
  if ((first == '-' || first == 'Z' || first == 'z' || first == '0' || first == '@') &&
      (s == "--" || s == "Z0" || s == "z0" || s == "0000" || s == "@@@@"))
    return Move::null();

  Color us = pos.side_to_move();
  if (first == 'O' || first == 'o' || first == '0') {
    if (int c = castling_token(s)) {
      Move m = castling_move(pos, c == 2);
      return m.is_none() ? fail(error, SanError::Illegal) : m;
    }
  }

  // Piece letter (upper case; lower-case n, r, q, k are no file letters, so they are taken too).
  PieceType pt = NO_PIECE_TYPE;
  if (PieceType p = piece_letter(s.front())) pt = p;
  else if (s.front() == 'n' || s.front() == 'r' || s.front() == 'q' || s.front() == 'k')
    pt = piece_letter(char(s.front() - 'a' + 'A'));
  if (pt != NO_PIECE_TYPE) s.remove_prefix(1);
  bool explicit_piece = pt != NO_PIECE_TYPE;

  // Promotion: "=Q", "(Q)", "/Q", or a letter right after the destination rank ("e8Q", "d7d8r").
  PieceType promo = NO_PIECE_TYPE;
  if (s.size() >= 3 && s.back() == ')' && s[s.size() - 3] == '(') {
    promo = promotion_letter(s[s.size() - 2]);
    if (!promo) return fail(error, SanError::Syntax);
    s.remove_suffix(3);
  } else if (s.size() >= 2 && promotion_letter(s.back()) &&
             (is_rank_char(s[s.size() - 2]) || s[s.size() - 2] == '=' || s[s.size() - 2] == '/')) {
    promo = promotion_letter(s.back());
    s.remove_suffix(1);
    if (s.back() == '=' || s.back() == '/') s.remove_suffix(1);
  }

  // Body: [from-file][from-rank][x|:|-]to-file to-rank.
  char buf[4];
  int n = 0;
  bool capture = false;
  for (char c : s) {
    if (c == 'x' || c == ':' || c == 'X') {
      capture = true;
    } else if (c == '-') {
      // long algebraic separator
    } else if (is_file_char(c) || is_rank_char(c)) {
      if (n == 4) return fail(error, SanError::Syntax);
      buf[n++] = c;
    } else {
      return fail(error, SanError::Syntax);
    }
  }
  if (n == 2 && !explicit_piece && is_file_char(buf[0]) && is_file_char(buf[1]) && buf[0] != buf[1])
    return pawn_capture_by_files(pos, File(buf[0] - 'a'), File(buf[1] - 'a'), promo, error);
  if (n < 2 || !is_file_char(buf[n - 2]) || !is_rank_char(buf[n - 1])) return fail(error, SanError::Syntax);
  Square to = make_square(File(buf[n - 2] - 'a'), Rank(buf[n - 1] - '1'));
  int from_file = -1, from_rank = -1;
  if (n == 3) {
    if (is_file_char(buf[0])) from_file = buf[0] - 'a';
    else from_rank = buf[0] - '1';
  } else if (n == 4) {
    if (!is_file_char(buf[0]) || !is_rank_char(buf[1])) return fail(error, SanError::Syntax);
    from_file = buf[0] - 'a';
    from_rank = buf[1] - '1';
  }
  Bitboard from_mask = ~Bitboard(0);
  if (from_file >= 0) from_mask &= file_bb(File(from_file));
  if (from_rank >= 0) from_mask &= rank_bb(Rank(from_rank));

  // A full origin square without a piece letter (UCI, "e2e4", "e2-e4"): the piece is whatever stands there.
  if (!explicit_piece) {
    if (from_file >= 0 && from_rank >= 0) {
      Piece p = pos.piece_on(make_square(File(from_file), Rank(from_rank)));
      if (p == NO_PIECE || color_of(p) != us) return fail(error, SanError::Illegal);
      pt = type_of(p);
    } else {
      pt = PAWN;
    }
  }

  // Castling written as a king move: onto its own castling rook (UCI 960 / "e1h1"), or a two-file step.
  if (pt == KING) {
    Square ksq = pos.king_square(us);
    if (from_mask & square_bb(ksq)) {
      for (bool king_side : {true, false}) {
        Square rsq = pos.castling_rook_square(castling_right(us, king_side));
        if (rsq == SQ_NONE) continue;
        Move m = Move::make(ksq, rsq, CASTLING);
        bool onto_rook = rsq == to;
        bool two_step = !(king_attacks(ksq) & square_bb(to)) && Position::castling_king_to(m) == to;
        if (onto_rook || two_step) {
          if (promo) return fail(error, SanError::Syntax);
          return pos.is_legal(m) ? m : fail(error, SanError::Illegal);
        }
      }
    }
  }
  if (pos.pieces(us) & square_bb(to)) return fail(error, SanError::Illegal);

  Bitboard origins;
  MoveKind kind = NORMAL;
  if (pt == PAWN) {
    bool is_capture = capture || (from_file >= 0 && from_file != file_of(to));
    origins = pawn_origins(pos, to, is_capture);
    if (is_capture && pos.empty(to)) {
      if (to != pos.ep_square()) return fail(error, SanError::Illegal);
      kind = EN_PASSANT;
    }
    bool promotes = relative_rank(us, rank_of(to)) == RANK_8;
    if (promotes != (promo != NO_PIECE_TYPE)) return fail(error, SanError::Illegal);
    if (promotes) kind = PROMOTION;
  } else {
    if (promo) return fail(error, SanError::Illegal);
    origins = origins_of(pos, pt, to, pos.pieces(us, pt) & from_mask);
  }
  origins &= from_mask;

  Move found = Move::none();
  while (origins) {
    Move m = Move::make(pop_lsb(origins), to, kind, promo ? promo : KNIGHT);
    if (!pos.is_legal(m)) continue;
    if (!found.is_none()) return fail(error, SanError::Ambiguous);
    found = m;
  }
  return found.is_none() ? fail(error, SanError::Illegal) : found;
}

std::string to_san(const Position& pos, Move m) {
  if (m.is_null()) return "--";
  if (m.is_none()) return "";
  return to_san(pos, m, pos.after(m));
}

std::string to_san(const Position& pos, Move m, const Position& next) {
  char san[kMaxSanBytes];
  return std::string(san, write_san(pos, m, next, san));
}

size_t write_san(const Position& pos, Move m, const Position& next, char* san) {
  if (m.is_null()) {
    san[0] = san[1] = '-';
    return 2;
  }
  if (m.is_none()) return 0;
  size_t n = 0;
  auto put_square = [&](Square s) {
    san[n++] = char('a' + file_of(s));
    san[n++] = char('1' + rank_of(s));
  };
  Square from = m.from(), to = m.to();
  if (m.kind() == CASTLING) {
    for (const char* c = to > from ? "O-O" : "O-O-O"; *c;) san[n++] = *c++;
  } else {
    PieceType pt = type_of(pos.piece_on(from));
    bool capture = m.kind() == EN_PASSANT || !pos.empty(to);
    if (pt == PAWN) {
      if (capture) {
        san[n++] = char('a' + file_of(from));
        san[n++] = 'x';
      }
      put_square(to);
      if (m.kind() == PROMOTION) {
        san[n++] = '=';
        san[n++] = piece_type_char(m.promotion());
      }
    } else {
      san[n++] = piece_type_char(pt);
      // Other pieces of the same kind that could legally go to the same square.
      const Bitboard same_kind = pos.pieces(pos.side_to_move(), pt) & ~square_bb(from);
      Bitboard others = same_kind ? origins_of(pos, pt, to, same_kind) : 0;
      Bitboard rivals = 0;
      while (others) {
        Square o = pop_lsb(others);
        if (pos.is_legal(Move(o, to))) rivals |= square_bb(o);
      }
      if (rivals) {
        if (!(rivals & file_bb(from))) san[n++] = char('a' + file_of(from));
        else if (!(rivals & rank_bb(from))) san[n++] = char('1' + rank_of(from));
        else put_square(from);
      }
      if (capture) san[n++] = 'x';
      put_square(to);
    }
  }
  if (next.in_check()) san[n++] = has_legal_move(next) ? '+' : '#';
  return n;
}

}  // namespace cqlindex::chess
