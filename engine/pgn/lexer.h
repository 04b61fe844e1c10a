// PGN movetext tokens with their line:col, read straight from the buffer (no allocation).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace cqlindex::pgn {

// Character classes, one table lookup per byte.
namespace charclass {
constexpr uint8_t kSpace = 1;   // blank or line break
constexpr uint8_t kDelim = 2;   // ends a word: blanks and { } ( ) ; [ ] "
constexpr uint8_t kSymbol = 4;  // may continue a move token: A-Z a-z 0-9 _ + # = : - / @
constexpr uint8_t kDigit = 8;

struct Table {
  uint8_t v[256] = {};
  constexpr Table() {
    for (unsigned char c : std::string_view(" \t\n\r\f\v")) v[c] |= kSpace | kDelim;
    for (unsigned char c : std::string_view("{}();[]\"")) v[c] |= kDelim;
    for (int c = 'a'; c <= 'z'; ++c) v[c] |= kSymbol;
    for (int c = 'A'; c <= 'Z'; ++c) v[c] |= kSymbol;
    for (int c = '0'; c <= '9'; ++c) v[c] |= kSymbol | kDigit;
    for (unsigned char c : std::string_view("_+#=:-/@")) v[c] |= kSymbol;
  }
};
inline constexpr Table kTable{};
inline bool is_space(char c) { return kTable.v[uint8_t(c)] & kSpace; }
inline bool is_delim(char c) { return kTable.v[uint8_t(c)] & kDelim; }
inline bool is_symbol(char c) { return kTable.v[uint8_t(c)] & kSymbol; }
inline bool is_digit(char c) { return kTable.v[uint8_t(c)] & kDigit; }
}  // namespace charclass

// True if a whole word (a run of non-delimiters) is a game-termination marker.
inline bool is_result_word(std::string_view w) {
  switch (w.size()) {
    case 1: return w[0] == '*';
    case 3: return w[1] == '-' && ((w[0] == '1' && w[2] == '0') || (w[0] == '0' && w[2] == '1'));
    case 7: return w == "1/2-1/2";
    default: return false;
  }
}

enum class TokenKind : uint8_t {
  End,
  Move,          // a move symbol: SAN, UCI, castling, null move (annotation suffixes !/? split off)
  MoveNumber,    // "12." "12..." "12…" (or bare digits)
  Dots,          // "..." or "…" on their own; ignored
  EnPassant,     // "e.p." after a capture; ignored
  Nag,           // "$n" (value) or a suffix "!" "?" "!!" "??" "!?" "?!" (value 1-6)
  Comment,       // "{...}" (text without braces)
  LineComment,   // ";..." up to the line end (text without ';')
  OpenVariation,
  CloseVariation,
  Result,        // "1-0" "0-1" "1/2-1/2" "*"
  TagOpen,       // '[' inside movetext
  Unterminated,  // a '{' comment with no '}'
  Unknown,       // anything else (text = the offending word)
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t value = 0;  // NAG value
};

class Lexer {
 public:
  // `first_line`/`first_col` locate text[0] in the file.
  Lexer(std::string_view text, uint32_t first_line = 1, uint32_t first_col = 1)
      : begin_(text.data()),
        p_(text.data()),
        end_(text.data() + text.size()),
        line_start_(text.data()),
        line_(first_line),
        first_col_shift_(first_col - 1) {}

  // Reads the next token.
  Token next();

  // Skips to the end of the current line (used for ';' comments and '%' escapes); returns the skipped text.
  std::string_view rest_of_line();

  // Current position (for the tag-section parser, which reads lines itself).
  const char* pos() const { return p_; }
  const char* end() const { return end_; }
  uint32_t line() const { return line_; }
  uint32_t col_of(const char* q) const {
    return uint32_t(q - line_start_ + 1) + (line_start_ == begin_ ? first_col_shift_ : 0);
  }
  // Moves to q, which must be ahead of pos() on the same line.
  void set_pos(const char* q) { p_ = q; }
  // Skips blanks and line breaks (and '%' escape lines); returns false at the end of the text.
  bool skip_space();

 private:
  // Counts the line breaks in [a, b) and moves the line start accordingly.
  void count_lines(const char* a, const char* b);

  const char* begin_;
  const char* p_;
  const char* end_;
  const char* line_start_;
  uint32_t line_;
  uint32_t first_col_shift_;  // the text's first line starts at this column - 1 of the file's line
};

inline bool Lexer::skip_space() {
  while (p_ < end_) {
    char c = *p_;
    if (c == '\n') {
      ++line_;
      line_start_ = ++p_;
      if (p_ < end_ && *p_ == '%') rest_of_line();  // escape line
    } else if (c == '\r') {
      ++p_;
      if (p_ < end_ && *p_ == '\n') ++p_;
      ++line_;
      line_start_ = p_;
      if (p_ < end_ && *p_ == '%') rest_of_line();
    } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
      ++p_;
    } else {
      if (c == '%' && p_ == line_start_ && !(line_start_ == begin_ && first_col_shift_)) {
        rest_of_line();
        continue;
      }
      return true;
    }
  }
  return false;
}

inline std::string_view Lexer::rest_of_line() {
  const char* s = p_;
  while (p_ < end_ && *p_ != '\n' && *p_ != '\r') ++p_;
  return {s, size_t(p_ - s)};
}

