// CQL lexer: token order follows CQL 6.2 (piece declarations, `///`, comments, results, integers, {m,n},
// castling, Unicode glyphs, escape strings, group references, piece designators, dashes, symbols, words).
#include "engine/cql/lexer.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "engine/cql/error.h"

namespace cqlindex::cql {
namespace {

constexpr const char* kReserved[] = {
    "abs", "ancestor", "and", "ascii", "assert", "attack", "attacked", "attackedby", "attacks", "between",
    "btm", "castle", "check", "child", "colortype", "comment", "connectedpawns", "consecutivemoves",
    "countmoves", "currentmove", "currentposition", "curpos", "currenttransform", "dark", "date", "depth",
    "descendant", "diagonal", "dictionary", "dihedral", "distance", "doubledpawns", "down", "echo", "eco",
    "elo", "enpassant", "enpassantsquare", "equal", "event", "eventdate", "extension", "false", "fen",
    "file", "find", "flip", "flipcolor", "flipdihedral", "fliphorizontal", "flipvertical", "from",
    "function", "gamenumber", "hascomment", "hhdb", "horizontal", "idealmate", "idealstalemate", "if",
    "indexof", "initial", "initialposition", "int", "isbound", "isolatedpawns", "isunbound",
    "lastgamenumber", "lca", "left", "legal", "light", "line", "loop", "lowercase", "maindiagonal",
    "mainline", "makesquare", "mate", "max", "message", "min", "modelmate", "modelstalemate", "move",
    "movenumber", "northeast", "northwest", "not", "notransform", "nullmove", "o-o", "o-o-o",
    "offdiagonal", "or", "originalcomment", "orthogonal", "parent", "passedpawns", "path", "pathcount",
    "pathcountunfocused", "pathdebug", "pathlastposition", "pathstart", "persistent", "piece", "pieceid",
    "piecename", "pin", "player", "ply", "position", "positionid", "power", "previous", "primary",
    "pseudolegal", "puremate", "purestalemate", "rank", "ray", "readfile", "removecomment", "result",
    "reversecolor", "right", "rotate45", "rotate90", "secondary", "settag", "shift", "shifthorizontal",
    "shiftvertical", "sidetomove", "similarposition", "site", "sort", "southeast", "southwest", "sqrt",
    "square", "stalemate", "str", "tag", "terminal", "to", "true", "try", "type", "typename", "unbind",
    "up", "uppercase", "variation", "vertical", "virtualmainline", "while", "writefile", "wtm", "xray",
    "year", "anydirection", "cql_abort", "cql_assertvariations", "cql_hhdbhascook", "atomic", "white",
    "black",
    // parameters
    "all", "by", "capture", "captures", "count", "else", "then", "in", "null", "promote", "through",
    "quiet", "silent", "focus", "piecepath", "verbose", "title", "keepallbest", "nestban", "firstmatch",
    "lastposition", "singlecolor", "local", "nosort", "notransform", "variations", "matchcount",
    "matchstring", "string", "cql",
    // reserved without meaning, and removed words (explanatory errors in the parser)
    "arrow", "oldline", "transform", "substring", "pgn", "any", "on", "lightsquares", "darksquares",
};

// Unicode glyphs that stand for one ASCII token.
struct Glyph {
  const char* utf8;
  TokenKind kind;
  const char* ascii;
};
constexpr Glyph kGlyphs[] = {
    {"\u2015\u2015", TokenKind::Dash, "--"},  {"\u00D7", TokenKind::Dash, "[x]"},
    {"\u22A2", TokenKind::Keyword, "path"},    {"\u25CE", TokenKind::Keyword, "focus"},
    {"\u2219", TokenKind::Keyword, "currentposition"}, {"\u2735", TokenKind::Keyword, "flip"},
    {"\u2B13", TokenKind::Keyword, "flipcolor"}, {"\u2192", TokenKind::Special, "->"},
    {"\u2190", TokenKind::Special, "<-"},      {"\u2264", TokenKind::Special, "<="},
    {"\u2265", TokenKind::Special, ">="},      {"\u2260", TokenKind::Special, "!="},
    {"\u220A", TokenKind::Special, "[element]"}, {"\u2200", TokenKind::Special, "[forall]"},
    {"\u222A=", TokenKind::Special, "|="},     {"\u2229=", TokenKind::Special, "&="},
    {"\u222A", TokenKind::Special, "|"},       {"\u2229", TokenKind::Special, "&"},
    {"\u227A", TokenKind::Special, "[<]"},     {"\u227B", TokenKind::Special, "[>]"},
    {"\u227C", TokenKind::Special, "[<=]"},    {"\u227D", TokenKind::Special, "[>=]"},
    {"\u25A6", TokenKind::Special, "."},
};

// Piece glyphs: ♔♕♖♗♘♙ ♚♛♜♝♞♟ △ ▲ ◭ □ as piece_bits.
struct PieceGlyph {
  const char* utf8;
  uint16_t bits;
  char ascii;  // letter in a bracket list ('*' for ◭ = "Aa")
};
constexpr PieceGlyph kPieceGlyphs[] = {
    {"\u2654", 1 << 0, 'K'},  {"\u2655", 1 << 1, 'Q'},  {"\u2656", 1 << 2, 'R'},
    {"\u2657", 1 << 3, 'B'},  {"\u2658", 1 << 4, 'N'},  {"\u2659", 1 << 5, 'P'},
    {"\u265A", 1 << 6, 'k'},  {"\u265B", 1 << 7, 'q'},  {"\u265C", 1 << 8, 'r'},
    {"\u265D", 1 << 9, 'b'},  {"\u265E", 1 << 10, 'n'}, {"\u265F", 1 << 11, 'p'},
    {"\u25B3", piece_bits::kWhite, 'A'}, {"\u25B2", piece_bits::kBlack, 'a'},
    {"\u25ED", piece_bits::kWhite | piece_bits::kBlack, '*'}, {"\u25A1", piece_bits::kEmpty, '_'},
};

// Multi-character symbols, longest first.
constexpr const char* kSymbols[] = {
    "[element]", "[forall]", "[<=]", "[>=]", "-->", "<--", "{*}", "{+}", "[<]", "[>]", "->", "<-", "~~",
    "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "=?", "[]",
};
constexpr const char kSingle[] = "(){}[],:#.|&~<>=+-*/%?!";

uint16_t letter_bits(char c) {
  switch (c) {
    case 'K': return 1 << 0;  case 'Q': return 1 << 1;  case 'R': return 1 << 2;
    case 'B': return 1 << 3;  case 'N': return 1 << 4;  case 'P': return 1 << 5;
    case 'k': return 1 << 6;  case 'q': return 1 << 7;  case 'r': return 1 << 8;
    case 'b': return 1 << 9;  case 'n': return 1 << 10; case 'p': return 1 << 11;
    case 'A': return piece_bits::kWhite; case 'a': return piece_bits::kBlack;
    case '_': return piece_bits::kEmpty;
    default: return 0;
  }
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}
bool is_id_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : src_(s) {}

