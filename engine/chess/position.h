// A chess position as a small value type (copy-make): bitboards, mailbox, state, Zobrist key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/chess/attacks.h"
#include "engine/chess/fen.h"
#include "engine/chess/types.h"

namespace cqlindex::chess {

class Position {
 public:
  // A default-constructed Position is the standard initial position (never an unusable empty board).
  Position();
  // The standard initial position.
  static Position start();
  // Parses FEN, X-FEN or Shredder-FEN (Chess960 castling files). Missing trailing fields default to
  // "w - - 0 1"; a fullmove number 0 is read as 1 (as chess.js does). Rejected (nullopt + message in *error): malformed fields, a side without exactly one king,
  // more than 16 pieces of one colour, pawns on the first or last rank. An en-passant field that no pawn
  // could have produced, and castling rights with no matching king/rook, are dropped, not refused.
  static std::optional<Position> from_fen(std::string_view fen, std::string* error = nullptr);
  // The same, saying in `error` which field is wrong and at which byte of `fen` (fen.h); with
  // FenSide::Required a FEN of the board alone is refused.
  static std::optional<Position> from_fen(std::string_view fen, FenError& error, FenSide side = FenSide::Optional);
  // Six-field FEN; the en-passant square only when an e.p. capture is legal (as chess.js); castling in
  // KQkq form, with the rook's file letter (X-FEN) where KQkq would name a different rook.
  std::string fen() const;

  Piece piece_on(Square s) const { return board_[s]; }
  bool empty(Square s) const { return board_[s] == NO_PIECE; }
  Bitboard pieces() const { return by_type_[NO_PIECE_TYPE]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const { return by_color_[c] & pieces(a, b); }
  Color side_to_move() const { return side_; }
  Square king_square(Color c) const { return lsb(pieces(c, KING)); }

  // The e.p. target square if the last move was a double pawn step (else SQ_NONE), legal capture or not.
  Square ep_square() const { return ep_; }
  // True if the side to move has a legal en-passant capture.
  bool ep_capture_possible() const { return ep_legal_; }
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }

  // Bit mask of CastlingRight values still held.
  uint8_t castling_rights() const { return castling_rights_; }
  bool can_castle(CastlingRight cr) const { return castling_rights_ & cr; }
  // The rook square of a held castling right (SQ_NONE if the right is not held).
  Square castling_rook_square(CastlingRight cr) const {
    return can_castle(cr) ? castling_rook_[castling_index(cr)] : SQ_NONE;
  }
  // True if castling needs Chess960 notation (a king or castling rook off its standard square).
  bool is_chess960() const { return chess960_; }

  // Enemy pieces giving check to the side to move.
  Bitboard checkers() const { return checkers_; }
  bool in_check() const { return checkers_ != 0; }
  // Pieces of the side to move that are pinned to their own king.
  Bitboard pinned() const { return pinned_; }
  // Pieces of both colours attacking s, given the occupancy.
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
  // True if a piece of colour c attacks s, given the occupancy.
  bool attacked_by(Color c, Square s, Bitboard occupied) const;
  // Every square attacked by colour c's pieces.
  Bitboard attacks_by(Color c) const;

  // True if a castling move's right is held and the squares it needs are empty (no attack test).
  bool castling_path_clear(Move m) const;
  // True if a pseudo-legal move (right piece, reachable square) leaves the mover's king safe and does not
  // capture the enemy king.
  bool is_legal(Move m) const;
  // Plays a legal move, or Move::null() to pass the turn.
  void do_move(Move m);
  // Copy of this position after the move.
  Position after(Move m) const {
    Position p = *this;
    p.do_move(m);
    return p;
  }
  // The piece a move captures (NO_PIECE for quiet moves and castling; the pawn for e.p.).
  Piece captured_piece(Move m) const;
  // The king's destination square of a castling move (g- or c-file on the king's rank).
  static Square castling_king_to(Move m) {
    return make_square(m.to() > m.from() ? FILE_G : FILE_C, rank_of(m.from()));
  }
  // The rook's destination square of a castling move (f- or d-file).
  static Square castling_rook_to(Move m) {
    return make_square(m.to() > m.from() ? FILE_F : FILE_D, rank_of(m.from()));
  }

  // Zobrist key (side, pieces, castling rights with their rook squares, and the e.p. file only when an
  // e.p. capture is legal).
  uint64_t key() const { return key_; }
  // The key recomputed from scratch (for consistency checks).
  uint64_t compute_key() const;

  bool operator==(const Position& o) const;

 private:
  struct EmptyBoard {};
  explicit Position(EmptyBoard) {}
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  void set_castling_right(Color c, Square rook_sq);
  void update_check_info();
  uint64_t castling_key(uint8_t rights) const;
  bool ep_capture_legal() const;
  void finish_setup();

  Piece board_[64] = {};
  Bitboard by_type_[PIECE_TYPE_NB] = {};
  Bitboard by_color_[COLOR_NB] = {};
  Bitboard checkers_ = 0;
  Bitboard pinned_ = 0;
  uint64_t key_ = 0;
  Bitboard castling_path_[4] = {};    // squares that must be empty for each right
  Square castling_rook_[4] = {SQ_NONE, SQ_NONE, SQ_NONE, SQ_NONE};
  Square ep_ = SQ_NONE;
  Color side_ = WHITE;
  uint8_t castling_rights_ = 0;
  bool ep_legal_ = false;
  bool chess960_ = false;
  uint16_t halfmove_ = 0;
  uint16_t fullmove_ = 1;
};

}  // namespace cqlindex::chess
