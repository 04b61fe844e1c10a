// Game boundaries: offsets, lengths, line numbers, and the rules for games without markers.
#include <catch2/catch.hpp>

#include "engine/pgn/game_splitter.h"
#include "pgn_test_util.h"

using namespace cqlindex;

namespace {

std::vector<pgn::GameSpan> split(std::string_view text) {
  std::vector<pgn::GameSpan> spans;
  pgn::GameSplitter s(text);
  pgn::GameSpan span;
  while (s.next(span)) spans.push_back(span);
  return spans;
}

std::vector<std::string> pieces(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& s : split(text)) out.emplace_back(text.substr(s.offset, s.length));
  return out;
}

}  // namespace

TEST_CASE("splitter: empty and blank texts hold no game", "[pgn][splitter]") {
  CHECK(split("").empty());
  CHECK(split("\n\r\n  \t\n").empty());
  CHECK(split("\xEF\xBB\xBF").empty());
}

TEST_CASE("splitter: games are contiguous, numbered, with their first line", "[pgn][splitter]") {
  std::string text = "\n[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n[Site \"s\"]\n\n1. d4 0-1\n";
  auto spans = split(text);
  REQUIRE(spans.size() == 2);
  CHECK(spans[0].number == 1);
  CHECK(spans[0].offset == 1);
  CHECK(spans[0].first_line == 2);
  CHECK(spans[1].number == 2);
  CHECK(spans[1].offset == spans[0].offset + spans[0].length);
  CHECK(spans[1].offset + spans[1].length == text.size());
  CHECK(spans[1].first_line == 6);
  CHECK(text.substr(spans[1].offset, 6) == "[Event");
}

TEST_CASE("splitter: a byte-order mark is skipped and columns start after it", "[pgn][splitter]") {
  auto spans = split("\xEF\xBB\xBF[Event \"a\"]\n*\n");
  REQUIRE(spans.size() == 1);
  CHECK(spans[0].offset == 3);
  CHECK(spans[0].first_col == 1);
}

TEST_CASE("splitter: CR-only and CRLF line ends count lines", "[pgn][splitter]") {
  for (std::string eol : {"\n", "\r\n", "\r"}) {
    std::string text = "[Event \"a\"]" + eol + eol + "1. e4 *" + eol + eol + "[Event \"b\"]" + eol + "*" + eol;
    auto spans = split(text);
    REQUIRE(spans.size() == 2);
    CHECK(spans[1].first_line == 5);
  }
}

TEST_CASE("splitter: games without tags split after their marker, even mid-line", "[pgn][splitter]") {
  auto p = pieces("1. e4 e5 1-0 1. d4 d5 0-1\n1. c4 *");
  REQUIRE(p.size() == 3);
  CHECK(p[0] == "1. e4 e5 1-0 ");
  CHECK(p[1] == "1. d4 d5 0-1\n");
  CHECK(p[2] == "1. c4 *");
  auto spans = split("1. e4 e5 1-0 1. d4 d5 0-1\n1. c4 *");
  CHECK(spans[1].first_col == 14);
}

TEST_CASE("splitter: castling on a line does not hide its marker", "[pgn][splitter]") {
  // Lines with O-O and O-O-O stay on the splitter's fast path; a marker after them on the line still ends the game.
  auto p = pieces("1. e4 e5 2. O-O O-O-O 1-0 1. d4 *");
  REQUIRE(p.size() == 2);
  CHECK(p[0] == "1. e4 e5 2. O-O O-O-O 1-0 ");
  CHECK(p[1] == "1. d4 *");
  p = pieces("[Event \"a\"]\n1. O-O O-O 0-1\n[Event \"b\"]\n1. O-O-O O-O\n2. a3 1/2-1/2 {O-O} 1. e4 *\n");
  REQUIRE(p.size() == 3);
  CHECK(p[0] == "[Event \"a\"]\n1. O-O O-O 0-1\n");
  CHECK(p[1] == "[Event \"b\"]\n1. O-O-O O-O\n2. a3 1/2-1/2 {O-O} ");
  CHECK(p[2] == "1. e4 *\n");
  // games without tags, the marker on a line of their movetext after the first: the markers alone split them
  p = pieces("1. e4 e5\n2. O-O O-O 1-0\n1. d4 d5\n2. O-O-O O-O-O 0-1\n1. c4 *");
  REQUIRE(p.size() == 3);
  CHECK(p[0] == "1. e4 e5\n2. O-O O-O 1-0\n");
  CHECK(p[1] == "1. d4 d5\n2. O-O-O O-O-O 0-1\n");
  p = pieces("1. O-O O-O\n2. a3 O-O-O\n[Event \"b\"]\n*");  // no marker: the Event line ends the game
  REQUIRE(p.size() == 2);
  CHECK(p[0] == "1. O-O O-O\n2. a3 O-O-O\n");
}