  std::vector<Token> run() {
    if (src_.empty()) throw CqlError("Attempt to lex an empty file", 0, 0);
    if (src_.substr(0, 3) == "\xEF\xBB\xBF") advance(3);
    bool space = true;
    while (true) {
      space = skip_space_and_comments() || space;
      if (pos_ >= src_.size()) break;
      Token t;
      t.line = line_;
      t.column = col_;
      t.space_before = space;
      t.blank_line_before = blank_line_;
      t.offset = static_cast<uint32_t>(pos_);
      lex_one(t);
      t.end = static_cast<uint32_t>(pos_);
      // adjacent quoted strings and escape tokens concatenate into one string
      if (t.kind == TokenKind::String && !t.space_before && !out_.empty() &&
          out_.back().kind == TokenKind::String) {
        out_.back().text += t.text;
      } else {
        out_.push_back(std::move(t));
      }
      space = false;
    }
    Token end;
    end.line = line_;
    end.column = col_;
    out_.push_back(end);
    return std::move(out_);
  }

 private:
  std::string_view src_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
  std::vector<Token> out_;
  bool blank_line_ = false;

  char at(size_t i) const { return pos_ + i < src_.size() ? src_[pos_ + i] : '\0'; }
  bool starts(std::string_view s) const { return src_.substr(pos_, s.size()) == s; }

