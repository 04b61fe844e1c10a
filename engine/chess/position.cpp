#include "engine/chess/position.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <vector>

namespace cqlindex::chess {

namespace {

// Zobrist random numbers, generated at compile time from a fixed seed (so usable during static init).
struct Zobrist {
  uint64_t psq[PIECE_NB][64] = {};
  uint64_t ep_file[8] = {};
  uint64_t castling[16] = {};
  uint64_t side = 0;
  constexpr Zobrist() {
    uint64_t s = 1070372;
    auto next = [&s] {
      s ^= s >> 12;
      s ^= s << 25;
      s ^= s >> 27;
      return s * 2685821657736338717ULL;
    };
    for (auto& row : psq)
      for (auto& k : row) k = next();
    for (auto& k : ep_file) k = next();
    for (auto& k : castling) k = next();
    side = next();
  }
};
constexpr Zobrist zobrist;

constexpr std::string_view kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// Splits s on runs of white space.
std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

PieceType piece_type_from_char(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'P': return PAWN;
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return NO_PIECE_TYPE;
  }
}

}  // namespace

Position::Position() : Position(start()) {}

Position Position::start() {
  static const Position start_pos = *from_fen(kStartFen);
  return start_pos;
}

void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  Bitboard b = square_bb(s);
  by_type_[NO_PIECE_TYPE] |= b;
  by_type_[type_of(p)] |= b;
  by_color_[color_of(p)] |= b;
  key_ ^= zobrist.psq[p][s];
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  Bitboard b = square_bb(s);
  by_type_[NO_PIECE_TYPE] ^= b;
  by_type_[type_of(p)] ^= b;
  by_color_[color_of(p)] ^= b;
  board_[s] = NO_PIECE;
  key_ ^= zobrist.psq[p][s];
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard b = square_bb(from) | square_bb(to);
  by_type_[NO_PIECE_TYPE] ^= b;
  by_type_[type_of(p)] ^= b;
  by_color_[color_of(p)] ^= b;
  board_[from] = NO_PIECE;
  board_[to] = p;
  key_ ^= zobrist.psq[p][from] ^ zobrist.psq[p][to];
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) |
         (knight_attacks(s) & pieces(KNIGHT)) | (king_attacks(s) & pieces(KING)) |
         sliders_reaching(s, pieces(ROOK, QUEEN), pieces(BISHOP, QUEEN), occupied);
}

bool Position::attacked_by(Color c, Square s, Bitboard occupied) const {
  const Bitboard theirs = pieces(c);
  if ((pawn_attacks(~c, s) & pieces(PAWN) & theirs) || (knight_attacks(s) & pieces(KNIGHT) & theirs) ||
      (king_attacks(s) & pieces(KING) & theirs))
    return true;
  return sliders_reaching(s, pieces(c, ROOK, QUEEN), pieces(c, BISHOP, QUEEN), occupied) != 0;
}

Bitboard Position::attacks_by(Color c) const {
  Bitboard result = 0;
  Bitboard occ = pieces();
  for (Bitboard b = pieces(c, PAWN); b;) result |= pawn_attacks(c, pop_lsb(b));
  for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN, KING})
    for (Bitboard b = pieces(c, pt); b;) result |= attacks_of(pt, pop_lsb(b), occ);
  return result;
}

void Position::update_check_info() {
  Color us = side_, them = ~side_;
  Square ksq = king_square(us);
  Bitboard occ = pieces();
  Bitboard rook_like = pieces(them, ROOK, QUEEN), bishop_like = pieces(them, BISHOP, QUEEN);
  checkers_ = (pawn_attacks(us, ksq) & pieces(them, PAWN)) | (knight_attacks(ksq) & pieces(them, KNIGHT));
  pinned_ = 0;
  // Enemy sliders on a line with the king and no enemy piece between: checkers or pinners (a walk over the
  // few sliders on the king's lines is cheaper than the magic look-ups, whose tables miss the cache).
  Bitboard enemies = pieces(them);
  for (Bitboard snipers = (rook_rays(ksq) & rook_like) | (bishop_rays(ksq) & bishop_like); snipers;) {
    Square s = pop_lsb(snipers);
    Bitboard b = between_squares(ksq, s) & occ;
    if (!b) checkers_ |= square_bb(s);
    else if (!more_than_one(b) && !(b & enemies)) pinned_ |= b;
  }
}

