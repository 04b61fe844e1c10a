// The explore family's key layout (store/keys/explore_key.h): the position's 64-bit Zobrist key, 8 bytes
// big-endian, then the move's 16 bits, 2 bytes big-endian. The bytes are pinned: an index written by one build
// is read by another (a change of the Zobrist tables or of the move encoding needs a schema bump). And an index of
// the schema before the family is refused as another schema, not by RocksDB's "Column family not found".
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <rocksdb/db.h>

#include "engine/chess/position.h"
#include "store/checksum_manifest.h"
#include "store/index_store.h"
#include "store/keys/explore_key.h"

using namespace cqlindex;
namespace fs = std::filesystem;

TEST_CASE("explore key: the start position's Zobrist key, then the move", "[store][keys]") {
  const chess::Position start = chess::Position::start();
  CHECK(start.key() == 0xad7576fc04f680fbULL);
  const std::string prefix = store::keys::explore_position_prefix(start.key());
  CHECK(prefix == std::string("\xad\x75\x76\xfc\x04\xf6\x80\xfb", 8));
  // 1.e4: origin e2 (12), destination e4 (28): (12 << 6) | 28 = 0x031C
  const chess::Move e4(chess::SQ_E2, chess::SQ_E4);
  const std::string key = store::keys::explore_key(start.key(), e4);
  CHECK(key == prefix + std::string("\x03\x1C", 2));
  CHECK(store::keys::explore_key_move(key) == e4);
  char bytes[store::keys::kExploreKeyBytes];
  CHECK(store::keys::explore_key(start.key(), e4, bytes) == key);
  // the games that ended at the position: Move::none(), two zero bytes
  CHECK(store::keys::explore_key(start.key(), chess::Move::none()) == prefix + std::string("\0\0", 2));
  CHECK_FALSE(store::keys::explore_key_move(prefix).has_value());
  // castling rights, side to move and a legal e.p. capture make other keys; an e.p. square without a capture
  // does not (the replay compares FENs, whose e.p. field says the same)
  auto no_castling = chess::Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
  auto black_to_move = chess::Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
  REQUIRE(no_castling);
  REQUIRE(black_to_move);
  CHECK(no_castling->key() != start.key());
  CHECK(black_to_move->key() != start.key());
  auto after_e4 = chess::Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  auto after_e4_no_ep = chess::Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  REQUIRE(after_e4);
  REQUIRE(after_e4_no_ep);
  CHECK(after_e4->key() == after_e4_no_ep->key());
  CHECK(start.after(e4).key() == after_e4->key());
}

TEST_CASE("an index of schema 6 (no explore family) is refused as another schema", "[store]") {
  const fs::path dir = fs::temp_directory_path() / ("cqlindex-explore-schema-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::string error;
  {
    auto store = store::IndexStore::create(dir.string(), &error);
    REQUIRE(store);
    store::IndexMeta meta;
    meta.pgn_path = "/x.pgn";
    REQUIRE(store->put_meta(meta, &error));
    REQUIRE(store->finish(&error));
  }
  {  // what an index of schema 6 is: no explore family, schema_version 6
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.string(), &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const std::string& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(rocksdb::DBOptions(), dir.string(), families, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == "explore") REQUIRE(db->DropColumnFamily(handles[i]).ok());
      if (names[i] == "meta") REQUIRE(db->Put(rocksdb::WriteOptions(), handles[i], "schema_version", "6").ok());
    }
    for (auto* h : handles) REQUIRE(db->DestroyColumnFamilyHandle(h).ok());
    REQUIRE(db->Close().ok());
  }
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().rfind("LOG", 0) == 0 || entry.path().filename() == "LOCK")
      fs::remove(entry.path());
  REQUIRE(store::write_checksum_manifest(dir.string(), &error));

  CHECK_FALSE(store::IndexStore::open_for_reading(dir.string(), &error));
  CHECK(error.find("index schema version 6, this cqlindex reads 7") != std::string::npos);
  CHECK(error.find("Column family") == std::string::npos);
  CHECK_FALSE(store::IndexStore::open_for_reading(dir.string(), &error, {store::Family::Explore}));
  CHECK(error.find("index schema version 6, this cqlindex reads 7") != std::string::npos);
  store::IndexStore::Verification found;
  CHECK_FALSE(store::IndexStore::verify(dir.string(), found, &error));
  CHECK(error.find("index schema version 6, this cqlindex reads 7") != std::string::npos);
  // (last: an open for --append removes the checksum manifest until it finishes)
  CHECK_FALSE(store::IndexStore::open_for_writing(dir.string(), &error));
  CHECK(error.find("index schema version 6, this cqlindex reads 7") != std::string::npos);
  fs::remove_all(dir);
}
