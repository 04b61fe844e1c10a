// Unit tests of the writer's rules (the golden tests in writer_roundtrip_test / writer_cql_mode_test check them
// on CQL's real files; these pin each rule down on its own).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/pgn/game_parser.h"
#include "engine/pgn/line_wrapper.h"
#include "engine/pgn/writer.h"

using namespace cqlindex;
using pgn::LineWrapper;

namespace {

// `game_text` parsed and written as CQL writes it, with `added` comments.
std::string cql_output(std::string_view game_text, const std::vector<pgn::AddedComment>& added = {}) {
  pgn::Game g;
  pgn::parse_game(game_text, pgn::GameLocation{}, g);
  REQUIRE_FALSE(g.has_errors());
  std::string out;
  pgn::write_game(g, added, pgn::WriteOptions{}, out);
  return out;
}

}  // namespace

TEST_CASE("line wrapper: a word that would reach column 80 starts a new line", "[pgn][writer]") {
  std::string out;
  LineWrapper w(out);
  w.word(std::string(77, 'a'));
  w.word("bc");  // 77 + 2 = 79 < 80: stays
  w.word("d");   // 79 + 1 = 80: wraps
  w.flush();
  CHECK(out == std::string(77, 'a') + "bc\nd");
}

TEST_CASE("line wrapper: a space at column 79 becomes the line break", "[pgn][writer]") {
  std::string out;
  LineWrapper w(out);
  w.word(std::string(78, 'a'));
  w.space();  // 78 + 1 = 79: a space
  w.word("b");
  w.flush();
  CHECK(out == std::string(78, 'a') + " \nb");
  out.clear();
  LineWrapper v(out);
  v.word(std::string(79, 'a'));
  v.space();  // 79 + 1 = 80: the break instead of the space
  v.word("b");
  v.flush();
  CHECK(out == std::string(79, 'a') + "\nb");
}

TEST_CASE("line wrapper: strings split at spaces and keep their line breaks", "[pgn][writer]") {
  std::string out;
  LineWrapper w(out);
  w.string("a  b\nc");  // two spaces: word, space, empty word, space
  w.flush();
  CHECK(out == "a  b\nc");
  out.clear();
  LineWrapper v(out);
  v.word(std::string(78, 'x'));
  v.string(" y");  // empty word, then the space at 78 -> 79, then "y" wraps
  v.flush();
  CHECK(out == std::string(78, 'x') + " \ny");
}

TEST_CASE("line wrapper: a word longer than a line gets its own line, after an empty one at column 0",
          "[pgn][writer]") {
  std::string out;
  LineWrapper w(out);
  w.word(std::string(85, 'a'));
  w.flush();
  CHECK(out == "\n" + std::string(85, 'a'));
  out.clear();
  LineWrapper v(out);
  v.string_rewrapped("x\n" + std::string(85, 'a'));  // text read back keeps its break: no extra empty line
  v.flush();
  CHECK(out == "x\n" + std::string(85, 'a'));
}

TEST_CASE("line wrapper: line() never wraps and 0xC3 and its follower become one byte", "[pgn][writer]") {
  std::string out;
  LineWrapper w(out);
  w.word(std::string(79, 'a'));
  w.line("}");
  w.flush();
  CHECK(out == std::string(79, 'a') + "}\n");
  out.clear();
  LineWrapper v(out);
  v.word("Caf\xC3\xA9");  // UTF-8 e-acute -> Latin-1 0xE9, as CQL's buffer does
  v.flush();
  CHECK(out == "Caf\xE9");
  CHECK(v.column() == 4);
}

TEST_CASE("comment text as CQL reads it: whitespace runs made one space, trimmed", "[pgn][writer]") {
  CHECK(pgn::cql_comment_text("\r\nBoth  players\thave missed\r\n") == "Both players have missed");
  CHECK(pgn::cql_comment_text("   ") == "");
  CHECK(pgn::cql_comment_text("L\xE9k\xF3") == "L\xE9k\xF3");
}

