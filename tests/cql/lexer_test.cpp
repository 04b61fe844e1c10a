// The lexer: designators, dashes, repetitions, strings, comments, Unicode, positions in code points.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "engine/cql/lexer.h"

using namespace cqlindex::cql;

namespace {

std::vector<Token> toks(const std::string& s) {
  auto v = lex(s);
  v.pop_back();  // End
  return v;
}

uint64_t sq(const char* name) { return uint64_t{1} << ((name[1] - '1') * 8 + (name[0] - 'a')); }

}  // namespace

TEST_CASE("lexer: piece designators and square specs", "[cql][lexer]") {
  auto t = toks("Ke1 a-h7 c-f3-6 [a1,h8] [QR] _ A a [Aa]x Pa-h2 Rook _A k[a-h]5");
  REQUIRE(t.size() >= 11);
  CHECK(t[0].kind == TokenKind::Piece);
  CHECK(t[0].pieces == 1);
  CHECK(t[0].squares == sq("e1"));
  CHECK(t[1].kind == TokenKind::Piece);
  CHECK(t[1].pieces == 0);
  CHECK(__builtin_popcountll(t[1].squares) == 8);
  CHECK(__builtin_popcountll(t[2].squares) == 16);
  CHECK(t[3].squares == (sq("a1") | sq("h8")));
  CHECK(t[4].pieces == ((1 << 1) | (1 << 2)));
  CHECK(t[5].pieces == piece_bits::kEmpty);
  CHECK(t[6].pieces == piece_bits::kWhite);
  CHECK(t[7].pieces == piece_bits::kBlack);
  CHECK(t[8].kind == TokenKind::PieceDecl);
  CHECK(t[8].text == "x");
  CHECK(t[9].squares == (sq("a2") | sq("b2") | sq("c2") | sq("d2") | sq("e2") | sq("f2") | sq("g2") | sq("h2")));
  CHECK(t[10].kind == TokenKind::Identifier);  // Rook
  CHECK(t[11].kind == TokenKind::Identifier);  // _A
  CHECK(t[12].kind == TokenKind::Identifier);  // k followed by [a-h]: not a designator (as CQL 6.2)
  CHECK(t[13].is_special("["));
}

TEST_CASE("lexer: symbols, dashes, repetitions, results", "[cql][lexer]") {
  auto t = toks("--> <-- -- [x] -> <- {2,5} {3} {,4} {2,} {*} {+} {1 5} 1-0 0-1 1/2-1/2 [<=] =? o-o o-o-o ~~");
  CHECK(t[0].is_special("-->"));
  CHECK(t[1].is_special("<--"));
  CHECK(t[2].is(TokenKind::Dash, "--"));
  CHECK(t[3].is(TokenKind::Dash, "[x]"));
  CHECK(t[4].is_special("->"));
  CHECK(t[5].is_special("<-"));
  CHECK((t[6].kind == TokenKind::BraceRep && t[6].number == 2 && t[6].number2 == 5));
  CHECK((t[7].number == 3 && t[7].number2 == 3));
  CHECK((t[8].number == 0 && t[8].number2 == 4));
  CHECK((t[9].number == 2 && t[9].number2 == -1));
  CHECK(t[10].is_special("{*}"));
  CHECK(t[11].is_special("{+}"));
  CHECK(t[12].is_special("{"));  // {1 5} with a space is a compound, not a repetition
  CHECK(t[13].kind == TokenKind::Int);
  CHECK(t[15].is_special("}"));
  CHECK(t[16].is(TokenKind::Result, "1-0"));
  CHECK(t[17].is(TokenKind::Result, "0-1"));
  CHECK(t[18].is(TokenKind::Result, "1/2-1/2"));
  CHECK(t[19].is_special("[<=]"));
  CHECK(t[20].is_special("=?"));
  CHECK(t[21].is_keyword("o-o"));
  CHECK(t[22].is_keyword("o-o-o"));
  CHECK(t[23].is_special("~~"));
}

TEST_CASE("lexer: comments, strings and escapes", "[cql][lexer]") {
  auto t = toks("check // comment\n; also a comment\n/* block\n */ mate ///\"c\" \"a\"\\\"\"b\" //// not the filter");
  REQUIRE(t.size() == 5);
  CHECK(t[0].is_keyword("check"));
  CHECK(t[1].is_keyword("mate"));
  CHECK(t[1].line == 4);
  CHECK(t[2].is_special("///"));
  CHECK(t[3].kind == TokenKind::String);
  CHECK(t[3].text == "c");
  CHECK(t[4].text == "a\"b");  // adjacent strings and escape tokens concatenate
  auto s = toks("\"a\"\\\"\"b\"");
  REQUIRE(s.size() == 1);
  CHECK(s[0].text == "a\"b");
}

TEST_CASE("lexer: Unicode glyphs, runs of piece glyphs, columns in code points", "[cql][lexer][unicode]") {
  auto t = toks("\u2656\u2657\u2658 \u2659a-h2 \u25EDT\u220A\u2656 \u2015\u2015 \u00D7 \u22A2 \u25CE \u2192 \u2264 \u25A6");
  CHECK(t[0].pieces == ((1 << 2) | (1 << 3) | (1 << 4)));
  CHECK(t[0].spelling == "[RBN]");
  CHECK(t[1].pieces == (1 << 5));
  CHECK(t[1].column == 5);
  CHECK(t[2].kind == TokenKind::PieceDecl);
  CHECK(t[2].text == "T");
  CHECK(t[3].is_special("[element]"));
  CHECK(t[5].is(TokenKind::Dash, "--"));
  CHECK(t[6].is(TokenKind::Dash, "[x]"));
  CHECK(t[7].is_keyword("path"));
  CHECK(t[8].is_keyword("focus"));
  CHECK(t[9].is_special("->"));
  CHECK(t[10].is_special("<="));
  CHECK(t[11].is_special("."));
  CHECK(t[11].column == 29);
  CHECK_THROWS_AS(lex("cql() \u2015 x"), CqlError);
  CHECK_THROWS_AS(lex("cql() \xff"), CqlError);
  CHECK_THROWS_AS(lex(""), CqlError);
  CHECK(lex("\xEF\xBB\xBF" "cql()")[0].is_keyword("cql"));
}

TEST_CASE("lexer: an empty line is recorded (it ends a path)", "[cql][lexer]") {
  auto t = toks("a\n\nb\n// x\nc\n  \n d");
  CHECK_FALSE(t[0].blank_line_before);
  CHECK(t[1].blank_line_before);
  CHECK_FALSE(t[2].blank_line_before);
  CHECK(t[3].blank_line_before);
}