TEST_CASE("splitter: a comment after the marker stays with its game", "[pgn][splitter]") {
  auto p = pieces("[Event \"a\"]\n1. e4 1-0 {final note}\n[Event \"b\"]\n*");
  REQUIRE(p.size() == 2);
  CHECK(p[0] == "[Event \"a\"]\n1. e4 1-0 {final note}\n");
}

TEST_CASE("splitter: a game without marker ends at the next Event tag line", "[pgn][splitter]") {
  auto p = pieces("[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. d4\n");
  REQUIRE(p.size() == 2);
  CHECK(p[1].rfind("[Event \"b\"]", 0) == 0);
}

TEST_CASE("splitter: a stray tag after movetext stays in its game (kokopu)", "[pgn][splitter]") {
  auto p = pieces("[Event \"a\"]\n\n1. e4 e5\n\n[Site \"here\"]\n\n2. Nf3 *\n\n[Event \"b\"]\n*");
  REQUIRE(p.size() == 2);
  CHECK(p[0].find("2. Nf3 *") != std::string::npos);
}

TEST_CASE("splitter: blank lines inside the tag section do not split", "[pgn][splitter]") {
  CHECK(split("[Event \"a\"]\n\n[Date \"x\"]\n\n1. e4 *").size() == 1);
}

TEST_CASE("splitter: markers inside comments, tag values and semicolon comments do not count", "[pgn][splitter]") {
  CHECK(split("[Event \"a\"]\n[Result \"1-0\"]\n1. e4 {1-0 *} e5 ; 0-1\n2. Nf3 (2. d4 {*}) 1/2-1/2").size() == 1);
  CHECK(split("[Event \"1-0\"]\n1. e4 *").size() == 1);
}

TEST_CASE("splitter: multi-line comments, even with tag-like lines", "[pgn][splitter]") {
  CHECK(split("[Event \"a\"]\n1. e4 {a long\n[%clk 0:01:00]\n[Site \"x\"] 1-0\n} e5 *\n[Event \"b\"]\n*").size() == 2);
}

TEST_CASE("splitter: an unterminated comment ends at a line starting a new game", "[pgn][splitter]") {
  auto p = pieces("[Event \"a\"]\n\n1. e4 {never closed\n\n*\n\n[Event \"b\"]\n\n1. d4 *\n");
  REQUIRE(p.size() == 2);
  CHECK(p[1] == "[Event \"b\"]\n\n1. d4 *\n");
}

TEST_CASE("splitter: a tag value broken over two lines stays in the tag section", "[pgn][splitter]") {
  // As kokopu reads it: the [Result] line after the broken value belongs to the same game.
  CHECK(split("[Event \"a\"]\n[Site \"Somewhere\non the Earth\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n*")
            .size() == 2);
  // A value left open before a blank line does not swallow what follows.
  CHECK(split("[Event \"a\"]\n[Site \"\n\n*\n\n[Event \"b\"]\n\n1. e4 *").size() == 2);
}

TEST_CASE("splitter: percent escape lines are skipped", "[pgn][splitter]") {
  CHECK(split("%header 1-0\n[Event \"a\"]\n%x *\n1. e4 *").size() == 1);
}

TEST_CASE("splitter: several tags on one line, then movetext on the same line", "[pgn][splitter]") {
  auto p = pieces("[Event \"a\"][Result \"*\"] *\n[Event \"b\"] 1. e4 *\n[Result \"1-0\"] e4 1-0");
  REQUIRE(p.size() == 3);
  CHECK(p[0] == "[Event \"a\"][Result \"*\"] *\n");
}

TEST_CASE("splitter: pathological inputs finish", "[pgn][splitter]") {
  std::string backslashes(1 << 20, '\\');
  CHECK(split("[Event \"x\"]\n1. e4 {" + backslashes).size() == 1);
  CHECK(split("[Site \"" + backslashes).size() == 1);
  CHECK(split(std::string(1 << 20, '(')).size() == 1);
  CHECK(split(std::string(1 << 16, '[')).size() == 1);
  std::string nul("\0\0\0", 3);
  CHECK(split(nul).size() == 1);
}

TEST_CASE("splitter: comments before the first tag belong to the game that follows", "[pgn][splitter]") {
  auto p = pieces("{ collection header }\n; more\n\n[Event \"a\"]\n1. e4 *\n\n{ note on b }\n[Event \"b\"]\n*");
  REQUIRE(p.size() == 2);
  CHECK(p[0].rfind("{ collection header }", 0) == 0);
  // After a marker, a comment stays with the game before it.
  CHECK(p[1] == "[Event \"b\"]\n*");
}

TEST_CASE("splitter: a second Event tag in one tag section starts a new game", "[pgn][splitter]") {
  auto p = pieces("[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n[Site \"y\"]\n\n1. e4 *\n");
  REQUIRE(p.size() == 2);
  CHECK(p[0] == "[Event \"a\"]\n[Site \"x\"]\n\n");
  // One Event tag after a blank line in the tag section (ChessBase) is still one game.
  CHECK(split("[Event \"a\"]\n\n[Site \"x\"]\n\n1. e4 *").size() == 1);
}