TEST_CASE("merge_cql_comment: additions joined by spaces after the original, then cleaned", "[pgn][writer]") {
  using V = std::vector<std::string_view>;
  CHECK(*pgn::merge_cql_comment(std::nullopt, V{"Game number 239"}) == "Game number 239");
  CHECK(*pgn::merge_cql_comment("correction: Lamare=M 1918.", V{"Game number 248"}) ==
        "correction: Lamare=M 1918. Game number 248");
  CHECK(*pgn::merge_cql_comment("Start line that ends at move 9(btm) CQL", V{"Start line that ends at move 9(btm)", "CQL"}) ==
        "Start line that ends at move 9(btm) CQL Start line that ends at move 9(btm) CQL");
  // Once CQL appends, the whole comment loses braces and bytes >= 127 (its golden files show "L?k?").
  CHECK(*pgn::merge_cql_comment("L\xE9k\xF3 had a poor start.", V{"CQL"}) == "L?k? had a poor start. CQL");
  CHECK(*pgn::merge_cql_comment(std::nullopt, V{"a {b}"}) == "a _b_");
  // Nothing appended: the original stays as it was (Latin-1 included), or there is still no comment.
  CHECK(*pgn::merge_cql_comment("L\xE9k\xF3", V{}) == "L\xE9k\xF3");
  CHECK_FALSE(pgn::merge_cql_comment(std::nullopt, V{""}).has_value());
}

TEST_CASE("merge_cql_comment: the 4500-byte limits", "[pgn][writer]") {
  using V = std::vector<std::string_view>;
  bool ignored = true;
  std::string original(4400, 'o');
  std::optional<std::string> merged = pgn::merge_cql_comment(original, V{std::string(200, 'a')}, &ignored);
  CHECK_FALSE(ignored);
  CHECK(*merged == original + "[cql truncate]...");
  merged = pgn::merge_cql_comment(original, V{std::string(500, 'a')}, &ignored);  // past 4800: dropped
  CHECK(*merged == original);
  merged = pgn::merge_cql_comment(std::string(4496, 'o'), V{"abcd"}, &ignored);  // 4496 + " abcd" > 4500
  CHECK(ignored);
  CHECK(*merged == std::string(4496, 'o'));
}

TEST_CASE("write_game: tag order, blank lines, game comment, result", "[pgn][writer]") {
  std::string out = cql_output(
      "[Event \"E\"]\n[Site \"S\"]\n[Date \"1922.??.??\"]\n[Round \"?\"]\n[White \"Dawson,T.\"]\n[Black \"B\"]\n"
      "[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[PlyCount \"1\"]\n"
      "[EventDate \"1922.??.??\"]\n\n1. O-O 1-0\n",
      {{0, "Game number 239"}, {1, "CQL"}});
  CHECK(out ==
        "[Event \"E\"]\n[Site \"S\"]\n[Date \"1922.??.??\"]\n[Round \"?\"]\n[White \"Dawson, T\"]\n[Black \"B\"]\n"
        "[Result \"1-0\"]\n[EventDate \"1922.??.??\"]\n[SetUp \"1\"]\n[PlyCount \"1\"]\n"
        "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n{Game number 239}\n1.O-O {CQL} 1-0\n\n\n");
}

TEST_CASE("write_game: move numbers after comments and variations, NAGs before added comments",
          "[pgn][writer]") {
  std::string out = cql_output(
      "[Event \"E\"]\n\n{intro\r\n text} 1. e4 e5 $1 {a} {b} 2. Nf3 (2. f4 exf4 ; dropped\n) (2. d4) 2... Nc6 "
      "({pre} 2... d6) 3. Bb5! *\n",
      {{0, "Game number 5"}, {2, "CQL"}, {9, "end"}});  // nodes in file order: 9 = 3.Bb5
  CHECK(out ==
        "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
        "[Result \"*\"]\n\n{intro text Game number 5}\n"
        "1.e4 e5 $1 {b CQL} 2.Nf3 ( 2.f4 exf4 ) ( 2.d4 ) 2...Nc6 ( {pre} 2...d6 ) 3.Bb5 \n$1 {end} *\n\n\n");  // 78 + " " fits, "$1" wraps
}

TEST_CASE("write_game: CQL's Result is the movetext's marker", "[pgn][writer]") {
  std::string out = cql_output("[Event \"E\"]\n[Result \"1-0\"]\n\n1. e4 *\n");
  CHECK(out.find("[Result \"*\"]") != std::string::npos);
  CHECK(out.substr(out.size() - 7) == "e4 *\n\n\n");
}

TEST_CASE("line wrapper: text longer than what it holds at a time comes out whole, in order", "[pgn][writer]") {
  std::string out = "before|";
  std::string expected = out;
  {
    LineWrapper w(out);
    w.set_wrap_column(LineWrapper::kNoWrap);
    for (int i = 0; i < 3000; ++i) {  // 3,000 words and spaces: several times the 4,096 bytes held
      const std::string word = "w" + std::to_string(i);
      w.word(word);
      w.space();
      expected += word + " ";
    }
    const std::string longer(5000, 'z');  // one word longer than the held text
    w.word(longer);
    w.line("}");
    expected += longer + "}\n";
  }  // flushed on destruction
  CHECK(out == expected);
}

