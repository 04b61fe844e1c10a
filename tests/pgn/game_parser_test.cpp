// The game parser on small hand-written games: tree shape, annotations, tags, starts, errors.
#include <catch2/catch.hpp>

#include "engine/pgn/game_parser.h"
#include "pgn_test_util.h"

using namespace cqlindex;
using pgn::CommentPlace;
using pgn::GameStatus;
using pgn::kNoNode;
using pgn::Severity;

namespace {

pgn::Game parse(std::string_view text, pgn::ParseOptions options = {}) {
  pgn::Game g;
  pgn::parse_game(text, pgn::GameLocation{}, g, options);
  return g;
}

std::string san_of(const pgn::Game& g, pgn::NodeIndex n) {
  // Position before node n: replay from the root along parents.
  std::vector<pgn::NodeIndex> path;
  for (pgn::NodeIndex i = g.nodes[n].parent; i != 0 && i != kNoNode; i = g.nodes[i].parent) path.push_back(i);
  chess::Position p = g.start;
  for (auto it = path.rbegin(); it != path.rend(); ++it) p.do_move(g.nodes[*it].move);
  return chess::to_san(p, g.nodes[n].move);
}

// The tree in PGN-like form: "e4 e5 (c5 Nf3 (c3) d6) Nf3".
std::string tree(const pgn::Game& g, pgn::NodeIndex from = 0) {
  std::string s;
  pgn::NodeIndex n = g.nodes[from].first_child;
  while (n != kNoNode) {
    if (!s.empty()) s += ' ';
    s += san_of(g, n);
    for (pgn::NodeIndex v = g.nodes[n].next_sibling; v != kNoNode; v = g.nodes[v].next_sibling) {
      std::string inner = tree(g, v);
      s += " (" + san_of(g, v) + (inner.empty() ? "" : " " + inner) + ")";
    }
    n = g.nodes[n].first_child;
  }
  return s;
}

}  // namespace

TEST_CASE("parser: tags, mainline, result and move positions", "[pgn][parser]") {
  auto g = parse("[Event \"Test\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n");
  REQUIRE(g.status == GameStatus::Ok);
  REQUIRE(g.tags.size() == 2);
  CHECK(g.tags[0].name == "Event");
  CHECK(g.tags[0].value == "Test");
  CHECK(g.tag("White") == std::optional<std::string_view>("A"));
  CHECK_FALSE(g.tag("Black"));
  CHECK(pgntest::mainline_san(g) == "e4 e5 Nf3 Nc6");
  CHECK(g.mainline_plies() == 4);
  CHECK(g.result == pgn::Result::WhiteWins);
  CHECK(g.result_token == "1-0");
  const pgn::Node& e4 = g.nodes[g.root().first_child];
  CHECK(e4.line == 4);
  CHECK(e4.col == 4);
  CHECK(e4.ply == 1);
  const pgn::Node& nc6 = g.nodes[g.nodes[g.nodes[e4.first_child].first_child].first_child];
  CHECK(nc6.line == 4);
  CHECK(nc6.col == 17);
  CHECK(nc6.ply == 4);
}

TEST_CASE("parser: every game-termination marker", "[pgn][parser]") {
  CHECK(parse("1. e4 0-1").result == pgn::Result::BlackWins);
  CHECK(parse("1. e4 1/2-1/2").result == pgn::Result::Draw);
  CHECK(parse("1. e4 *").result == pgn::Result::Unknown);
  auto missing = parse("1. e4 e5");
  CHECK(missing.result == pgn::Result::Missing);
  CHECK(missing.result_token.empty());
  CHECK(missing.status == GameStatus::Ok);
  CHECK(missing.mainline_plies() == 2);
}

TEST_CASE("parser: nested variations form the tree", "[pgn][parser]") {
  auto g = parse("1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) (1... e6) 2. Nf3 *");
  REQUIRE(g.status == GameStatus::Ok);
  CHECK(tree(g) == "e4 e5 (c5 Nf3 (c3 d5) d6) (e6) Nf3");
  CHECK(g.mainline_plies() == 3);
  // Parent links and plies agree.
  for (size_t i = 1; i < g.nodes.size(); ++i) CHECK(g.nodes[i].ply == g.nodes[g.nodes[i].parent].ply + 1);
}

