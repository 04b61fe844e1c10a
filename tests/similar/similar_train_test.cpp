// The big CQL 6.2 similarposition golden: the 252 studies of cql-sample.pgn that have a FEN against the
// 116,573 games of the gnuchess train file (5 matches), through the index and with --no-index.
#include <catch2/catch.hpp>

#include <regex>

#include "engine/pgn/game_splitter.h"
#include "similar/similar_test_util.h"

using namespace cqlindex;
using namespace cqlindex::test;

TEST_CASE("similar: 252 studies vs the 116,573-game train file, indexed and --no-index", "[similar][golden][train]") {
  ScratchDir dir("train");
  std::string repository = xz_decompress(data_dir() / "gnuchess-book" / "book_1.02.train-116573.pgn.xz");
  REQUIRE(!repository.empty());  // needs xz
  spit(dir.path() / "repository.pgn", repository);
  repository.clear();
  // The submissions: cql-sample.pgn without its one game that has no FEN (game 252, an OTB game).
  std::string sample = slurp(data_dir() / "studies" / "cql-sample.pgn"), submissions;
  pgn::GameSplitter splitter(sample);
  pgn::GameSpan span;
  size_t kept = 0;
  while (splitter.next(span)) {
    std::string_view game = std::string_view(sample).substr(span.offset, span.length);
    if (game.find("[FEN \"") == std::string_view::npos) continue;
    submissions += game;
    ++kept;
  }
  REQUIRE(kept == 252);
  spit(dir.path() / "submissions.pgn", submissions);

  const std::string golden = slurp(goldens_dir() / "cql-sample-fen-vs-gnuchess-train.default.pgn");
  const std::regex stdout_lines(
      "Db: read 252 games from submission file: submissions\\.pgn\n"
      "5 matches of 116573 games in [0-9.e+-]+ seconds using [12] threads? to out\\.pgn\n");

  ProcessResult scan = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn --no-index");
  REQUIRE(scan.exit_code == 0);
  CHECK(std::regex_match(scan.out, stdout_lines));
  CHECK(slurp(dir.path() / "out.pgn") == golden);

  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  fs::remove(dir.path() / "out.pgn");
  ProcessResult indexed = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn");
  REQUIRE(indexed.exit_code == 0);
  CHECK(std::regex_match(indexed.out, stdout_lines));
  CHECK(slurp(dir.path() / "out.pgn") == golden);
  INFO(stderr_of(dir.path()));
  CHECK(stderr_of(dir.path()).find("candidate games of 116573") != std::string::npos);
}