bool Position::ep_capture_legal() const {
  if (ep_ == SQ_NONE) return false;
  Bitboard capturers = pawn_attacks(~side_, ep_) & pieces(side_, PAWN);
  while (capturers)
    if (is_legal(Move::make(pop_lsb(capturers), ep_, EN_PASSANT))) return true;
  return false;
}

void Position::set_castling_right(Color c, Square rook_sq) {
  Square ksq = king_square(c);
  bool king_side = rook_sq > ksq;
  CastlingRight cr = castling_right(c, king_side);
  int i = castling_index(cr);
  castling_rights_ |= cr;
  castling_rook_[i] = rook_sq;
  Square kto = relative_square(c, king_side ? SQ_G1 : SQ_C1);
  Square rto = relative_square(c, king_side ? SQ_F1 : SQ_D1);
  castling_path_[i] = (between_squares(ksq, kto) | square_bb(kto) | between_squares(rook_sq, rto) |
                       square_bb(rto)) &
                      ~(square_bb(ksq) | square_bb(rook_sq));
  if (file_of(ksq) != FILE_E || (file_of(rook_sq) != FILE_A && file_of(rook_sq) != FILE_H)) chess960_ = true;
}

void Position::finish_setup() {
  key_ = compute_key();
  update_check_info();
  ep_legal_ = ep_capture_legal();
  if (ep_legal_) key_ ^= zobrist.ep_file[file_of(ep_)];
}

uint64_t Position::castling_key(uint8_t rights) const {
  // The rights mask, plus each right's rook square (two X-FEN positions may differ only in that); the
  // unused NO_PIECE row of the piece-square keys serves for the squares.
  uint64_t k = zobrist.castling[rights];
  for (int i = 0; i < 4; ++i)
    if (rights & (1 << i)) k ^= zobrist.psq[NO_PIECE][castling_rook_[i]];
  return k;
}

uint64_t Position::compute_key() const {
  uint64_t k = 0;
  for (int s = 0; s < 64; ++s)
    if (board_[s] != NO_PIECE) k ^= zobrist.psq[board_[s]][s];
  k ^= castling_key(castling_rights_);
  if (side_ == BLACK) k ^= zobrist.side;
  if (ep_legal_) k ^= zobrist.ep_file[file_of(ep_)];
  return k;
}