  // Moves n bytes forward, keeping line and code-point column.
  void advance(size_t n) {
    for (size_t i = 0; i < n && pos_ < src_.size(); ++i, ++pos_) {
      unsigned char c = static_cast<unsigned char>(src_[pos_]);
      if (c == '\n') {
        ++line_;
        col_ = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++col_;
      }
    }
  }

  [[noreturn]] void fail(const std::string& m) { throw CqlError(m, line_, col_); }

  // Skips whitespace and comments; returns true if anything was skipped.
  bool skip_space_and_comments() {
    bool any = false;
    int newlines = 0;  // in the current run of pure whitespace
    blank_line_ = false;
    while (pos_ < src_.size()) {
      char c = at(0);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        if (c == '\n' && ++newlines >= 2) blank_line_ = true;
        advance(1);
      } else if (starts("///") && !starts("////")) {
        return any;  // the comment filter
      } else if (starts("//") || c == ';') {
        while (pos_ < src_.size() && at(0) != '\n') advance(1);
        newlines = 0;
      } else if (starts("/*")) {
        newlines = 0;
        int l = line_, col = col_;
        advance(2);
        while (pos_ < src_.size() && !starts("*/")) advance(1);
        if (pos_ >= src_.size()) throw CqlError("unterminated /* comment", l, col);
        advance(2);
      } else {
        return any;
      }
      any = true;
    }
    return any;
  }

  // Length of a square range "f[-f]r[-r]" at offset i (0 if none), with its squares.
  size_t square_range(size_t i, uint64_t& squares) const {
    size_t j = i;
    if (!is_file(at(j))) return 0;
    char f1 = at(j), f2 = f1;
    ++j;
    if (at(j) == '-' && is_file(at(j + 1))) {
      f2 = at(j + 1);
      j += 2;
    }
    if (!is_rank(at(j))) return 0;
    char r1 = at(j), r2 = r1;
    ++j;
    if (at(j) == '-' && is_rank(at(j + 1))) {
      r2 = at(j + 1);
      j += 2;
    }
    if (f2 < f1 || r2 < r1) return 0;
    for (char f = f1; f <= f2; ++f)
      for (char r = r1; r <= r2; ++r) squares |= uint64_t{1} << ((r - '1') * 8 + (f - 'a'));
    return j - i;
  }

  // Length of a square part (range or [range,range...]) at offset i, 0 if none.
  size_t square_part(size_t i, uint64_t& squares) const {
    squares = 0;
    if (at(i) != '[') return square_range(i, squares);
    size_t j = i + 1;
    while (true) {
      size_t n = square_range(j, squares);
      if (!n) return 0;
      j += n;
      if (at(j) == ',') { ++j; continue; }
      if (at(j) == ']') return j + 1 - i;
      return 0;
    }
  }

  // Piece part at offset 0 (letter, [letters] or glyph run): length, bits and ASCII spelling.
  size_t piece_part(uint16_t& bits, std::string& spelling, bool& any_piece) const {
    bits = 0;
    any_piece = false;
    if (uint16_t b = letter_bits(at(0))) {
      bits = b;
      spelling = std::string(1, at(0));
      return 1;
    }
    if (at(0) == '[') {
      size_t j = 1;
      std::string letters;
      while (letter_bits(at(j))) letters += at(j++);
      if (letters.empty() || at(j) != ']') return 0;
      for (char c : letters) bits |= letter_bits(c);
      spelling = "[" + letters + "]";
      any_piece = letters == "Aa" || letters == "aA";
      return j + 1;
    }
    size_t j = 0;
    std::string letters;
    while (true) {
      const PieceGlyph* hit = nullptr;
      for (const PieceGlyph& g : kPieceGlyphs)
        if (src_.substr(pos_ + j, std::strlen(g.utf8)) == g.utf8) hit = &g;
      if (!hit) break;
      bits |= hit->bits;
      letters += hit->ascii == '*' ? std::string("Aa") : std::string(1, hit->ascii);
      if (hit->ascii == '*') any_piece = true;
      j += std::strlen(hit->utf8);
    }
    if (!j) return 0;
    if (letters.size() > 1 || letters == "Aa") {
      spelling = "[" + letters + "]";
      any_piece = letters == "Aa";
    } else {
      spelling = letters;
    }
    return j;
  }

