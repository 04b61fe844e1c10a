// Real files: every file under pgn-edge-cases/ is read without crash or hang, games are counted, and the files
// that are about something specific are checked for that.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "engine/chess/movegen.h"
#include "pgn_test_util.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

const std::string kEdge = pgntest::data_path("pgn-edge-cases");

// Lines starting with "[Event " (after an optional BOM): an independent count of the games of most files.
size_t event_lines(const std::string& text) {
  size_t n = 0, p = 0;
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) p = 3;
  while (p < text.size()) {
    if (text.compare(p, 7, "[Event ") == 0) ++n;
    size_t e = text.find_first_of("\r\n", p);
    if (e == std::string::npos) break;
    p = e + 1;
  }
  return n;
}

// Files whose games do not all start with an [Event] tag: their game count, and why.
const std::map<std::string, size_t> kGameCounts = {
    {"kokopu/pgns/headers/database.pgn", 16},                // 16 N.txt dumps; one game has no Event tag
    {"kokopu/pgns/mini1/database.pgn", 1},                   // movetext only
    {"kokopu/pgns/misc/database.pgn", 15},                   // 15 N.txt dumps
    {"kokopu/pgns/syntactic-error-1/database.pgn", 21},      // 20 N.err + 1 N.txt
    {"kokopu/pgns/syntactic-error-2/database.pgn", 1},       // one line of prose: one (broken) game
    {"kokopu/pgns/syntactic-error-3/database.pgn", 1},       // one line of garbage: one (broken) game
    {"kokopu/pgns/tag-name-token-collision/database.pgn", 6},  // 6 N.txt dumps
    {"pgn-extract-19.04/infiles/nested-comment.pgn", 1},     // movetext only
    {"pgn-extract-19.04/infiles/test-fuzzydepth.pgn", 4},    // 4 lines of movetext, each ending in *
    {"pgn-extract-19.04/infiles/test-nagcomments.pgn", 1},   // movetext only
    {"pgn-extract-19.04/infiles/test-nobadresults.pgn", 9},  // 9 one-line games [Result "x"] e4 y
    {"pgn-extract-19.04/infiles/test-promotion-in.pgn", 8},  // 8 games with FEN/SetUp tags only
    {"pgn-extract-19.04/outfiles/test-WWepd-out.pgn", 1},    // EPD lines, not PGN: one broken game
    {"pgn-extract-19.04/outfiles/test-notags-out.pgn", 1},   // movetext only
    {"pychess/badpgn.pgn", 1},                               // garbage: one broken game
    {"python-chess/antichess-programfox.pgn", 2},            // Variant tag first, no Seven Tag Roster
};

// Structural invariants of a parsed game.
void check_tree(const pgn::Game& g) {
  REQUIRE(!g.nodes.empty());
  CHECK(g.nodes[0].parent == pgn::kNoNode);
  size_t nag_total = 0, comment_total = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const pgn::Node& n = g.nodes[i];
    if (i) {
      REQUIRE(n.parent < i);
      CHECK(n.ply == g.nodes[n.parent].ply + 1);
    }
    if (n.first_child != pgn::kNoNode) CHECK(g.nodes[n.first_child].parent == i);
    if (n.next_sibling != pgn::kNoNode) CHECK(g.nodes[n.next_sibling].parent == n.parent);
    for (const auto& x : g.nags_of(n)) CHECK(x.node == i);
    for (const auto& c : g.comments_of(n)) CHECK(c.node == i);
    nag_total += n.nag_count;
    comment_total += n.comment_count;
  }
  CHECK(nag_total == g.nags.size());
  CHECK(comment_total == g.comments.size());
}

}  // namespace

