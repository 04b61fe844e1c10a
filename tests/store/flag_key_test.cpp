// The flags family's key layout (store/keys/flag_key.h): one name per flag, pinned.
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "store/keys/flag_key.h"

using namespace cqlindex;
using store::keys::GameFlag;

TEST_CASE("flag keys: the names an index holds", "[store][keys]") {
  CHECK(store::keys::game_flag_key(GameFlag::Check) == "check");
  CHECK(store::keys::game_flag_key(GameFlag::Mate) == "mate");
  CHECK(store::keys::game_flag_key(GameFlag::Stalemate) == "stalemate");
  CHECK(store::keys::game_flag_key(GameFlag::PromoteQueen) == "promote=Q");
  CHECK(store::keys::game_flag_key(GameFlag::PromoteRook) == "promote=R");
  CHECK(store::keys::game_flag_key(GameFlag::PromoteBishop) == "promote=B");
  CHECK(store::keys::game_flag_key(GameFlag::PromoteKnight) == "promote=N");
  CHECK(store::keys::game_flag_key(GameFlag::CastleShort) == "castle=O-O");
  CHECK(store::keys::game_flag_key(GameFlag::CastleLong) == "castle=O-O-O");
  CHECK(store::keys::game_flag_key(GameFlag::EnPassant) == "enpassant");
  CHECK(store::keys::game_flag_key(GameFlag::NullMove) == "nullmove");
  CHECK(store::keys::game_flag_key(GameFlag::PgnProblem) == "pgn-problem");
}

TEST_CASE("flag keys: every flag has its own non-empty key", "[store][keys]") {
  std::set<std::string> keys;
  for (size_t f = 0; f < store::keys::kGameFlagCount; ++f) {
    const std::string key(store::keys::game_flag_key(GameFlag(f)));
    CHECK_FALSE(key.empty());
    keys.insert(key);
  }
  CHECK(keys.size() == store::keys::kGameFlagCount);
}