TEST_CASE("parser: variation after the first move and several in a row", "[pgn][parser]") {
  auto g = parse("1. e4 (1. d4 d5) (1. c4) 1... e5 *");
  REQUIRE(g.status == GameStatus::Ok);
  CHECK(tree(g) == "e4 (d4 d5) (c4) e5");
}

TEST_CASE("parser: comments before, after, between variations, and semicolon comments", "[pgn][parser]") {
  auto g = parse("{start} 1. e4 {after e4} (1. d4 {in d4}) {after var} 1... e5 ; rest of line\n"
                 "2. Nf3 ( {before c3} 2. c3 ) *");
  REQUIRE(g.status == GameStatus::Ok);
  REQUIRE(g.comments.size() == 6);
  const pgn::NodeIndex e4 = g.root().first_child;
  const pgn::NodeIndex d4 = g.nodes[e4].next_sibling;
  const pgn::NodeIndex e5 = g.nodes[e4].first_child;
  const pgn::NodeIndex nf3 = g.nodes[e5].first_child;
  const pgn::NodeIndex c3 = g.nodes[nf3].next_sibling;

  auto c_e4 = g.comments_of(g.nodes[e4]);
  REQUIRE(c_e4.size() == 3);
  CHECK(c_e4[0].text == "start");
  CHECK(c_e4[0].place == CommentPlace::Before);
  CHECK(c_e4[1].text == "after e4");
  CHECK(c_e4[1].place == CommentPlace::After);
  CHECK(c_e4[1].variations_before == 0);
  CHECK(c_e4[2].text == "after var");
  CHECK(c_e4[2].variations_before == 1);

  auto c_d4 = g.comments_of(g.nodes[d4]);
  REQUIRE(c_d4.size() == 1);
  CHECK(c_d4[0].text == "in d4");

  auto c_e5 = g.comments_of(g.nodes[e5]);
  REQUIRE(c_e5.size() == 1);
  CHECK(c_e5[0].kind == pgn::CommentKind::Semicolon);
  CHECK(c_e5[0].text == " rest of line");

  auto c_c3 = g.comments_of(g.nodes[c3]);
  REQUIRE(c_c3.size() == 1);
  CHECK(c_c3[0].text == "before c3");
  CHECK(c_c3[0].place == CommentPlace::Before);
}

TEST_CASE("parser: multi-line comments keep their bytes and line numbers move on", "[pgn][parser]") {
  auto g = parse("1. e4 {one\ntwo\r\nthree} e5 *");
  auto cs = g.comments_of(g.nodes[g.root().first_child]);
  REQUIRE(cs.size() == 1);
  CHECK(cs[0].text == "one\ntwo\r\nthree");
  CHECK(g.nodes[g.nodes[g.root().first_child].first_child].line == 3);
}

TEST_CASE("parser: a comment-only game keeps its comment on the root", "[pgn][parser]") {
  auto g = parse("[Event \"x\"]\n\n{just a comment} *");
  REQUIRE(g.comments.size() == 1);
  CHECK(g.root().comment_count == 1);
  CHECK(g.comments[0].place == CommentPlace::After);
  CHECK(g.mainline_plies() == 0);
}

TEST_CASE("parser: NAGs and move suffixes", "[pgn][parser]") {
  auto g = parse("1. e4! e5?? 2. Nf3 $14 Nc6!? 3. Bb5?! a6!! 4. Ba4? $1 $24 +- *");
  REQUIRE(g.status == GameStatus::Ok);
  std::vector<std::vector<int>> expected = {{1}, {4}, {14}, {5}, {6}, {3}, {2, 1, 24, 18}};
  pgn::NodeIndex n = g.root().first_child;
  for (const auto& want : expected) {
    REQUIRE(n != kNoNode);
    std::vector<int> got;
    for (const pgn::Nag& x : g.nags_of(g.nodes[n])) got.push_back(x.value);
    CHECK(got == want);
    n = g.nodes[n].first_child;
  }
}

