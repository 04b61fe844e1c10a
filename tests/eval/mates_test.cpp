// puremate, modelmate, idealmate and the pure/model/ideal stalemates on hand-made positions: known pure and
// model mates, and near misses that break one rule each.
#include <catch2/catch.hpp>

#include "eval/eval_support.h"

using namespace cqlindex;

namespace {

std::string fen_game(const std::string& fen) { return "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n*\n\n"; }

// Whether `body` matches the position `fen`.
bool holds(const std::string& body, const std::string& fen) {
  return test::run_query("cql()\n" + body + "\n", fen_game(fen)).matches == 1;
}

}  // namespace

TEST_CASE("pure, model and ideal mate: queen supported by the king", "[eval][mates]") {
  // Qg7#: g8 and h7 guarded by the queen only, the queen's square by the king only
  const std::string fen = "7k/6Q1/5K2/8/8/8/8/8 b - - 0 1";
  CHECK(holds("puremate", fen));
  CHECK(holds("modelmate", fen));
  CHECK(holds("idealmate", fen));
  CHECK(holds("puremate == (Qg7 | Kf6 | kh8)", fen));  // the value: every participating piece
  CHECK_FALSE(holds("purestalemate", fen));
  // the same mate of White (CQL tests both colours)
  CHECK(holds("idealmate == (qg2 | kf3 | Kh1)", "8/8/8/8/8/5k2/6q1/7K w - - 0 1"));
}

TEST_CASE("near misses of pure, model and ideal mate", "[eval][mates]") {
  // a rook on g1 guards the queen's square a second time: mate, but not pure
  CHECK(holds("mate", "7k/6Q1/5K2/8/8/8/8/6R1 b - - 0 1"));
  CHECK_FALSE(holds("puremate", "7k/6Q1/5K2/8/8/8/8/6R1 b - - 0 1"));
  // an idle rook on a1: pure, but not model (every white officer must take part)
  CHECK(holds("puremate == 3", "7k/6Q1/5K2/8/8/8/8/R7 b - - 0 1"));
  CHECK_FALSE(holds("modelmate", "7k/6Q1/5K2/8/8/8/8/R7 b - - 0 1"));
  // an idle black pawn: model, but not ideal (every black unit must take part too)
  CHECK(holds("modelmate", "7k/6Q1/5K2/p7/8/8/8/8 b - - 0 1"));
  CHECK_FALSE(holds("idealmate", "7k/6Q1/5K2/p7/8/8/8/8 b - - 0 1"));
  // white to move is not mated here: nothing matches
  CHECK_FALSE(holds("puremate", "7k/6Q1/5K2/8/8/8/8/8 w - - 0 1"));
}

TEST_CASE("self-blocks: unguarded own pieces keep a mate pure", "[eval][mates]") {
  // smothered mate Nf7#: the field holds only black pieces, none guarded; the idle white king spoils "ideal"
  const std::string smothered = "6rk/5Npp/8/8/8/8/8/K7 b - - 0 1";
  CHECK(holds("puremate", smothered));
  CHECK(holds("modelmate", smothered));
  CHECK_FALSE(holds("idealmate", smothered));
  // a bishop on b1 guarding the unpinned pawn h7: not pure
  CHECK(holds("mate", "6rk/5Npp/8/8/8/8/8/KB6 b - - 0 1"));
  CHECK_FALSE(holds("puremate", "6rk/5Npp/8/8/8/8/8/KB6 b - - 0 1"));
}

TEST_CASE("pure, model and ideal stalemate", "[eval][mates]") {
  // Qb6 attacks a7, b7 and b8 once each; the white king takes no part: model, not ideal
  const std::string fen = "k7/8/1Q6/8/8/8/8/7K b - - 0 1";
  CHECK(holds("purestalemate", fen));
  CHECK(holds("modelstalemate", fen));
  CHECK_FALSE(holds("idealstalemate", fen));
  CHECK(holds("purestalemate == (Qb6 | ka8)", fen));  // the white participants and every black piece
  CHECK_FALSE(holds("puremate", fen));
  // a rook on h7 attacks a7 and b7 a second time: stalemate, not pure
  CHECK(holds("stalemate", "k7/7R/1Q6/8/8/8/8/7K b - - 0 1"));
  CHECK_FALSE(holds("purestalemate", "k7/7R/1Q6/8/8/8/8/7K b - - 0 1"));
}