namespace {

// Sets `error` (when asked for) to `message` about `field` at byte `offset` of the FEN; returns false.
bool fen_error(FenError* error, FenField field, size_t offset, std::string message) {
  if (error) *error = FenError{field, offset, std::move(message)};
  return false;
}

// 1. Board, rank 8 first, at byte `at` of the FEN: returns the piece on each square (NO_PIECE: empty), or
//    nullopt (with `error` at the rank or the character at fault).
std::optional<std::array<Piece, 64>> read_fen_board(std::string_view field, size_t at, FenError* error) {
  std::array<Piece, 64> board;
  board.fill(NO_PIECE);
  int rank = 7, file = 0;
  size_t rank_start = at;
  auto rank_error = [&](const std::string& what) {
    return fen_error(error, FenField::Board, rank_start, "FEN rank " + std::to_string(rank + 1) + what);
  };
  for (size_t i = 0; i < field.size(); ++i) {
    const char c = field[i];
    if (c == '/') {
      if (file != 8) return rank_error(" has " + std::to_string(file) + " squares, not 8"), std::nullopt;
      rank_start = at + i + 1;
      if (--rank < 0)
        return fen_error(error, FenField::Board, rank_start, "FEN board has more than 8 ranks"), std::nullopt;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return rank_error(" has more than 8 squares"), std::nullopt;
    } else {
      PieceType pt = piece_type_from_char(c);
      if (pt == NO_PIECE_TYPE)
        return fen_error(error, FenField::Board, at + i, std::string("bad character '") + c + "' in FEN board"),
               std::nullopt;
      if (file > 7) return rank_error(" has more than 8 squares"), std::nullopt;
      Color col = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
      board[make_square(File(file), Rank(rank))] = make_piece(col, pt);
      ++file;
    }
  }
  if (rank != 0)
    return fen_error(error, FenField::Board, at + field.size(),
                     "FEN board has " + std::to_string(8 - rank) + " ranks, not 8"),
           std::nullopt;
  if (file != 8) return rank_error(" has " + std::to_string(file) + " squares, not 8"), std::nullopt;
  return board;
}

// Returns whether the board (at byte `at` of the FEN) is one a game can have: one king a side, at most 16
// pieces a side, no pawn on the first or last rank (else false, with `error`).
bool check_fen_board(const Position& pos, size_t at, FenError* error) {
  for (Color c : {WHITE, BLACK}) {
    const char* name = c == WHITE ? "white" : "black";
    int kings = popcount(pos.pieces(c, KING));
    if (kings != 1)
      return fen_error(error, FenField::Board, at,
                       std::string(name) + (kings ? " has more than one king" : " has no king"));
    if (popcount(pos.pieces(c)) > 16)
      return fen_error(error, FenField::Board, at, std::string(name) + " has more than 16 pieces");
  }
  if (pos.pieces(PAWN) & (rank_bb(RANK_1) | rank_bb(RANK_8)))
    return fen_error(error, FenField::Board, at, "pawn on the first or last rank");
  return true;
}

// 2. Side to move: returns it, or nullopt (with `error`).
std::optional<Color> read_fen_side(std::string_view field, size_t at, FenError* error) {
  if (field == "w" || field == "W") return WHITE;
  if (field == "b" || field == "B") return BLACK;
  return fen_error(error, FenField::SideToMove, at, "FEN side to move '" + std::string(field) + "' must be 'w' or 'b'"),
         std::nullopt;
}

// 3. Castling: KQkq (outermost rook on that side), or Shredder/X-FEN file letters. Returns the castling rooks
// of `pos` it names (a right without its king at home or its rook is dropped), or nullopt (with `error`).
std::optional<std::vector<std::pair<Color, Square>>> read_fen_castling(const Position& pos, std::string_view field,
                                                                       size_t at, FenError* error) {
  std::vector<std::pair<Color, Square>> rights;
  for (size_t i = 0; i < field.size(); ++i) {
    const char c = field[i];
    Color col = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
    char u = char(std::toupper(static_cast<unsigned char>(c)));
    if (u != 'K' && u != 'Q' && (u < 'A' || u > 'H'))
      return fen_error(error, FenField::Castling, at + i,
                       std::string("bad character '") + c + "' in FEN castling field"),
             std::nullopt;
    Square ksq = pos.king_square(col);
    if (relative_rank(col, rank_of(ksq)) != RANK_1) continue;  // no castling without a king at home
    Bitboard rooks = pos.pieces(col, ROOK) & rank_bb(rank_of(ksq));
    Square rsq = SQ_NONE;
    if (u == 'K') {
      Bitboard side = rooks & ~(square_bb(ksq) - 1) & ~square_bb(ksq);
      if (side) rsq = msb(side);
    } else if (u == 'Q') {
      Bitboard side = rooks & (square_bb(ksq) - 1);
      if (side) rsq = lsb(side);
    } else {
      Square s = make_square(File(u - 'A'), rank_of(ksq));
      if (rooks & square_bb(s)) rsq = s;
    }
    if (rsq != SQ_NONE) rights.emplace_back(col, rsq);
  }
  return rights;
}

// 4. En passant target: returns it when an enemy pawn stands in front of it (as chess.js reads FENs; the
//    square the pawn came from is not checked, so a FEN's declared e.p. capture stays playable), else SQ_NONE;
//    nullopt (with `error`) when it is not a square.
std::optional<Square> read_fen_en_passant(const Position& pos, std::string_view e, size_t at, FenError* error) {
  if (e.size() != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8')
    return fen_error(error, FenField::EnPassant, at, "bad FEN en-passant square '" + std::string(e) + "'"),
           std::nullopt;
  Square s = make_square(File(e[0] - 'a'), Rank(e[1] - '1'));
  Color us = pos.side_to_move();
  int push = pawn_push(us);
  if (relative_rank(us, rank_of(s)) == RANK_6 && pos.empty(s) && pos.piece_on(s - push) == make_piece(~us, PAWN))
    return s;
  return SQ_NONE;
}

// 5-6. A clock: returns its value (capped at 65535), or nullopt when it is not a number.
std::optional<int> read_fen_clock(std::string_view t) {
  int v = 0;
  auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size() || v < 0) return std::nullopt;
  return v > 65535 ? 65535 : v;
}

}  // namespace

std::optional<Position> Position::from_fen(std::string_view fen, std::string* error) {
  FenError why;
  std::optional<Position> pos = from_fen(fen, why);
  if (!pos && error) *error = std::move(why.message);
  return pos;
}