TEST_CASE("line wrapper: ascii_word lays out words of every length from 0 to 40 as word() does", "[pgn][writer]") {
  // ascii_word copies short words in fixed-size moves: every length, at every fill of the held text
  std::string by_word, by_ascii;
  {
    LineWrapper a(by_word), b(by_ascii);
    for (int round = 0; round < 200; ++round)
      for (size_t n = 0; n <= 40; ++n) {
        std::string w;
        for (size_t i = 0; i < n; ++i) w += char('a' + (i + size_t(round)) % 26);
        a.word(w);
        b.ascii_word(w);
        if (n % 3 == 0) {
          a.space();
          b.space();
        }
      }
  }
  CHECK(by_ascii == by_word);
  CHECK(by_word.size() > 4 * 4096);
  CHECK(by_word.find("\nabcdefghijklmnopqrstuvwxyzabcdefghijklmn") != std::string::npos);
}

TEST_CASE("cql_comments: texts stay valid when the comments are moved, normalised or not", "[pgn][writer]") {
  pgn::Game g;
  pgn::parse_game("[Event \"E\"]\n\n{intro} 1. e4 {kept as it is} e5 {two  spaces\r\nand a break } 2. Nf3 *\n",
                  pgn::GameLocation{}, g);
  REQUIRE_FALSE(g.has_errors());
  std::optional<pgn::GameComments> held;
  {
    pgn::GameComments c = pgn::cql_comments(g, pgn::CommentText::AsCqlReads);
    held = std::move(c);  // as GameTree keeps them
  }
  REQUIRE(held->game);
  CHECK(*held->game == "intro");
  REQUIRE(held->after.size() == 4);
  CHECK(held->after[1] == std::optional<std::string_view>("kept as it is"));
  CHECK(held->after[2] == std::optional<std::string_view>("two spaces and a break"));
  CHECK_FALSE(held->after[3]);
  pgn::GameComments verbatim = pgn::cql_comments(g, pgn::CommentText::Verbatim);
  CHECK(verbatim.after[2] == std::optional<std::string_view>("two  spaces\r\nand a break "));
}

TEST_CASE("write_game: additions merged in place, out of order, or needing CQL's cleaning", "[pgn][writer]") {
  const std::string game = "[Event \"E\"]\n\n1. e4 {was} e5 2. Nf3 *\n";
  const std::string tags =
      "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
      "[Result \"*\"]\n\n";
  // by node, as the evaluator gives them: the plain one taken as it is, the others merged
  CHECK(cql_output(game, {{0, "Game number 1"}, {1, "CQL"}, {2, "a {b}"}, {3, "x"}, {3, "y"}}) ==
        tags + "{Game number 1}\n1.e4 {was CQL} 1...e5 {a _b_} 2.Nf3 {x y} *\n\n\n");
  // the same out of node order: the same text
  CHECK(cql_output(game, {{3, "x"}, {2, "a {b}"}, {0, "Game number 1"}, {3, "y"}, {1, "CQL"}}) ==
        tags + "{Game number 1}\n1.e4 {was CQL} 1...e5 {a _b_} 2.Nf3 {x y} *\n\n\n");
  // an addition past the game's nodes is dropped; an empty one adds nothing
  CHECK(cql_output(game, {{2, ""}, {9, "gone"}}) == tags + "1.e4 {was} 1...e5 2.Nf3 *\n\n\n");
}

TEST_CASE("line wrapper: append_unwrapped writes what string() writes with no wrap column", "[pgn][writer]") {
  // the tag lines: 0xC3 folded with the next byte of its word, with 0 at a word's end (before a space, a line
  // break, or the text's end), and a 0xC3 ending a tag value folds the quote after it
  for (std::string_view s : {"[White \"Caf\xC3\xA9\"]\n", "[White \"Caf\xC3\"]\n", "[Event \"a\xC3 b\"]\n",
                             "\xC3", "\xC3\xC3\xC3", "x\xC3\ny", "  two  spaces \xC3\xA9 ", "", "plain text"}) {
    std::string wrapped, direct = "kept|";
    {
      LineWrapper w(wrapped);
      w.set_wrap_column(LineWrapper::kNoWrap);
      w.string(s);
    }
    LineWrapper::append_unwrapped(direct, s);
    INFO(s);
    CHECK(direct == "kept|" + wrapped);
  }
  std::string out;
  LineWrapper::append_unwrapped(out, "[White \"Caf\xC3\"]\n");
  CHECK(out == "[White \"Caf\x62]\n");  // '"' + 64
}