inline void Lexer::count_lines(const char* a, const char* b) {
  for (const char* q = a; q < b; ++q) {
    if (*q == '\n') {
      ++line_;
      line_start_ = q + 1;
    } else if (*q == '\r') {
      if (q + 1 < b && q[1] == '\n') ++q;
      ++line_;
      line_start_ = q + 1;
    }
  }
}

inline Token Lexer::next() {
  using namespace charclass;
  Token t;
  if (!skip_space()) return t;
  const char* s = p_;
  t.line = line_;
  t.col = col_of(s);
  char c = *s;

  // A game-termination marker is a whole word.
  if (c == '1' || c == '0' || c == '*') {
    // (at most 8 bytes looked at: a marker has 7 at most, and rescanning long words would be quadratic)
    const char* q = s;
    const char* limit = end_ - s > 8 ? s + 8 : end_;
    while (q < limit && !is_delim(*q)) ++q;
    std::string_view w(s, size_t(q - s));
    if ((q == end_ || is_delim(*q)) && is_result_word(w)) {
      p_ = q;
      t.kind = TokenKind::Result;
      t.text = w;
      return t;
    }
  }
  if (is_digit(c)) {
    const char* q = s;
    while (q < end_ && is_digit(*q)) ++q;
    bool dotted = false;
    while (q < end_) {
      if (*q == '.') {
        ++q;
        dotted = true;
      } else if (end_ - q >= 3 && uint8_t(q[0]) == 0xE2 && uint8_t(q[1]) == 0x80 && uint8_t(q[2]) == 0xA6) {
        q += 3;  // "…"
        dotted = true;
      } else {
        break;
      }
    }
    if (dotted || q == end_ || !is_symbol(*q)) {
      p_ = q;
      t.kind = TokenKind::MoveNumber;
      t.text = {s, size_t(q - s)};
      return t;
    }
    // digits followed by symbol characters: "0-0", "0000" ... a move symbol
  }
  if (is_symbol(c)) {
    const char* q = s + 1;
    while (q < end_ && is_symbol(*q)) ++q;
    if (q - s == 1 && c == 'e' && end_ - q >= 3 && q[0] == '.' && q[1] == 'p' && q[2] == '.') {
      p_ = q + 3;
      t.kind = TokenKind::EnPassant;
      t.text = {s, 4};
      return t;
    }
    p_ = q;
    t.kind = TokenKind::Move;
    t.text = {s, size_t(q - s)};
    return t;
  }
  switch (c) {
    case '{': {
      const char* close = static_cast<const char*>(std::memchr(s + 1, '}', size_t(end_ - s - 1)));
      if (!close) {
        t.kind = TokenKind::Unterminated;
        t.text = {s, size_t(end_ - s)};
        count_lines(s, end_);
        p_ = end_;
        return t;
      }
      t.kind = TokenKind::Comment;
      t.text = {s + 1, size_t(close - s - 1)};
      count_lines(s + 1, close);
      p_ = close + 1;
      return t;
    }
    case ';':
      ++p_;
      t.kind = TokenKind::LineComment;
      t.text = rest_of_line();
      return t;
    case '(':
      ++p_;
      t.kind = TokenKind::OpenVariation;
      t.text = {s, 1};
      return t;
    case ')':
      ++p_;
      t.kind = TokenKind::CloseVariation;
      t.text = {s, 1};
      return t;
    case '[':
      ++p_;
      t.kind = TokenKind::TagOpen;
      t.text = {s, 1};
      return t;
    case '$': {
      const char* q = s + 1;
      uint32_t v = 0;
      while (q < end_ && is_digit(*q) && v < 100000) v = v * 10 + uint32_t(*q++ - '0');
      if (q == s + 1) break;
      p_ = q;
      t.kind = TokenKind::Nag;
      t.value = v;
      t.text = {s, size_t(q - s)};
      return t;
    }
    case '!':
    case '?': {
      const char* q = s + 1;
      if (q < end_ && (*q == '!' || *q == '?')) ++q;
      std::string_view w(s, size_t(q - s));
      t.value = w == "!" ? 1 : w == "?" ? 2 : w == "!!" ? 3 : w == "??" ? 4 : w == "!?" ? 5 : 6;
      p_ = q;
      t.kind = TokenKind::Nag;
      t.text = w;
      return t;
    }
    case '.': {
      const char* q = s;
      while (q < end_ && *q == '.') ++q;
      p_ = q;
      t.kind = TokenKind::Dots;
      t.text = {s, size_t(q - s)};
      return t;
    }
    default:
      if (end_ - s >= 3 && uint8_t(s[0]) == 0xE2 && uint8_t(s[1]) == 0x80 && uint8_t(s[2]) == 0xA6) {
        p_ = s + 3;
        t.kind = TokenKind::Dots;
        t.text = {s, 3};
        return t;
      }
      break;
  }
  // Unrecognised: the whole word (at least one byte).
  const char* q = s + 1;
  while (q < end_ && !is_delim(*q)) ++q;
  p_ = q;
  t.kind = TokenKind::Unknown;
  t.text = {s, size_t(q - s)};
  return t;
}

}  // namespace cqlindex::pgn
