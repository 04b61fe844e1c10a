// `cqlindex check --fen` against chess.js on real files: the FEN after every mainline ply must agree.
#include <string>

#include <catch2/catch.hpp>

#include "support/fen_differential.h"
#include "support/shared_data.h"

namespace {
std::string data_dir() { return cqlindex::test::shared_data(""); }
}

TEST_CASE("check --fen equals chess.js on the gnuchess 1,005-game sample", "[differential]") {
  cqlindex::test::require_same_fens_as_chessjs(data_dir() + "/gnuchess-book/book_1.02.small-1005.pgn");
}

TEST_CASE("check --fen equals chess.js on the annotated jvanreek files", "[differential]") {
  cqlindex::test::require_same_fens_as_chessjs(data_dir() + "/jvanreek-annotated/dortmund1928.train.pgn");
  cqlindex::test::require_same_fens_as_chessjs(data_dir() + "/jvanreek-annotated/world_matches.train.pgn");
}

TEST_CASE("check --fen equals chess.js on the studies", "[differential]") {
  cqlindex::test::require_same_fens_as_chessjs(data_dir() + "/studies/cql-sample.pgn");
  cqlindex::test::require_same_fens_as_chessjs(data_dir() + "/studies/lichess-beautiful-chess-studies-1.pgn");
  cqlindex::test::require_same_fens_as_chessjs(data_dir() + "/studies/lichess-beautiful-chess-studies-2.pgn");
}

TEST_CASE("check --fen equals chess.js on the mate-in-n problems", "[differential]") {
  for (const char* f : {"mate_in_2.pgn", "mate_in_3.pgn", "mate_in_4.pgn"})
    cqlindex::test::require_same_fens_as_chessjs(data_dir() + "/problems/mate-in-n-from-games/" + f);
}
