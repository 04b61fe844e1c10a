#include "engine/yacpdb/diagram.h"

#include <algorithm>
#include <cctype>

namespace cqlindex::yacpdb {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Popeye options that change how a problem is solved or printed, not the rules of play.
bool is_solving_option(std::string_view option) {
  std::string first = lower(option.substr(0, option.find(' ')));
  static const char* options[] = {"setplay",
                                  "defence",
                                  "try",
                                  "variation",
                                  "threat",
                                  "nothreat",
                                  "enpassant",
                                  "nocastling",
                                  "noshortvariations",
                                  "halfduplex",
                                  "duplex",
                                  "whitetoplay",
                                  "whitebegins",
                                  "postkeyplay",
                                  "intelligent",
                                  "maxsolutions",
                                  "movenumbers",
                                  "startmovenumber",
                                  "keepmatingpiece",
                                  "nontrivial",
                                  "quodlibet",
                                  "goalisend",
                                  "maxflightsquares",
                                  "maxtime",
                                  "nowk",
                                  "nobk",
                                  "noboard",
                                  "shortsolutions",
                                  "lastcapture",
                                  "castling",
                                  "mutuallyexclusivecastling"};
  for (const char* o : options)
    if (first == o) return true;
  return false;
}

chess::PieceType type_of_code(std::string_view code) {
  if (code == "K") return chess::KING;
  if (code == "Q") return chess::QUEEN;
  if (code == "R") return chess::ROOK;
  if (code == "B") return chess::BISHOP;
  if (code == "S") return chess::KNIGHT;
  if (code == "P") return chess::PAWN;
  return chess::NO_PIECE_TYPE;
}

std::string square_text(int sq) { return std::string{char('a' + sq % 8), char('1' + sq / 8)}; }

}  // namespace

bool is_orthodox_code(std::string_view code) { return type_of_code(code) != chess::NO_PIECE_TYPE; }

chess::Color first_mover(std::string_view stipulation) {
  std::string s = lower(stipulation);
  size_t i = s.find_first_not_of(" \t");
  if (i == std::string::npos) return chess::WHITE;
  s = s.substr(i);
  if (s.rfind("ser-", 0) == 0) s = s.substr(4);
  if (s.rfind("hs", 0) == 0) return chess::WHITE;
  return s.rfind("h", 0) == 0 ? chess::BLACK : chess::WHITE;
}

bool is_fairy(const Entry& e) {
  for (const DiagramPiece& p : e.pieces)
    if (p.color == 'n' || !p.specs.empty() || !is_orthodox_code(p.code)) return true;
  return !fairy_condition(e).empty();
}

std::string fairy_condition(const Entry& e) {
  for (const std::string& o : e.options)
    if (!is_solving_option(o)) return o;
  return {};
}

int en_passant_option(const Entry& e) {
  for (const std::string& o : e.options) {
    std::string l = lower(o);
    if (l.rfind("enpassant", 0) != 0) continue;
    size_t sq = l.find_first_of("abcdefgh", 9);
    if (sq != std::string::npos && sq + 1 < l.size() && l[sq + 1] >= '1' && l[sq + 1] <= '8')
      return (l[sq + 1] - '1') * 8 + (l[sq] - 'a');
  }
  return -1;
}

std::optional<chess::Position> diagram_position(const std::vector<DiagramPiece>& pieces, chess::Color side,
                                                std::string* why, int en_passant) {
  char board[64];
  std::fill(board, board + 64, '.');
  for (const DiagramPiece& p : pieces) {
    chess::PieceType pt = type_of_code(p.code);
    if (p.color == 'n' || !p.specs.empty() || pt == chess::NO_PIECE_TYPE) {
      if (why)
        *why = "fairy piece " + std::string(1, p.color) + p.specs + (p.specs.empty() ? "" : " ") + p.code +
               square_text(p.square);
      return std::nullopt;
    }
    if (board[p.square] != '.') {
      if (why) *why = "two pieces on " + square_text(p.square);
      return std::nullopt;
    }
    char c = chess::piece_type_char(pt);
    board[p.square] = p.color == 'w' ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      char c = board[rank * 8 + file];
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
  fen += side == chess::WHITE ? " w KQkq " : " b KQkq ";
  if (en_passant >= 0) {
    int rank = en_passant / 8;
    if (rank == 3) rank = 2;  // the pawn's square: the square it passed over is behind it
    if (rank == 4) rank = 5;
    fen += square_text(rank * 8 + en_passant % 8);
  } else {
    fen += '-';
  }
  fen += " 0 1";
  std::string error;
  auto pos = chess::Position::from_fen(fen, &error);
  if (!pos && why) *why = "not a legal diagram (" + error + ")";
  return pos;
}

bool apply_twin_command(std::vector<DiagramPiece>& pieces, const TwinCommand& c, std::string* why) {
  auto find = [&](int square) {
    return std::find_if(pieces.begin(), pieces.end(), [&](const DiagramPiece& p) { return p.square == square; });
  };
  switch (c.kind) {
    case TwinCommand::Kind::Move: {
      auto it = find(c.from);
      if (it == pieces.end()) break;
      auto target = find(c.to);
      if (target != pieces.end()) {
        pieces.erase(target);
        it = find(c.from);
      }
      it->square = c.to;
      return true;
    }
    case TwinCommand::Kind::Exchange: {
      auto a = find(c.from), b = find(c.to);
      if (a == pieces.end() || b == pieces.end()) break;
      std::swap(a->square, b->square);
      return true;
    }
    case TwinCommand::Kind::Add: {
      if (find(c.from) != pieces.end()) break;
      pieces.push_back(DiagramPiece{c.color, c.piece, {}, c.from});
      return true;
    }
    case TwinCommand::Kind::Remove: {
      auto it = find(c.from);
      if (it == pieces.end()) break;
      pieces.erase(it);
      return true;
    }
    case TwinCommand::Kind::Transform:
      for (DiagramPiece& p : pieces) p.square = transformed_square(c.transform, p.square);
      return true;
    case TwinCommand::Kind::Shift: {
      const int df = c.to % 8 - c.from % 8, dr = c.to / 8 - c.from / 8;
      for (const DiagramPiece& p : pieces) {  // Popeye refuses a shift that would take a piece off the board
        const int f = p.square % 8 + df, r = p.square / 8 + dr;
        if (f < 0 || f > 7 || r < 0 || r > 7) {
          if (why) *why = "twin command '" + c.text + "' moves a piece off the board";
          return false;
        }
      }
      for (DiagramPiece& p : pieces) p.square += dr * 8 + df;
      return true;
    }
    case TwinCommand::Kind::PolishType:  // colours swap, squares stay (Popeye's total_side_exchange)
      for (DiagramPiece& p : pieces)
        if (p.color != 'n') p.color = p.color == 'w' ? 'b' : 'w';
      return true;
    case TwinCommand::Kind::Imitator:  // no piece changes: the replay keeps the imitator squares itself
      return true;
    case TwinCommand::Kind::Other:
      if (why) *why = "twin command '" + c.text + "' is not supported";
      return false;
  }
  if (why) *why = "twin command '" + c.text + "' does not fit the position";
  return false;
}

}  // namespace cqlindex::yacpdb
