// The material family's key layout (store/keys/material_key.h): ten counts, one byte each, Q R B N P q r b n p.
// The bytes are pinned: an index written by one build is read by another.
#include <string>

#include <catch2/catch.hpp>

#include "engine/chess/position.h"
#include "store/keys/material_key.h"

using namespace cqlindex;
using store::keys::Material;

TEST_CASE("material key: the start position is ten bytes 1 2 2 2 8 1 2 2 2 8", "[store][keys]") {
  const Material m = store::keys::material_of(chess::Position::start());
  CHECK(m == Material{1, 2, 2, 2, 8, 1, 2, 2, 2, 8});
  CHECK(store::keys::material_key(m) == std::string("\x01\x02\x02\x02\x08\x01\x02\x02\x02\x08", 10));
}

TEST_CASE("material key: white's counts first, queens to pawns, kings not counted", "[store][keys]") {
  // White: Q, R, R, N, P, P, P; black: q, b, p.
  auto pos = chess::Position::from_fen("1q2k3/4b3/6p1/8/8/1PP5/P7/RQ1NK2R w - - 0 1");
  REQUIRE(pos);
  const Material m = store::keys::material_of(*pos);
  CHECK(store::keys::material_key(m) == std::string("\x01\x02\x00\x01\x03\x01\x00\x01\x00\x01", 10));
  CHECK(store::keys::material_from_key(store::keys::material_key(m)) == m);
}

TEST_CASE("material key: a short key reads as zero counts past its end", "[store][keys]") {
  CHECK(store::keys::material_from_key(std::string("\x01\x02", 2)) == Material{1, 2, 0, 0, 0, 0, 0, 0, 0, 0});
}