TEST_CASE("edge cases: every file is read, in both modes and in parallel, with consistent results",
          "[pgn][edge]") {
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kEdge)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const std::string rel = fs::relative(entry.path(), kEdge).string();
    CAPTURE(rel);
    const std::string text = pgntest::slurp(entry.path().string());

    std::vector<pgntest::Summary> seq;
    {
      pgn::GameReader reader(text);
      pgn::Game g;
      while (reader.next(g)) {
        check_tree(g);
        // Errors point inside the game's own lines.
        for (const auto& e : g.errors) CHECK(e.line >= g.first_line);
        seq.push_back(pgntest::summarize(g));
      }
    }
    pgn::ParseOptions fast;
    fast.mainline_only = true;
    auto main = pgntest::read_all(text, fast);
    REQUIRE(main.size() == seq.size());
    for (size_t i = 0; i < seq.size(); ++i) {
      // Mainline-only mode sees the same mainline (unless an error inside a variation is what it skips).
      CHECK(main[i].mainline_san == seq[i].mainline_san);
      CHECK(main[i].offset == seq[i].offset);
    }

    pgn::ReadOptions opt;
    opt.threads = 2;
    opt.batch_games = 3;
    std::vector<std::string> par;
    std::function<std::string(const pgn::Game&, unsigned)> work = [](const pgn::Game& g, unsigned) {
      return pgntest::mainline_san(g);
    };
    std::function<bool(const pgn::GameInfo&, std::string&&)> deliver = [&](const pgn::GameInfo&, std::string&& s) {
      par.push_back(std::move(s));
      return true;
    };
    pgn::for_each_game<std::string>(text, opt, work, deliver);
    REQUIRE(par.size() == seq.size());
    for (size_t i = 0; i < seq.size(); ++i) CHECK(par[i] == seq[i].mainline_san);

    if (entry.path().extension() == ".pgn") {
      auto known = kGameCounts.find(rel);
      CHECK(seq.size() == (known != kGameCounts.end() ? known->second : event_lines(text)));
    }
  }
  CHECK(files >= 380);
}

TEST_CASE("edge cases: the empty file has no game", "[pgn][edge]") {
  CHECK(pgntest::read_file("pgn-edge-cases/kokopu/pgns/empty/database.pgn").empty());
}

TEST_CASE("edge cases: pychess badpgn.pgn is one broken game, reported", "[pgn][edge]") {
  auto games = pgntest::read_file("pgn-edge-cases/pychess/badpgn.pgn");
  REQUIRE(games.size() == 1);
  CHECK(games[0].status == pgn::GameStatus::Error);
  REQUIRE(games[0].errors.size() == 1);
  CHECK(games[0].errors[0].line == 1);
  CHECK(games[0].plies == 0);
}

TEST_CASE("edge cases: blank line inside the tag section (ChessBase export)", "[pgn][edge]") {
  auto games = pgntest::read_file("pgn-edge-cases/python-chess/chessbase-empty-line.pgn");
  REQUIRE(games.size() == 1);
  CHECK(games[0].errors.empty());
  CHECK(games[0].tags.size() == 11);  // all tag lines, before and after the blank line
  CHECK(games[0].tags[1].first == "Date");
  CHECK(games[0].plies == 134);
  CHECK(games[0].result == "0-1");
}

TEST_CASE("edge cases: UTF-8 BOM and games with empty movetext", "[pgn][edge]") {
  auto games = pgntest::read_file("pgn-edge-cases/python-chess/utf8-bom.pgn");
  REQUIRE(games.size() == 2);
  CHECK(games[0].offset == 3);
  CHECK(games[0].tags[0] == std::make_pair(std::string("Event"), std::string("A")));
  for (const auto& g : games) {
    CHECK(g.errors.empty());
    CHECK(g.plies == 0);
    CHECK(g.result == "*");
  }
  auto kokopu = pgntest::read_file("pgn-edge-cases/kokopu/pgns/bom/database.pgn");
  REQUIRE(kokopu.size() == 1);
  CHECK(kokopu[0].errors.empty());
}

TEST_CASE("edge cases: missing final game-termination marker", "[pgn][edge]") {
  for (const char* f : {"pgn-edge-cases/pychess/a.pgn", "pgn-edge-cases/pychess/b.pgn", "pgn-edge-cases/pychess/c.pgn",
                        "pgn-edge-cases/pychess/d.pgn", "pgn-edge-cases/pychess/e.pgn", "pgn-edge-cases/pychess/f.pgn",
                        "pgn-edge-cases/pychess/black.pgn"}) {
    CAPTURE(f);
    auto games = pgntest::read_file(f);
    REQUIRE(games.size() == 1);
    CHECK(games[0].errors.empty());
    CHECK(games[0].plies > 0);
  }
  auto k = pgntest::read_file("pgn-edge-cases/kokopu/pgns/missing-last-end-of-game/database.pgn");
  REQUIRE(k.size() == 2);
  CHECK(k[1].result.empty());
  CHECK(k[1].errors.empty());
}

