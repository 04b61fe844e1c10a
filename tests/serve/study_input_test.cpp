// POST /api/similar answers for the study typed or refuses it, never something else: a FEN wrong in any field
// is a 400 naming the field, the line and the column (sent as "fen", or as "pgn" as the page sends what it is
// typed); FENs one a line are as many submissions; PGN with a move the reader cannot play is a 400 naming the
// game, the move number, the token, its line and column; the search's warnings (a position common to the
// repository's games, a game read with a repair) are in the answer. `cqlindex similar` itself still searches a
// submissions file up to such a move, as CQL 6.2 does.
#include <catch2/catch.hpp>

#include <algorithm>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// A malformed FEN, and where the answer must say it goes wrong.
struct BadFen {
  std::string fen, field;
  int column = 0;
  std::string says;  // a piece of the reason
};

const BadFen kBadFens[] = {
    {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move", 21, "'x'"},
    {"4k3/8/8/8/8/8/8/4K3", "side to move", 20, "no side to move"},
    {"4k3/8/8/8/8/8/7/4K3 w - - 0 1", "board", 15, "rank 2 has 7 squares"},
    {"4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", "board", 21, "more than 8 ranks"},
    {"4k3/8/8/8/8/8/4K3 w - - 0 1", "board", 18, "7 ranks"},
    {"4k3/8/8/8/8/8/8/4X3 w - - 0 1", "board", 18, "bad character 'X'"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkz - 0 1", "castling", 30, "'z'"},
    {"4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant", 25, "'e9'"},
    {"4k3/8/8/8/8/8/8/4K3 w - - x 1", "clocks", 27, "halfmove clock 'x'"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 -1", "clocks", 29, "fullmove number '-1'"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 w", "clocks", 31, "more than six fields"},
};

// The numbers of an answer's games.
std::vector<uint64_t> numbers_of(const json& body) {
  std::vector<uint64_t> numbers;
  for (const json& g : body["results"]) numbers.push_back(g["number"].get<uint64_t>());
  return numbers;
}

bool has(const std::vector<uint64_t>& numbers, uint64_t n) {
  return std::find(numbers.begin(), numbers.end(), n) != numbers.end();
}

}  // namespace

TEST_CASE("serve: /api/similar refuses a FEN wrong in any field, naming the field, line and column",
          "[serve][api][study]") {
  ScratchDir dir("serve-study-fen");
  indexed_repository(dir, sample_pgn(), false);
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  for (const BadFen& bad : kBadFens)
    for (const char* field : {"fen", "pgn"}) {  // the page sends what is typed as "pgn"
      INFO(field << ": " << bad.fen);
      // after a good FEN and a blank line: the mistake is on line 3
      const std::string text = "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n\n" + bad.fen + "\n";
      const Reply r = post(server, "/api/similar", json{{field, text}});
      CHECK(r.status == 400);
      CHECK(r.body.value("field", "") == bad.field);
      CHECK(r.body.value("line", 0) == 3);
      CHECK(r.body.value("column", 0) == bad.column);
      CHECK(r.body.value("error", "").find(bad.says) != std::string::npos);
      CHECK(r.body.value("error", "").find("bad FEN (" + bad.field + ")") == 0);
      CHECK(!r.body.contains("results"));
    }
  // a FEN alone on its line 1, as the page's user types it
  const Reply alone = post(server, "/api/similar", json{{"pgn", kBadFens[0].fen}});
  CHECK(alone.status == 400);
  CHECK(alone.body.value("line", 0) == 1);
  CHECK(alone.body.value("column", 0) == 21);
}

TEST_CASE("serve: /api/similar reads FENs one a line as as many submissions", "[serve][api][study]") {
  ScratchDir dir("serve-study-fens");
  indexed_repository(dir, sample_pgn(), false);
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  const Reply seventh = get(server, "/api/game/7"), ninth = get(server, "/api/game/9");
  REQUIRE(seventh.status == 200);
  REQUIRE(ninth.status == 200);
  const std::string first = seventh.body["fens"][20], second = ninth.body["fens"][16];
  for (const char* field : {"fen", "pgn"}) {
    INFO(field);
    const Reply r = post(server, "/api/similar", json{{field, first + "\r\n\n" + second + "\n"}, {"limit", 1000}});
    REQUIRE(r.status == 200);
    CHECK(r.body["submissions"] == 2);
    CHECK(r.body["submission_fens"] == json::array({first, second}));
    CHECK(r.body["messages"][0] == "Db: read 2 games from submission file: submissions.pgn");
    const std::vector<uint64_t> found = numbers_of(r.body);
    CHECK(has(found, 7));
    CHECK(has(found, 9));
    // each game's match names the submission it is like: game 7 the first line, game 9 the second
    for (const json& g : r.body["results"]) {
      std::string comments;
      for (const json& c : g["comments"]) comments += c["text"].get<std::string>() + "\n";
      if (g["number"] == 7) CHECK(comments.find("game: 1 ") != std::string::npos);
      if (g["number"] == 9) CHECK(comments.find("game: 2 ") != std::string::npos);
    }
  }
  // one FEN: one submission, its own answer
  const Reply one = post(server, "/api/similar", json{{"fen", first}});
  REQUIRE(one.status == 200);
  CHECK(one.body["submissions"] == 1);
  CHECK(has(numbers_of(one.body), 7));
}

TEST_CASE("serve: /api/similar refuses PGN with a move it cannot play, naming the game, move, token and place",
          "[serve][api][study]") {
  ScratchDir dir("serve-study-pgn");
  indexed_repository(dir, sample_pgn(), false);
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  struct BadPgn {
    std::string pgn, says;
    int game, line, column;
  };
  const std::string good = "[Event \"one\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";
  for (const BadPgn& bad : {
           BadPgn{"[Event \"a\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n", "illegal move 'Ke3' at 2.", 1, 3, 13},
           BadPgn{good + "[Event \"b\"]\n\n1. d4 d5 2. c4\nXq7 3. Nc3 *\n", "unrecognized move 'Xq7' at 2...", 2, 8, 1},
           BadPgn{good + "[Event \"c\"]\n\n1. d4 Nf6 2. & *\n", "unrecognized text '&' at 2.", 2, 7, 14},
           BadPgn{"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O-O *\n", "illegal move 'O-O-O' at 5.", 1, 1, 47},
       }) {
    INFO(bad.pgn);
    const Reply r = post(server, "/api/similar", json{{"pgn", bad.pgn}});
    CHECK(r.status == 400);
    CHECK(r.body.value("error", "") == "game " + std::to_string(bad.game) + ": " + bad.says);
    CHECK(r.body.value("game", 0) == bad.game);
    CHECK(r.body.value("line", 0) == bad.line);
    CHECK(r.body.value("column", 0) == bad.column);
    CHECK(!r.body.contains("results"));
  }
  // the command line searches such a submissions file up to the move, as CQL 6.2 does, and says where it stopped
  spit(dir.path() / "submissions.pgn", "[Event \"a\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n");
  const ProcessResult cli = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn");
  CHECK(cli.exit_code == 0);
  CHECK(stderr_of(dir.path()).find("submissions.pgn:3:13: game 1: illegal move 'Ke3' at 2.") != std::string::npos);
  CHECK(match_line(cli.out).find(" matches of 1005 games") != std::string::npos);
  CHECK(match_line(cli.out).rfind("0 matches", 0) != 0);  // positions before the move were searched
}

TEST_CASE("serve: /api/similar answers with the search's warnings", "[serve][api][study]") {
  ScratchDir dir("serve-study-warnings");
  indexed_repository(dir, sample_pgn(), false);
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  // the initial position: every game of the repository has it
  const Reply start = post(server, "/api/similar",
                           json{{"pgn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, {"limit", 1}});
  REQUIRE(start.status == 200);
  CHECK(start.body["submissions"] == 1);
  REQUIRE(start.body["warnings"].size() == 1);
  const std::string warning = start.body["warnings"][0];
  CHECK(warning.find("warning: submission game 1 at move 1 wtm") != std::string::npos);
  CHECK(warning.find("is similar to positions of 1005 of the 1005 repository games (100") != std::string::npos);
  // a game read with a repair (a tag's value holding a '"'): searched, and said
  const Reply repaired = post(server, "/api/similar", json{{"pgn", "[Event \"a \"b\" c\"]\n\n1. e4 e5 *\n"}});
  REQUIRE(repaired.status == 200);
  bool said = false;
  for (const json& w : repaired.body["warnings"])
    said = said ||
           w.get<std::string>().find("submissions.pgn:1:11: game 1: warning: unescaped '\"'") != std::string::npos;
  CHECK(said);
  // a study without any: an empty list
  const Reply quiet = post(server, "/api/similar", json{{"fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}});
  REQUIRE(quiet.status == 200);
  CHECK(quiet.body["warnings"] == json::array());
}

TEST_CASE("serve: /api/similar says each game's matched positions in words", "[serve][api][study]") {
  ScratchDir dir("serve-study-matched");
  // a pawnless game; the study is its position after 1. Ra2 Kd8 reflected in the a1-h8 diagonal
  spit(dir.path() / "games.pgn", "[Event \"e\"]\n[White \"w\"]\n[Black \"b\"]\n[SetUp \"1\"]\n"
                                 "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Ra2 Kd8 2. Kd1 *\n");
  indexed_repository(dir, dir.path() / "games.pgn", false);
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  const Reply reflected = post(server, "/api/similar", json{{"fen", "8/8/8/K7/7k/8/8/1R6 w - - 0 1"}});
  REQUIRE(reflected.status == 200);
  REQUIRE(reflected.body["results"].size() == 1);
  const json& game = reflected.body["results"][0];
  REQUIRE(game["matched"].size() == 1);
  const json& matched = game["matched"][0];
  CHECK(matched["ply"] == 2);
  CHECK(matched["submission_game"] == 1);
  CHECK(matched["move"] == 1);
  CHECK(matched["side"] == "wtm");
  CHECK(matched["transform"] == "reflected in the a1-h8 diagonal");
  bool commented = false;  // CQL's own comment stays as CQL writes it
  for (const json& c : game["comments"])
    commented = commented || (c["ply"] == 2 && c["text"] == "see submissions.pgn game: 1 at move: 1 wtm reflect_a1h8");
  CHECK(commented);
}
