// The piecesq family's key layout (store/keys/piece_square_key.h): FEN letter, file letter, rank digit.
#include <string>

#include <catch2/catch.hpp>

#include "store/keys/piece_square_key.h"

using namespace cqlindex;

TEST_CASE("piece-square key: FEN letter then the square's name", "[store][keys]") {
  CHECK(store::keys::piece_square_key(chess::W_ROOK, chess::SQ_A1) == "Ra1");
  CHECK(store::keys::piece_square_key(chess::B_PAWN, chess::SQ_E5) == "pe5");
  CHECK(store::keys::piece_square_key(chess::W_KING, chess::SQ_H8) == "Kh8");
  CHECK(store::keys::piece_square_key(chess::B_KNIGHT, chess::SQ_B1) == "nb1");
}

TEST_CASE("piece-square key: read back to its square, other keys refused", "[store][keys]") {
  for (int sq = 0; sq < 64; ++sq)
    CHECK(store::keys::piece_square_key_square(store::keys::piece_square_key(chess::B_QUEEN, chess::Square(sq))) ==
          chess::Square(sq));
  CHECK_FALSE(store::keys::piece_square_key_square("Ra"));
  CHECK_FALSE(store::keys::piece_square_key_square("Ri1"));
  CHECK_FALSE(store::keys::piece_square_key_square("Ra9"));
  CHECK_FALSE(store::keys::piece_square_key_square("Ra10"));
}