TEST_CASE("edge cases: variant games are reported and skipped", "[pgn][edge]") {
  struct Case {
    const char* file;
    size_t games;
  };
  for (const Case& c : {Case{"pgn-edge-cases/pychess/zh.pgn", 83}, Case{"pgn-edge-cases/pychess/atomic.pgn", 10},
                        Case{"pgn-edge-cases/pychess/sittuyin.pgn", 3},
                        Case{"pgn-edge-cases/python-chess/antichess-programfox.pgn", 2},
                        Case{"pgn-edge-cases/python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1},
                        Case{"pgn-edge-cases/python-chess/saturs-jannlee-zh-lichess.pgn", 1},
                        Case{"pgn-edge-cases/kokopu/pgns/horde/database.pgn", 1}}) {
    CAPTURE(c.file);
    auto games = pgntest::read_file(c.file);
    REQUIRE(games.size() == c.games);
    for (const auto& g : games) {
      CHECK(g.status == pgn::GameStatus::SkippedVariant);
      REQUIRE(g.errors.size() == 1);
      CHECK(g.errors[0].severity == pgn::Severity::Skipped);
      CHECK(g.plies == 0);
    }
  }
}

TEST_CASE("edge cases: Chess960 games with Shredder-FEN and KQkq castling", "[pgn][edge]") {
  auto rwch = pgntest::read_file("pgn-edge-cases/pychess/chess960rwch.pgn");
  REQUIRE(rwch.size() == 20);
  for (const auto& g : rwch) CHECK(g.errors.empty());
  auto cute = pgntest::read_file("pgn-edge-cases/python-chess/cutechess-fischerrandom.pgn");
  REQUIRE(cute.size() == 4);
  for (const auto& g : cute) CHECK(g.errors.empty());
}

TEST_CASE("edge cases: null moves in mainline and variations after a FEN start", "[pgn][edge]") {
  const std::string text =
      pgntest::slurp(pgntest::data_path("pgn-edge-cases/pgn-extract-19.04/infiles/test-allownullmoves.pgn"));
  pgn::GameReader reader(text);
  pgn::Game g;
  REQUIRE(reader.next(g));
  CHECK(g.errors.empty());
  auto moves = g.mainline();
  REQUIRE(moves.size() == 5);
  CHECK(moves[1].is_null());
  CHECK(g.start.fullmove_number() == 31);
  std::string fen;
  pgntest::mainline_san(g, &fen);
  CHECK(chess::is_checkmate(*chess::Position::from_fen(fen)));
}

TEST_CASE("edge cases: nested braces are not nested comments (PGN standard)", "[pgn][edge]") {
  // `{ This game contains { a nested comment } which ...}`: the first '}' closes the comment, so "which" is
  // reported (pgn-extract reads it only with --nestedcomments).
  auto games = pgntest::read_file("pgn-edge-cases/pgn-extract-19.04/infiles/nested-comment.pgn");
  REQUIRE(games.size() == 1);
  CHECK(games[0].plies == 1);
  REQUIRE(games[0].errors.size() == 1);
  CHECK(games[0].errors[0].line == 1);
  CHECK(games[0].errors[0].col == 46);
}

TEST_CASE("edge cases: comments around NAGs", "[pgn][edge]") {
  const std::string text =
      pgntest::slurp(pgntest::data_path("pgn-edge-cases/pgn-extract-19.04/infiles/test-nagcomments.pgn"));
  pgn::GameReader reader(text);
  pgn::Game g;
  REQUIRE(reader.next(g));
  const pgn::Node& b3 = g.nodes[g.root().first_child];
  auto nags = g.nags_of(b3);
  REQUIRE(nags.size() == 2);
  CHECK(nags[0].value == 1);
  CHECK(nags[1].value == 2);
  auto cs = g.comments_of(b3);
  REQUIRE(cs.size() == 3);
  CHECK(cs[2].text == " while others think it is not ");
}

TEST_CASE("edge cases: long-algebraic promotions in both cases", "[pgn][edge]") {
  auto games = pgntest::read_file("pgn-edge-cases/pgn-extract-19.04/infiles/test-promotion-in.pgn");
  REQUIRE(games.size() == 8);
  const char expected[] = {'R', 'N', 'B', 'Q', 'R', 'N', 'B', 'Q'};
  for (size_t i = 0; i < 8; ++i) {
    CHECK(games[i].errors.empty());
    CHECK(games[i].plies == 1);
    CHECK(games[i].final_fen.substr(0, 5) == std::string("3") + expected[i] + "3k/");
  }
}

TEST_CASE("edge cases: the game-termination marker wins over the Result tag", "[pgn][edge]") {
  auto games = pgntest::read_file("pgn-edge-cases/pgn-extract-19.04/infiles/test-nobadresults.pgn");
  REQUIRE(games.size() == 9);
  const char* markers[] = {"*", "*", "*", "0-1", "1/2-1/2", "1-0", "1-0", "0-1", "1/2-1/2"};
  for (size_t i = 0; i < 9; ++i) {
    CHECK(games[i].result == markers[i]);
    CHECK(games[i].plies == 1);
    CHECK(games[i].errors.empty());
  }
}

TEST_CASE("edge cases: Latin-1 and UTF-8 copies of a game read to the same moves, bytes kept", "[pgn][edge]") {
  auto latin = pgntest::read_file("pgn-edge-cases/scid/res_gameLatin1.pgn");
  auto utf8 = pgntest::read_file("pgn-edge-cases/scid/res_gameUTF8.pgn");
  auto conv = pgntest::read_file("pgn-edge-cases/scid/res_gameLatin1expected.pgn");
  REQUIRE(latin.size() == 1);
  REQUIRE(utf8.size() == 1);
  REQUIRE(conv.size() == 1);
  CHECK(latin[0].errors.empty());
  CHECK(latin[0].plies == 149);
  CHECK(latin[0].mainline_san == utf8[0].mainline_san);
  CHECK(latin[0].mainline_san == conv[0].mainline_san);
  // "Kramnik, Vladimir" with Latin-1 bytes, exactly as in the file.
  CHECK(latin[0].tags[4].second == "Kr\xE0mn\xECk, Vl\xE3\xDA" "dimir");
}

TEST_CASE("edge cases: CRLF Latin-1 annotated games and CP437 bytes", "[pgn][edge]") {
  auto d = pgntest::read_file("jvanreek-annotated/dortmund1928.train.pgn");
  CHECK(d.size() == 278);
  CHECK(pgntest::count_severity(d, pgn::Severity::Error) == 0);
  auto g = pgntest::read_file("gnuchess-book/book_1.02.small-1005.pgn");
  CHECK(g.size() == 1005);
  CHECK(pgntest::count_severity(g, pgn::Severity::Error) == 0);
}

TEST_CASE("edge cases: UCI movetext and FEN start with black to move", "[pgn][edge]") {
  auto uci = pgntest::read_file("pgn-edge-cases/python-chess/uci-moves.pgn");
  REQUIRE(uci.size() == 1);
  CHECK(uci[0].errors.empty());
  CHECK(uci[0].plies == 113);
  auto fen = pgntest::read_file("pgn-edge-cases/pychess/fenSetup.pgn");
  REQUIRE(fen.size() == 1);
  CHECK(fen[0].errors.empty());
  CHECK(fen[0].plies == 4);
}

TEST_CASE("edge cases: unescaped quotes in mate-in-n tag values are repaired, every game kept",
          "[pgn][edge]") {
  // Lines like [White ""Socrates Expert""]: the value is read up to the last '"' before ']' (keeping the inner
  // quotes) and a warning names the line. Every game of these files is a mate in N: check that too.
  struct Case {
    const char* file;
    size_t games;
    int n;
    std::vector<uint32_t> warning_lines;
  };
  for (const Case& c : {Case{"problems/mate-in-n-from-games/mate_in_2.pgn", 166, 2, {}},
                        Case{"problems/mate-in-n-from-games/mate_in_3.pgn", 375, 3, {2861, 2945, 2946}},
                        Case{"problems/mate-in-n-from-games/mate_in_4.pgn", 373, 4, {2567, 2805, 2806, 2819, 2820}}}) {
    CAPTURE(c.file);
    auto games = pgntest::read_file(c.file);
    REQUIRE(games.size() == c.games);
    std::vector<uint32_t> warnings;
    for (const auto& g : games) {
      for (const auto& e : g.errors) {
        CHECK(e.severity == pgn::Severity::Warning);
        warnings.push_back(e.line);
      }
      CHECK(g.plies == uint32_t(2 * c.n - 1));
      CHECK(chess::is_checkmate(*chess::Position::from_fen(g.final_fen)));
    }
    CHECK(warnings == c.warning_lines);
  }
  auto m3 = pgntest::read_file("problems/mate-in-n-from-games/mate_in_3.pgn");
  CHECK(m3[204].tags[4] == std::make_pair(std::string("White"), std::string("\"Socrates Expert\"")));
  CHECK(m3[204].tags[5] == std::make_pair(std::string("Black"), std::string("Alexander Ivanov")));
}
