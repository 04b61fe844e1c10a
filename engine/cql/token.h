#pragma once
// Tokens of CQL 6.2 (ASCII and Unicode forms are normalised to one spelling).
#include <cstdint>
#include <string>

namespace cqlindex::cql {

enum class TokenKind : uint8_t {
  End,        // end of input
  Int,        // non-negative integer, value in `number`
  String,     // quoted string or escape token (\" \\ \n \r \t), value in `text`
  Result,     // 1-0 0-1 1/2-1/2
  Keyword,    // reserved word, text is its ASCII spelling
  Identifier, // variable / function name
  Piece,      // piece designator: `pieces` mask + `squares`
  PieceDecl,  // [Aa]x or ◭x: text = variable name
  Special,    // operator or punctuation, ASCII spelling (e.g. "->", "[<=]", "{*}", "///")
  Dash,       // -- or ―― (text "--") or [x] / × (text "[x]")
  BraceRep,   // {m,n} repetition: number = min, number2 = max (-1 = unbounded)
  GroupRef,   // \1 .. \99 (number) or \-1 (GroupIndex: number2 = 1)
  FileName,   // `input NAME` / `output NAME`: text = keyword, file = name
};

// Piece kinds of a designator: bit i set for kind i of "KQRBNPkqrbnp_" (bit 12 = empty square).
namespace piece_bits {
constexpr uint16_t kWhite = 0x3f, kBlack = 0xfc0, kEmpty = 0x1000, kAny = 0x1fff;
}

struct Token {
  TokenKind kind = TokenKind::End;
  int line = 0, column = 0;   // 1-based start (code points)
  uint32_t offset = 0, end = 0;  // byte range in the source
  bool space_before = true;   // whitespace or comment between this token and the previous one
  bool blank_line_before = false;  // an empty line precedes it (ends a path, as in CQL 6.2)
  bool path_wildcard = false;      // a * + {*} {+} at a path's top level: only a path wildcard (mark_path_wildcards)
  std::string text;
  std::string file;
  int64_t number = 0, number2 = 0;
  uint64_t squares = ~uint64_t{0};  // Piece: squares (all 64 when no square part)
  uint16_t pieces = 0;              // Piece: piece_bits; 0 = square-only designator
  std::string spelling;             // Piece: original ASCII spelling (e.g. "[RN]e1-4")

  bool is(TokenKind k, const char* t) const { return kind == k && text == t; }
  bool is_keyword(const char* t) const { return is(TokenKind::Keyword, t); }
  bool is_special(const char* t) const { return is(TokenKind::Special, t); }
  // True if a range's number may stand right before this token: not before an operator-like special token
  // (`4 . check` is no range; CQL 6.2's reading), but before a parenthesis, a brace or a line arrow.
  bool may_follow_range() const {
    return kind != TokenKind::Special || is_special("(") || is_special("{") || is_special("-->") ||
           is_special("<--") || is_special(")") || is_special("}");
  }
};

// Printable description of a token for error messages.
std::string describe(const Token& t);

}  // namespace cqlindex::cql