  // True when a designator may end at offset n: CQL 6.2 reads `Ke1]`, `A]`, `Rg1-12` as words (an identifier),
  // not as a designator followed by something: only a delimiter or a capture `[x]` may follow one.
  bool ends_designator(size_t n) const {
    if (is_word_char(at(n)) || at(n) == ']') return false;
    return at(n) != '[' || src_.substr(pos_ + n, 3) == "[x]";
  }

  // Tries a piece designator or declaration; returns true and fills t on success.
  bool lex_designator(Token& t) {
    uint64_t sq = 0;
    // square-only designator: e4, a-h7, [a1,h8]
    if (size_t n = square_part(0, sq)) {
      if (ends_designator(n)) {
        t.kind = TokenKind::Piece;
        t.pieces = 0;
        t.squares = sq;
        t.spelling = std::string(src_.substr(pos_, n));
        advance(n);
        return true;
      }
    }
    uint16_t bits;
    std::string spelling;
    bool any_piece;
    size_t n = piece_part(bits, spelling, any_piece);
    if (!n) return false;
    bool glyph = static_cast<unsigned char>(at(0)) >= 0x80;
    size_t m = square_part(n, sq);
    if (m && (glyph || ends_designator(n + m))) {
      t.kind = TokenKind::Piece;
      t.pieces = bits;
      t.squares = sq;
      t.spelling = spelling + std::string(src_.substr(pos_ + n, m));
      advance(n + m);
      return true;
    }
    if (any_piece && is_id_start(at(n))) {  // [Aa]x / ◭x: piece variable declaration
      size_t k = n;
      while (is_word_char(at(k))) ++k;
      t.kind = TokenKind::PieceDecl;
      t.text = std::string(src_.substr(pos_ + n, k - n));
      advance(k);
      return true;
    }
    if (!glyph && !ends_designator(n)) return false;
    if (glyph && is_word_char(at(n))) return false;
    // a glyph right before `]` is an invalid character for CQL 6.2 unless the `[` opens a list of glyphs
    // (`[♔♕]` is one; `D[#△]` is refused, repro-2 R14b)
    if (glyph && at(n) == ']' && (pos_ == 0 || src_[pos_ - 1] != '[')) return false;
    t.kind = TokenKind::Piece;
    t.pieces = bits;
    t.squares = ~uint64_t{0};
    t.spelling = spelling;
    advance(n);
    return true;
  }