std::optional<Position> Position::from_fen(std::string_view fen, FenError& error, FenSide side) {
  init_attacks();
  std::vector<std::string_view> f = split_fields(fen);
  // where each field starts in `fen`
  auto at = [&](size_t k) { return size_t(f[k].data() - fen.data()); };
  if (f.empty()) return fen_error(&error, FenField::Board, 0, "empty FEN"), std::nullopt;
  if (f.size() > 6)
    return fen_error(&error, FenField::Clocks, at(6),
                     "FEN has more than six fields: '" + std::string(f[6]) + "' after the fullmove number"),
           std::nullopt;
  Position pos{EmptyBoard{}};
  const std::optional<std::array<Piece, 64>> board = read_fen_board(f[0], at(0), &error);
  if (!board) return std::nullopt;
  for (Square s = SQ_A1; s <= SQ_H8; s = Square(s + 1))
    if ((*board)[s] != NO_PIECE) pos.put_piece((*board)[s], s);
  if (!check_fen_board(pos, at(0), &error)) return std::nullopt;
  if (f.size() > 1) {
    const std::optional<Color> to_move = read_fen_side(f[1], at(1), &error);
    if (!to_move) return std::nullopt;
    pos.side_ = *to_move;
  } else if (side == FenSide::Required) {
    return fen_error(&error, FenField::SideToMove, at(0) + f[0].size(),
                     "FEN has no side to move: 'w' or 'b' after the board"),
           std::nullopt;
  }
  if (f.size() > 2 && f[2] != "-") {
    const auto rights = read_fen_castling(pos, f[2], at(2), &error);
    if (!rights) return std::nullopt;
    for (const auto& [color, rook] : *rights) pos.set_castling_right(color, rook);
  }
  if (f.size() > 3 && f[3] != "-") {
    const std::optional<Square> ep = read_fen_en_passant(pos, f[3], at(3), &error);
    if (!ep) return std::nullopt;
    if (*ep != SQ_NONE) pos.ep_ = *ep;
  }
  if (f.size() > 4) {
    const std::optional<int> v = read_fen_clock(f[4]);
    if (!v)
      return fen_error(&error, FenField::Clocks, at(4), "bad FEN halfmove clock '" + std::string(f[4]) + "'"),
             std::nullopt;
    pos.halfmove_ = uint16_t(*v);
  }
  if (f.size() > 5) {
    const std::optional<int> v = read_fen_clock(f[5]);
    if (!v)
      return fen_error(&error, FenField::Clocks, at(5), "bad FEN fullmove number '" + std::string(f[5]) + "'"),
             std::nullopt;
    pos.fullmove_ = uint16_t(*v < 1 ? 1 : *v);
  }
  pos.finish_setup();
  return pos;
}

std::string Position::fen() const {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    int empty_run = 0;
    for (int fl = 0; fl < 8; ++fl) {
      Piece p = board_[make_square(File(fl), Rank(r))];
      if (p == NO_PIECE) {
        ++empty_run;
        continue;
      }
      if (empty_run) s += char('0' + empty_run);
      empty_run = 0;
      s += piece_char(p);
    }
    if (empty_run) s += char('0' + empty_run);
    if (r) s += '/';
  }
  s += side_ == WHITE ? " w " : " b ";
  if (!castling_rights_) s += '-';
  for (CastlingRight cr : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
    if (!can_castle(cr)) continue;
    Color c = cr & WHITE_CASTLING ? WHITE : BLACK;
    bool king_side = cr & (WHITE_OO | BLACK_OO);
    Square rsq = castling_rook_[castling_index(cr)];
    Square ksq = king_square(c);
    Bitboard rooks = pieces(c, ROOK) & rank_bb(rank_of(ksq));
    Square outermost = king_side ? msb(rooks) : lsb(rooks);
    char ch = rsq == outermost ? (king_side ? 'K' : 'Q') : char('A' + file_of(rsq));
    s += c == WHITE ? ch : char(std::tolower(static_cast<unsigned char>(ch)));
  }
  s += ' ';
  s += ep_legal_ ? square_name(ep_) : "-";
  s += ' ' + std::to_string(halfmove_) + ' ' + std::to_string(fullmove_);
  return s;
}

Piece Position::captured_piece(Move m) const {
  if (m.kind() == CASTLING || !m.is_ok()) return NO_PIECE;
  if (m.kind() == EN_PASSANT) return make_piece(~side_, PAWN);
  return board_[m.to()];
}

