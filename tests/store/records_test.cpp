// Byte layouts of the games and meta families.
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "store/family.h"
#include "store/game_record.h"
#include "store/distinct_sketch.h"
#include "store/index_meta.h"

using namespace cqlindex::store;

TEST_CASE("game keys are 4 bytes big-endian and records round-trip", "[store]") {
  REQUIRE(game_key(0x01020304) == std::string("\x01\x02\x03\x04", 4));
  GameRecord r;
  r.offset = 68'600'000;
  r.length = 1234;
  r.plies = 81;
  r.result = GameResult::Draw;
  r.year = 1987;
  r.white_elo = 2605;
  r.black_elo = 0;
  r.flags = 0x15;
  r.first_line = 123456;
  r.first_col = 5;
  auto back = decode_game_record(encode_game_record(r));
  REQUIRE(back);
  REQUIRE(*back == r);
  REQUIRE_FALSE(decode_game_record(""));
  REQUIRE_FALSE(decode_game_record(encode_game_record(r) + "x"));
}

TEST_CASE("index meta is one readable row per field and refuses another schema", "[store]") {
  IndexMeta m;
  m.pgn_path = "/data/games.pgn";
  m.pgn_size = 68'600'000;
  m.pgn_mtime_ns = 1'700'000'000'123'456'789;
  m.pgn_device = 2049;
  m.pgn_inode = 1'234'567;
  m.pgn_fingerprint = 0xfedcba9876543210ull;
  m.pgn_sample_hash = 0x0123456789abcdefull;
  m.game_count = 116573;
  m.position_count = 9'500'000;
  m.build_options = "threads=2";
  m.similar_bucket_bits = 21;
  m.distinct_sketch = DistinctSketch{}.to_text();
  auto rows = encode_index_meta(m);
  REQUIRE(rows.at("similar_bucket_bits") == "21");
  REQUIRE(rows.at("game_count") == "116573");
  REQUIRE(rows.at("schema_version") == std::to_string(kSchemaVersion));
  std::string error;
  auto back = decode_index_meta(rows, &error);
  REQUIRE(back);
  REQUIRE(*back == m);

  auto missing = rows;
  missing.erase("pgn_fingerprint");
  REQUIRE_FALSE(decode_index_meta(missing, &error));
  REQUIRE(error == "index meta field 'pgn_fingerprint' is missing or malformed");

  // An index of schema 6 (before the explore family) is refused: it is rebuilt; so is one of schema 5 (65,536
  // buckets of 2-byte keys, before the bucket count was chosen at build).
  auto older = rows;
  older.at("schema_version") = std::to_string(kSchemaVersion - 1);
  REQUIRE_FALSE(decode_index_meta(older, &error));
  REQUIRE(error.find("index schema version 6, this cqlindex reads 7") == 0);
  older.at("schema_version") = std::to_string(kSchemaVersion - 2);
  older.erase("similar_bucket_bits");
  older.erase("distinct_sketch");
  REQUIRE_FALSE(decode_index_meta(older, &error));
  REQUIRE(error.find("index schema version 5, this cqlindex reads 7") == 0);

  // Bucket bits outside 16..32 are not a layout this reader knows.
  auto bad_bits = rows;
  bad_bits.at("similar_bucket_bits") = "40";
  REQUIRE_FALSE(decode_index_meta(bad_bits, &error));
  REQUIRE(error == "index meta field 'similar_bucket_bits' is missing or malformed");

  auto other = rows;
  other["schema_version"] = "999";
  REQUIRE_FALSE(decode_index_meta(other, &error));
  REQUIRE(error.find("schema version 999") != std::string::npos);
}

TEST_CASE("family names are fixed", "[store]") {
  REQUIRE(family_name(Family::Similar) == "similar");
  REQUIRE(family_name(Family::PieceSquare) == "piecesq");
  REQUIRE(family_name(Family::Yacpdb) == "yacpdb");
  REQUIRE(family_name(Family::Explore) == "explore");
  REQUIRE_FALSE(holds_postings(Family::Games));
  REQUIRE(holds_postings(Family::Tags));
}

TEST_CASE("the distinct-position sketch estimates within a few percent, merges, and round-trips as text", "[store]") {
  std::mt19937_64 rng(7);
  DistinctSketch all, first, second;
  CHECK(all.estimate() == 0);
  std::vector<uint64_t> hashes(300'000);
  for (uint64_t& h : hashes) h = rng();
  for (size_t i = 0; i < hashes.size(); ++i) {
    all.add(hashes[i]);
    all.add(hashes[i]);  // a repeat counts once
    (i % 3 ? first : second).add(hashes[i]);
  }
  const double e = double(all.estimate());
  CHECK(e > 0.95 * 300'000);
  CHECK(e < 1.05 * 300'000);
  DistinctSketch merged = first;
  merged.merge(second);
  CHECK(merged == all);  // the same whatever way the hashes were shared out
  DistinctSketch few;
  for (int i = 0; i < 100; ++i) few.add(hashes[i]);
  CHECK(few.estimate() >= 97);
  CHECK(few.estimate() <= 103);
  auto back = DistinctSketch::from_text(all.to_text());
  REQUIRE(back);
  CHECK(*back == all);
  CHECK_FALSE(DistinctSketch::from_text("0123"));
  CHECK_FALSE(DistinctSketch::from_text(std::string(DistinctSketch::kRegisters, '~')));
}