  void lex_one(Token& t) {
    char c = at(0);
    if (starts("///")) {
      t.kind = TokenKind::Special;
      t.text = "///";
      advance(3);
      return;
    }
    for (const char* r : {"1/2-1/2", "1-0", "0-1"}) {
      size_t n = std::strlen(r);
      if (starts(r) && !is_word_char(at(n))) {
        t.kind = TokenKind::Result;
        t.text = r;
        advance(n);
        return;
      }
    }
    if (c >= '0' && c <= '9') {
      int64_t v = 0;
      while (at(0) >= '0' && at(0) <= '9') {
        v = v * 10 + (at(0) - '0');
        if (v > INT32_MAX) throw CqlError("integer too large", t.line, t.column);  // CQL 6.2: a 32-bit int
        advance(1);
      }
      t.kind = TokenKind::Int;
      t.number = v;
      return;
    }
    if (c == '{' && lex_brace_rep(t)) return;
    if ((starts("o-o-o") && !is_word_char(at(5))) || (starts("o-o") && !is_word_char(at(3)) && at(3) != '-')) {
      t.kind = TokenKind::Keyword;
      t.text = starts("o-o-o") ? "o-o-o" : "o-o";
      advance(t.text.size());
      return;
    }
    if (static_cast<unsigned char>(c) >= 0x80) {
      for (const Glyph& g : kGlyphs)
        if (starts(g.utf8)) {
          t.kind = g.kind;
          t.text = g.ascii;
          advance(std::strlen(g.utf8));
          return;
        }
      if (lex_designator(t)) return;
      if (starts("\u2015")) fail("the dash needs two horizontal bars: \u2015\u2015");
      if (starts("\xEF\xBB\xBF")) fail("byte order mark inside the file");
      fail("Invalid character: " + utf8_char());
    }
    if (c == '\\') {
      char d = at(1);
      const char* v = d == '"' ? "\"" : d == '\\' ? "\\" : d == 'n' ? "\n" : d == 'r' ? "\r" : d == 't' ? "\t" : nullptr;
      if (v) {
        t.kind = TokenKind::String;
        t.text = v;
        ++t.column;  // CQL 6.2 places an escape token at its second character
        advance(2);
        return;
      }
      if ((d >= '0' && d <= '9') || (d == '-' && at(2) == '1')) {
        t.kind = TokenKind::GroupRef;
        if (d == '-') {
          t.number = 1;
          t.number2 = 1;
          advance(3);
          return;
        }
        advance(1);
        int64_t v2 = 0;
        while (at(0) >= '0' && at(0) <= '9' && v2 < 1000) { v2 = v2 * 10 + (at(0) - '0'); advance(1); }
        t.number = v2;
        return;
      }
      fail("Invalid escape sequence after '\\'");
    }
    if (lex_designator(t)) return;
    if (starts("[x]")) {
      t.kind = TokenKind::Dash;
      t.text = "[x]";
      advance(3);
      return;
    }
    if (starts("--") && at(2) != '>') {
      t.kind = TokenKind::Dash;
      t.text = "--";
      advance(2);
      return;
    }
    for (const char* s : kSymbols)
      if (starts(s)) {
        t.kind = TokenKind::Special;
        t.text = s;
        advance(std::strlen(s));
        return;
      }
    if (std::strchr(kSingle, c) && c) {
      t.kind = TokenKind::Special;
      t.text = std::string(1, c);
      advance(1);
      return;
    }
    if (c == '"') {
      int l = line_, col = col_;
      advance(1);
      std::string v;
      while (pos_ < src_.size() && at(0) != '"') {
        if (at(0) == '\n') throw CqlError("unterminated string (strings end on their line)", l, col);
        v += at(0);
        advance(1);
      }
      if (pos_ >= src_.size()) throw CqlError("unterminated string", l, col);
      advance(1);
      t.kind = TokenKind::String;
      t.text = std::move(v);
      return;
    }
    if (is_id_start(c)) {
      size_t n = 0;
      while (is_word_char(at(n))) ++n;
      std::string word(src_.substr(pos_, n));
      advance(n);
      if (word == "input" || word == "output") {
        lex_file_name(t, word);
        return;
      }
      t.kind = is_reserved_word(word) ? TokenKind::Keyword : TokenKind::Identifier;
      t.text = std::move(word);
      return;
    }
    fail(std::string("Invalid character: '") + c + "'");
  }

  std::string utf8_char() const {
    size_t n = 1;
    while (n < 4 && (static_cast<unsigned char>(at(n)) & 0xC0) == 0x80) ++n;
    return std::string(src_.substr(pos_, n));
  }

  // {m,n} {m} {m,} {,n} with no spaces.
  bool lex_brace_rep(Token& t) {
    size_t j = 1;
    auto digits = [&](int64_t& v) {
      size_t s = j;
      v = 0;
      while (at(j) >= '0' && at(j) <= '9' && j - s < 7) v = v * 10 + (at(j++) - '0');
      return j > s;
    };
    int64_t lo = 0, hi = -1;
    bool has_lo = digits(lo);
    if (at(j) == '}') {
      if (!has_lo) return false;
      hi = lo;
    } else if (at(j) == ',') {
      ++j;
      bool has_hi = digits(hi);
      if (!has_lo && !has_hi) return false;
      if (!has_lo) lo = 0;
      if (!has_hi) hi = -1;
      if (at(j) != '}') return false;
    } else {
      return false;
    }
    if (hi >= 0 && hi < lo) fail("repetition {m,n} with n < m");
    if (lo > 100000 || hi > 100000) fail("repetition count above 100000");
    t.kind = TokenKind::BraceRep;
    t.number = lo;
    t.number2 = hi;
    advance(j + 1);
    return true;
  }

