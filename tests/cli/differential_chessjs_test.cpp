// `cqlindex check --fen` against chess.js on real files: the FEN after every mainline ply must agree.
#include <string>

#include <catch2/catch.hpp>

#include "support/fen_differential.h"

namespace {
const std::string kData = CQLINDEX_SHARED_DATA;
}

TEST_CASE("check --fen equals chess.js on the gnuchess 1,005-game sample", "[differential]") {
  cqlindex::test::require_same_fens_as_chessjs(kData + "/gnuchess-book/book_1.02.small-1005.pgn");
}

TEST_CASE("check --fen equals chess.js on the annotated jvanreek files", "[differential]") {
  cqlindex::test::require_same_fens_as_chessjs(kData + "/jvanreek-annotated/dortmund1928.train.pgn");
  cqlindex::test::require_same_fens_as_chessjs(kData + "/jvanreek-annotated/world_matches.train.pgn");
}

TEST_CASE("check --fen equals chess.js on the studies", "[differential]") {
  cqlindex::test::require_same_fens_as_chessjs(kData + "/studies/cql-sample.pgn");
  cqlindex::test::require_same_fens_as_chessjs(kData + "/studies/lichess-beautiful-chess-studies-1.pgn");
  cqlindex::test::require_same_fens_as_chessjs(kData + "/studies/lichess-beautiful-chess-studies-2.pgn");
}

TEST_CASE("check --fen equals chess.js on the mate-in-n problems", "[differential]") {
  for (const char* f : {"mate_in_2.pgn", "mate_in_3.pgn", "mate_in_4.pgn"})
    cqlindex::test::require_same_fens_as_chessjs(kData + "/problems/mate-in-n-from-games/" + f);
}