TEST_CASE("parser: a NAG at the start of a variation belongs before its first move", "[pgn][parser]") {
  auto g = parse("1. e4 e5 ($42 1... c5) *");
  const pgn::NodeIndex c5 = g.nodes[g.nodes[g.root().first_child].first_child].next_sibling;
  auto nags = g.nags_of(g.nodes[c5]);
  REQUIRE(nags.size() == 1);
  CHECK(nags[0].value == 42);
  CHECK(nags[0].before_move);
}

TEST_CASE("parser: a NAG above 255 is a warning, not a stop", "[pgn][parser]") {
  auto g = parse("1. e4 $300 e5 *");
  CHECK(g.status == GameStatus::Ok);
  REQUIRE(g.errors.size() == 1);
  CHECK(g.errors[0].severity == Severity::Warning);
  CHECK(g.mainline_plies() == 2);
}

TEST_CASE("parser: move numbers in every form", "[pgn][parser]") {
  auto g = parse("1.e4 1...e5 2. Nf3 2... Nc6 3\xE2\x80\xA6 Bb5 3 ... a6 4 Ba4 *");
  CHECK(g.status == GameStatus::Ok);
  CHECK(pgntest::mainline_san(g) == "e4 e5 Nf3 Nc6 Bb5 a6 Ba4");
}

TEST_CASE("parser: null moves -- and Z0, refused when in check", "[pgn][parser]") {
  auto g = parse("1. e4 -- 2. d4 Z0 (2... e5 3. -- ) 3. c4 *");
  REQUIRE(g.status == GameStatus::Ok);
  auto moves = g.mainline();
  REQUIRE(moves.size() == 5);
  CHECK(moves[1].is_null());
  CHECK(moves[3].is_null());
  CHECK(tree(g) == "e4 -- d4 -- (e5 --) c4");

  auto bad = parse("1. e4 d5 2. Bb5+ -- 3. Nf3 *");
  CHECK(bad.status == GameStatus::Error);
  REQUIRE(bad.errors.size() == 1);
  CHECK(bad.errors[0].col == 18);
  CHECK(bad.mainline_plies() == 3);
}

TEST_CASE("parser: en passant marker and UCI moves", "[pgn][parser]") {
  auto g = parse("1. e4 a6 2. e5 d5 3. exd6 e.p. c6 *");
  CHECK(g.status == GameStatus::Ok);
  CHECK(pgntest::mainline_san(g) == "e4 a6 e5 d5 exd6 c6");
  auto u = parse("g1f3 c7c5 e2e4 b8c6 *");
  CHECK(u.status == GameStatus::Ok);
  CHECK(pgntest::mainline_san(u) == "Nf3 c5 e4 Nc6");
}