  void lex_file_name(Token& t, const std::string& word) {
    t.kind = TokenKind::FileName;
    t.text = word;
    while (at(0) == ' ' || at(0) == '\t') advance(1);
    std::string name;
    if (at(0) == '"') {
      advance(1);
      while (pos_ < src_.size() && at(0) != '"' && at(0) != '\n') { name += at(0); advance(1); }
      if (at(0) != '"') fail("unterminated file name");
      advance(1);
    } else {
      while (pos_ < src_.size() && !std::strchr(" \t\r\n)", at(0))) { name += at(0); advance(1); }
    }
    if (name.empty()) fail("expected a file name after '" + word + "'");
    t.file = std::move(name);
  }
};

}  // namespace

bool is_reserved_word(std::string_view word) {
  for (const char* r : kReserved)
    if (word == r) return true;
  return false;
}

namespace {

// True when the open delimiters end in a path followed by nothing but '(' (CQL 6.2's "top level of path").
bool at_path_top_level(const std::vector<const Token*>& open) {
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if ((*it)->is_keyword("path")) return true;
    if (!(*it)->is_special("(")) return false;
  }
  return false;
}

bool is_left_delimiter(const Token& t) { return t.is_special("(") || t.is_special("{") || t.is_special("["); }
bool is_right_delimiter(const Token& t) { return t.is_special(")") || t.is_special("}") || t.is_special("]"); }

// CQL 6.2 decides the path wildcards while lexing (lexer-cleanup.cpp, fixPath): from `path` until an empty line or
// the end of a delimiter opened before it, a * + {*} {+} outside any { or [ is a path wildcard, never arithmetic nor
// a wildcard of a `line` written there (random-differential B26-1: `path ... line --> {...}* --> ...` is refused),
// and `legal` or `countmoves` there is refused (its dash would read as a constituent).
void mark_path_wildcards(std::vector<Token>& tokens) {
  std::vector<const Token*> open;  // the paths and the left delimiters not closed yet
  auto close_paths = [&] {
    while (!open.empty() && open.back()->is_keyword("path")) open.pop_back();
  };
  for (Token& t : tokens) {
    if (t.blank_line_before) close_paths();
    const bool top = at_path_top_level(open);
    if (top && (t.is_special("*") || t.is_special("+") || t.is_special("{*}") || t.is_special("{+}"))) {
      t.path_wildcard = true;
      continue;
    }
    if (top && (t.is_keyword("legal") || t.is_keyword("countmoves")))
      throw CqlError("The " + t.text + " keyword is not allowed at the top level of path here because the following "
                     "-- might be misinterpreted as a constituent and not a filter. Put braces around the "
                     "appropriate filter, e.g. {" + t.text + " --}", t.line, t.column);
    if (is_left_delimiter(t)) {
      open.push_back(&t);
    } else if (is_right_delimiter(t)) {
      close_paths();
      if (!open.empty()) open.pop_back();  // a mismatch is the parser's to report
    } else if (t.is_keyword("path")) {
      open.push_back(&t);
    }
  }
}

}  // namespace

std::vector<Token> lex(std::string_view source) {
  std::vector<Token> tokens = Lexer(source).run();
  mark_path_wildcards(tokens);
  return tokens;
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::End: return "end of file";
    case TokenKind::Int: return std::to_string(t.number);
    case TokenKind::String: return "\"" + t.text + "\"";
    case TokenKind::Piece: return t.spelling;
    case TokenKind::PieceDecl: return "[Aa]" + t.text;
    case TokenKind::BraceRep: return "{" + std::to_string(t.number) + "," + (t.number2 < 0 ? "" : std::to_string(t.number2)) + "}";
    case TokenKind::GroupRef: return t.number2 ? "\\-1" : "\\" + std::to_string(t.number);
    case TokenKind::FileName: return t.text + " " + t.file;
    default: return t.text;
  }
}

}  // namespace cqlindex::cql