bool Position::castling_path_clear(Move m) const {
  CastlingRight cr = castling_right(side_, m.to() > m.from());
  int i = castling_index(cr);
  return can_castle(cr) && castling_rook_[i] == m.to() && m.from() == king_square(side_) &&
         !(castling_path_[i] & pieces());
}

bool Position::is_legal(Move m) const {
  Color us = side_, them = ~side_;
  Square from = m.from(), to = m.to();
  if (board_[to] == make_piece(them, KING)) return false;  // possible only after a null move in check
  Square ksq = king_square(us);
  Bitboard occ = pieces();

  if (m.kind() == EN_PASSANT) {
    Square capsq = to - pawn_push(us);
    Bitboard after = (occ ^ square_bb(from) ^ square_bb(capsq)) | square_bb(to);
    return !(attackers_to(ksq, after) & pieces(them) & ~square_bb(capsq));
  }
  if (m.kind() == CASTLING) {
    if (checkers_ || !castling_path_clear(m)) return false;
    Square kto = castling_king_to(m), rto = castling_rook_to(m);
    for (Bitboard path = between_squares(ksq, kto); path;)
      if (attacked_by(them, pop_lsb(path), occ)) return false;
    Bitboard after = (occ ^ square_bb(from) ^ square_bb(to)) | square_bb(kto) | square_bb(rto);
    return !attacked_by(them, kto, after);
  }
  if (from == ksq) return !attacked_by(them, to, occ ^ square_bb(from));
  if (checkers_) {
    if (more_than_one(checkers_)) return false;
    Square checker = lsb(checkers_);
    if (!((between_squares(ksq, checker) | checkers_) & square_bb(to))) return false;
  }
  return !(pinned_ & square_bb(from)) || aligned(from, to, ksq);
}

void Position::do_move(Move m) {
  Color us = side_, them = ~side_;
  key_ ^= zobrist.side;
  if (ep_legal_) key_ ^= zobrist.ep_file[file_of(ep_)];
  ep_ = SQ_NONE;
  ep_legal_ = false;
  ++halfmove_;
  if (us == BLACK) ++fullmove_;
  side_ = them;
  if (m.is_null()) {
    update_check_info();
    return;
  }

  Square from = m.from(), to = m.to();
  Piece pc = board_[from];
  uint8_t old_rights = castling_rights_;
  if (m.kind() == CASTLING) {
    Square kto = castling_king_to(m), rto = castling_rook_to(m);
    Piece rook = board_[to];
    remove_piece(from);
    remove_piece(to);
    put_piece(pc, kto);
    put_piece(rook, rto);
    castling_rights_ &= ~(us == WHITE ? WHITE_CASTLING : BLACK_CASTLING);
  } else {
    Square capsq = m.kind() == EN_PASSANT ? to - pawn_push(us) : to;
    if (board_[capsq] != NO_PIECE) {
      remove_piece(capsq);
      halfmove_ = 0;
    }
    move_piece(from, to);
    if (type_of(pc) == PAWN) {
      halfmove_ = 0;
      if ((int(to) ^ int(from)) == 16) ep_ = from + pawn_push(us);
      else if (m.kind() == PROMOTION) {
        remove_piece(to);
        put_piece(make_piece(us, m.promotion()), to);
      }
    } else if (type_of(pc) == KING) {
      castling_rights_ &= ~(us == WHITE ? WHITE_CASTLING : BLACK_CASTLING);
    }
    if (castling_rights_) {
      for (int i = 0; i < 4; ++i)
        if ((castling_rights_ & (1 << i)) && (castling_rook_[i] == from || castling_rook_[i] == to))
          castling_rights_ &= ~(1 << i);
    }
  }
  if (old_rights != castling_rights_) key_ ^= castling_key(old_rights) ^ castling_key(castling_rights_);
  update_check_info();
  if (ep_ != SQ_NONE) {
    ep_legal_ = ep_capture_legal();
    if (ep_legal_) key_ ^= zobrist.ep_file[file_of(ep_)];
  }
}

bool Position::operator==(const Position& o) const {
  return std::memcmp(board_, o.board_, sizeof board_) == 0 && side_ == o.side_ &&
         castling_rights_ == o.castling_rights_ && ep_ == o.ep_ && halfmove_ == o.halfmove_ &&
         fullmove_ == o.fullmove_ && key_ == o.key_;
}

}  // namespace cqlindex::chess