TEST_CASE("parser: FEN start with black to move", "[pgn][parser]") {
  auto g = parse("[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... c5 2. Nf3 *");
  REQUIRE(g.status == GameStatus::Ok);
  CHECK(g.custom_start);
  CHECK(g.start.side_to_move() == chess::BLACK);
  std::string fen;
  CHECK(pgntest::mainline_san(g, &fen) == "c5 Nf3");
  CHECK(fen == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
}

TEST_CASE("parser: a bad FEN tag is an error at the tag", "[pgn][parser]") {
  auto g = parse("[Event \"x\"]\n[FEN \"not a fen\"]\n\n1. e4 *");
  CHECK(g.status == GameStatus::Error);
  REQUIRE(g.errors.size() == 1);
  CHECK(g.errors[0].line == 2);
  CHECK(g.errors[0].col == 1);
  CHECK(g.mainline_plies() == 0);
}

TEST_CASE("parser: escaped tag values keep their raw bytes", "[pgn][parser]") {
  auto g = parse("[Event \"a \\\"b\\\" c \\\\ d\"]\n[Site \"caf\xE9\"]\n*");
  REQUIRE(g.tags.size() == 2);
  CHECK(g.tags[0].raw_value == "a \\\"b\\\" c \\\\ d");
  CHECK(g.tags[0].value == "a \"b\" c \\ d");
  CHECK(g.tags[1].value == "caf\xE9");  // Latin-1 byte untouched
}

TEST_CASE("parser: several tags on one line and movetext right after", "[pgn][parser]") {
  auto g = parse("[Event \"E\"][White \"W\"] [Black \"B\"] 1. e4 *");
  CHECK(g.status == GameStatus::Ok);
  REQUIRE(g.tags.size() == 3);
  CHECK(g.tags[2].value == "B");
  CHECK(g.mainline_plies() == 1);
}

TEST_CASE("parser: unescaped quotes inside a tag value are repaired with a warning", "[pgn][parser]") {
  auto g = parse("[White \"\"Socrates Expert\"\"]\n[Black \"Alexander Ivanov\"]\n\n1. e4 *");
  CHECK(g.status == GameStatus::Ok);
  CHECK(g.tag("White") == std::optional<std::string_view>("\"Socrates Expert\""));
  CHECK(g.tag("Black") == std::optional<std::string_view>("Alexander Ivanov"));
  REQUIRE(g.errors.size() == 1);
  CHECK(g.errors[0].severity == Severity::Warning);
  CHECK(g.errors[0].line == 1);
  CHECK(g.errors[0].col == 9);
  CHECK(g.mainline_plies() == 1);
}

TEST_CASE("parser: broken tag pairs stop the game with an error at the tag", "[pgn][parser]") {
  struct Case {
    const char* text;
    uint32_t col;
  };
  for (const Case& c : {Case{"[\"Somewhere\"]\n*", 2}, Case{"[Site]\n*", 6}, Case{"[Site \"open\n*", 7},
                        Case{"[Site \"x\" junk]\n*", 11}, Case{"[Site \"x\"\n*", 10}}) {
    CAPTURE(c.text);
    auto g = parse(c.text);
    CHECK(g.status == GameStatus::Error);
    REQUIRE(g.errors.size() == 1);
    CHECK(g.errors[0].line == 1);
    CHECK(g.errors[0].col == c.col);
  }
}

TEST_CASE("parser: an illegal mainline move keeps the game up to the last legal move", "[pgn][parser]") {
  auto g = parse("[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nf6\n3. Ke3 Nc6 *", {});
  CHECK(g.status == GameStatus::Error);
  CHECK(g.mainline_plies() == 4);
  REQUIRE(g.errors.size() == 1);
  CHECK(g.errors[0].severity == Severity::Error);
  CHECK(g.errors[0].line == 4);
  CHECK(g.errors[0].col == 4);
  CHECK(g.errors[0].message == "illegal move 'Ke3' at 3.");
}

TEST_CASE("parser: unrecognised text in the movetext says at which move it stands", "[pgn][parser]") {
  auto g = parse("[Event \"x\"]\n\n1. e4 e5 2. Nf3 & Nc6 *", {});
  CHECK(g.status == GameStatus::Error);
  CHECK(g.mainline_plies() == 3);
  REQUIRE(g.errors.size() == 1);
  CHECK(g.errors[0].col == 17);
  CHECK(g.errors[0].message == "unrecognized text '&' at 2...");
  auto v = parse("1. e4 (1. d4 ^ d5) e5 *", {});
  REQUIRE(v.errors.size() == 1);
  CHECK(v.errors[0].message == "unrecognized text '^' at 1... in a variation");
}

TEST_CASE("parser: an error inside a variation drops only the rest of that variation", "[pgn][parser]") {
  auto g = parse("1. e4 e5 (1... c5 2. Qxf7 (2. d4) Nc6) 2. Nf3 Nc6 *");
  CHECK(g.status == GameStatus::Error);
  REQUIRE(g.errors.size() == 1);
  CHECK(g.errors[0].col == 22);
  CHECK(tree(g) == "e4 e5 (c5) Nf3 Nc6");
  CHECK(g.result == pgn::Result::Unknown);
}

TEST_CASE("parser: syntax errors", "[pgn][parser]") {
  struct Case {
    const char* text;
    uint32_t col;
    uint32_t plies;
  };
  for (const Case& c : {Case{"1. e4 ) e5 *", 7, 1},         // ')' outside a variation
                        Case{"( 1. e4 ) *", 1, 0},            // '(' before any move
                        Case{"1. e4 e5 (1... c5 *", 19, 2},   // game ends inside a variation
                        Case{"1. e4 e5 (1... c5", 18, 2},     // text ends inside a variation
                        Case{"1. e4 {open comment", 7, 1},    // unterminated comment
                        Case{"1. e4 [Site \"x\"] e5 *", 7, 1},  // tag inside movetext
                        Case{"1. e4 pawn e5 *", 7, 1},        // not a move
                        Case{"1. e4 & e5 *", 7, 1},           // stray character
                        Case{"1. e4 1-0 e5", 11, 1}}) {       // moves after the marker
    CAPTURE(c.text);
    auto g = parse(c.text);
    CHECK(g.status == GameStatus::Error);
    REQUIRE(g.errors.size() == 1);
    CHECK(g.errors[0].col == c.col);
    CHECK(g.mainline_plies() == c.plies);
  }
}

TEST_CASE("parser: line numbers are right for LF, CRLF and CR-only", "[pgn][parser]") {
  for (std::string eol : {"\n", "\r\n", "\r"}) {
    std::string text = "[Event \"x\"]" + eol + eol + "1. e4 e5" + eol + "2. Nf3 {a" + eol + "b} Nc6" + eol + "3. Kf3 *";
    auto g = parse(text);
    CAPTURE(eol.size());
    REQUIRE(g.errors.size() == 1);
    CHECK(g.errors[0].line == 6);
    CHECK(g.errors[0].col == 4);
    CHECK(g.mainline_plies() == 4);
    CHECK(g.nodes[4].line == 5);
  }
}

TEST_CASE("parser: % escape lines are ignored", "[pgn][parser]") {
  auto g = parse("[Event \"x\"]\n%private data 1. e4\n1. d4\n%e4 e5\nd5 *");
  CHECK(g.status == GameStatus::Ok);
  CHECK(pgntest::mainline_san(g) == "d4 d5");
}

TEST_CASE("parser: variant games are skipped, Chess960 is read", "[pgn][parser]") {
  auto zh = parse("[Event \"x\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. N@f3 *");
  CHECK(zh.status == GameStatus::SkippedVariant);
  CHECK(zh.variant == "Crazyhouse");
  CHECK(zh.mainline_plies() == 0);
  REQUIRE(zh.errors.size() == 1);
  CHECK(zh.errors[0].severity == Severity::Skipped);
  CHECK(zh.errors[0].line == 2);

  // Shredder-FEN castling: black O-O-O (king e8->c8, rook c8->d8), white O-O-O (king e1->c1, rook c1->d1).
  auto c960 = parse("[Variant \"chess 960\"]\n[FEN \"nnrbkrbq/pppppppp/8/8/8/8/PPPPPPPP/NNRBKRBQ w FCfc - 0 1\"]\n\n"
                    "1. d4 g6 2. Nb3 f5 3. N1d2 Nc6 4. e3 e5 5. c3 Be7 6. h4 O-O-O 7. h5 g5 8. Bc2 Nb6 9. O-O-O *");
  CHECK(c960.status == GameStatus::Ok);
  CHECK(c960.chess960);
  CHECK(c960.mainline_plies() == 17);
  std::string fen;
  pgntest::mainline_san(c960, &fen);
  CHECK(fen == "2kr1rbq/ppppb2p/1nn5/4pppP/3P4/1NP1P3/PPBN1PP1/2KR1RBQ b - - 3 9");  // checked by hand
  for (const char* v : {"chess 960", "Fischerandom", "chess-960", "Standard", "From Position"})
    CHECK(parse("[Variant \"" + std::string(v) + "\"]\n1. e4 *").status == GameStatus::Ok);
}

TEST_CASE("parser: crazyhouse drops without a Variant tag are errors, not misreads", "[pgn][parser]") {
  auto g = parse("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 *");
  CHECK(g.status == GameStatus::Error);
  CHECK(g.mainline_plies() == 6);
}

TEST_CASE("parser: mainline-only mode skips variations, comments and NAGs", "[pgn][parser]") {
  const char* text = "{c} 1. e4! (1. d4 {x} d5 (1... Nf6)) 1... e5 $1 {y} 2. Nf3 *";
  auto full = parse(text);
  pgn::ParseOptions fast;
  fast.mainline_only = true;
  auto main = parse(text, fast);
  CHECK(main.status == GameStatus::Ok);
  CHECK(pgntest::mainline_san(main) == pgntest::mainline_san(full));
  CHECK(main.nodes.size() == 4);
  CHECK(main.comments.empty());
  CHECK(main.nags.empty());
  CHECK(full.nodes.size() == 7);
}

TEST_CASE("parser: a reused Game is cleared between games", "[pgn][parser]") {
  pgn::Game g;
  pgn::parse_game("[Event \"a\"]\n1. e4 {c} (1. d4) $1 *", {}, g);
  pgn::parse_game("1. d4 *", {}, g);
  CHECK(g.tags.empty());
  CHECK(g.comments.empty());
  CHECK(g.nags.empty());
  CHECK(g.nodes.size() == 2);
  CHECK(g.errors.empty());
}

TEST_CASE("parser: absurdly deep variation nesting is refused, not followed", "[pgn][parser]") {
  std::string text = "1. e4 ";
  for (int i = 0; i < 5000; ++i) text += "( 1. d4 ";
  auto g = parse(text);
  CHECK(g.status == pgn::GameStatus::Error);
  REQUIRE(g.errors.size() == 1);
  CHECK(g.errors[0].message.find("nested") != std::string::npos);
  CHECK(g.mainline_plies() == 1);
}

TEST_CASE("parser: comments before the tags go before the first move", "[pgn][parser]") {
  auto g = parse("{ header }\n[Event \"a\"]\n\n1. e4 *");
  CHECK(g.status == GameStatus::Ok);
  REQUIRE(g.tags.size() == 1);
  auto cs = g.comments_of(g.nodes[g.root().first_child]);
  REQUIRE(cs.size() == 1);
  CHECK(cs[0].text == " header ");
  CHECK(cs[0].place == CommentPlace::Before);
  // With a broken tag after it, the comment stays on the root.
  auto bad = parse("{ header }\n[Event \"a\n\n1. e4 *");
  CHECK(bad.status == GameStatus::Error);
  CHECK_FALSE(bad.start_known);
  REQUIRE(bad.comments.size() == 1);
  CHECK(bad.comments[0].node == 0);
  CHECK(bad.root().comment_count == 1);
}

TEST_CASE("parser: a backslash right before the closing quote is read literally, with a warning", "[pgn][parser]") {
  auto g = parse("[Annotator \"C:\\\"]\n[Site \"a \\\"b\\\" c\\\"]\n\n1. e4 *");
  CHECK(g.status == GameStatus::Ok);
  CHECK(g.tag("Annotator") == std::optional<std::string_view>("C:\\"));
  CHECK(g.tag("Site") == std::optional<std::string_view>("a \"b\" c\\"));
  REQUIRE(g.errors.size() == 2);
  CHECK(g.errors[0].severity == Severity::Warning);
  CHECK(g.errors[1].line == 2);
  CHECK(g.mainline_plies() == 1);
}

TEST_CASE("parser: inputs built to trigger quadratic work are read in one pass", "[pgn][parser]") {
  // 50,000 alternatives to one move (appending siblings), 50,000 tags on one line, a word of 200,000
  // move-number-like pieces: each would take minutes if any step rescanned what it had seen.
  std::string many = "1. e4 ";
  for (int i = 0; i < 50000; ++i) many += "(1. d4) ";
  auto g = parse(many + "*");
  CHECK(g.status == GameStatus::Ok);
  CHECK(g.nodes.size() == 50002);

  std::string tags;
  for (int i = 0; i < 50000; ++i) tags += "[T \"v\"]";
  auto t = parse(tags + "\n1. e4 *");
  CHECK(t.tags.size() == 50000);
  CHECK(t.mainline_plies() == 1);

  std::string word;
  for (int i = 0; i < 200000; ++i) word += "1.";
  auto w = parse(word + " e4 *");
  CHECK(w.mainline_plies() == 1);
}
