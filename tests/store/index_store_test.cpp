// IndexStore on a real RocksDB folder: ingest + merge, reads, and refusal of damaged or unfinished indexes.
#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>

#include <catch2/catch.hpp>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/table_properties.h>

#include "store/checksum_manifest.h"
#include "store/index_store.h"
#include "store/key_directory.h"
#include "store/position_buckets.h"

using namespace cqlindex::store;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the system temp dir, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("cqlindex-store-test-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(counter()++));
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

std::string encoded(std::initializer_list<uint32_t> ids) {
  PostingList list;
  for (uint32_t id : ids) list.add(id);
  return list.encode();
}

// Returns a new index in `dir` with its meta rows written (a PGN of `games` games).
std::unique_ptr<IndexStore> created_index(const std::string& dir, uint64_t games, unsigned bucket_bits = 16) {
  std::string error;
  auto store = IndexStore::create(dir, &error);
  REQUIRE(store);
  IndexMeta meta;
  meta.pgn_path = "/x.pgn";
  meta.game_count = games;
  meta.similar_bucket_bits = bucket_bits;
  REQUIRE(store->put_meta(meta, &error));
  return store;
}

// Builds a small finished index in `dir`.
void build_small_index(const std::string& dir, unsigned bucket_bits = 16) {
  std::string error;
  auto store = created_index(dir, 3, bucket_bits);
  GameRecord g;
  g.offset = 10;
  g.length = 20;
  REQUIRE(store->put_games({{0, g}, {1, g}, {2, g}}, &error));
  // Two runs that share key "k2": the merge operator must union them.
  REQUIRE(store->ingest_sorted(Family::Material, IndexStore::Ingest::Merge, {{"k1", encoded({0})}, {"k2", encoded({1})}}, &error));
  REQUIRE(store->ingest_sorted(Family::Material, IndexStore::Ingest::Merge, {{"k2", encoded({2})}, {"k3", encoded({0, 2})}}, &error));
  REQUIRE(store->ingest_sorted(Family::Tags, IndexStore::Ingest::Put, {{"white:kasparov", encoded({1})}}, &error));
  REQUIRE(store->finish(&error));
}

// Every row of every family of the index in `dir`, or nullopt when it cannot be opened or read whole: what a
// damaged index may answer is either this (unchanged) or nothing.
std::optional<std::string> read_everything(const std::string& dir, std::string* error) {
  auto store = IndexStore::open_for_reading(dir, error);
  if (!store) return std::nullopt;
  std::string out;
  for (size_t f = 0; f < kFamilyCount; ++f)
    if (!store->for_each(static_cast<Family>(f), "", [&](std::string_view k, std::string_view v) {
          out.append(std::to_string(f)).append(":").append(k).append("=").append(v).append("\n");
          return true;
        }, error))
      return std::nullopt;
  return out;
}

// Returns the column family and data-block bytes of an SST file (its data blocks come first, from offset 0).
std::pair<std::string, uint64_t> table_data(const fs::path& sst) {
  rocksdb::Options options;
  rocksdb::SstFileReader reader(options);
  REQUIRE(reader.Open(sst.string()).ok());
  auto props = reader.GetTableProperties();
  return {props->column_family_name, props->data_size};
}

// XORs one byte of `file` at `offset` with 0x20 (twice restores it).
void flip_byte(const fs::path& file, uint64_t offset) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(std::streamoff(offset));
  char c;
  f.get(c);
  f.seekp(std::streamoff(offset));
  f.put(static_cast<char>(c ^ 0x20));
}

// Returns whether `verify` finds damage that it names by `file`'s name.
bool verify_names(const std::string& dir, const fs::path& file) {
  IndexStore::Verification found;
  std::string error;
  REQUIRE(IndexStore::verify(dir, found, &error));
  for (const std::string& line : found.damaged)
    if (line.find(file.filename().string()) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("an index reads back what was ingested, with runs merged by union", "[store]") {
  TempDir tmp;
  build_small_index(tmp.path);
  std::string error;
  auto store = IndexStore::open_for_reading(tmp.path, &error);
  INFO(error);
  REQUIRE(store);
  REQUIRE(store->meta().game_count == 3);
  auto k2 = store->postings(Family::Material, "k2", &error);
  REQUIRE(k2);
  REQUIRE(k2->size() == 2);
  REQUIRE(k2->contains(1));
  REQUIRE(k2->contains(2));
  auto missing = store->postings(Family::Material, "zz", &error);
  REQUIRE(missing);
  REQUIRE(missing->empty());
  REQUIRE(store->postings(Family::Tags, "white:kasparov", &error)->contains(1));
  REQUIRE(store->postings(Family::Tags, "k1", &error)->empty());  // families are separate
  auto g = store->game(2, &error);
  REQUIRE(g);
  REQUIRE(g->offset == 10);
  REQUIRE_FALSE(store->game(3, &error));

  std::vector<std::string> keys;
  REQUIRE(store->for_each(Family::Material, "k", [&](std::string_view k, std::string_view) {
    keys.emplace_back(k);
    return true;
  }, &error));
  REQUIRE(keys == std::vector<std::string>{"k1", "k2", "k3"});
}

TEST_CASE("reading leaves the index folder unchanged", "[store]") {
  TempDir tmp;
  build_small_index(tmp.path);
  std::string error;
  { REQUIRE(IndexStore::open_for_reading(tmp.path, &error)); }
  ManifestCheck files;
  REQUIRE(check_checksum_manifest(tmp.path, true, files, &error));
  CHECK(files.problems.empty());
  CHECK(files.files >= 3);
  IndexStore::Verification found;
  REQUIRE(IndexStore::verify(tmp.path, found, &error));
  CHECK(found.damaged.empty());
  CHECK(found.checked.size() == 3);  // the manifest, RocksDB's file checksums, RocksDB's block checksums
  REQUIRE(found.meta);
  CHECK(found.meta->game_count == 3);
}

TEST_CASE("an index can be extended by a later writer (append)", "[store]") {
  TempDir tmp;
  build_small_index(tmp.path);
  std::string error;
  {
    auto store = IndexStore::open_for_writing(tmp.path, &error);
    REQUIRE(store);
    REQUIRE(store->meta().game_count == 3);
    REQUIRE(store->ingest_sorted(Family::Material, IndexStore::Ingest::Merge, {{"k1", encoded({3})}, {"k9", encoded({3})}}, &error));
    // Until finish(), the index is not one a query would use.
    REQUIRE_FALSE(IndexStore::open_for_reading(tmp.path, &error));
    REQUIRE(store->finish(&error));
  }
  auto store = IndexStore::open_for_reading(tmp.path, &error);
  REQUIRE(store);
  auto k1 = store->postings(Family::Material, "k1", &error);
  REQUIRE(k1->size() == 2);
  REQUIRE(k1->contains(0));
  REQUIRE(k1->contains(3));
}

TEST_CASE("an index without the tagkeys family (built before it) reads without a directory and gets one on append",
          "[store]") {
  TempDir tmp;
  build_small_index(tmp.path);
  {  // the index as a build before the family left it: the family dropped, the manifest written again
    std::vector<std::string> names;
    REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), tmp.path, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const std::string& name : names) families.emplace_back(name, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* db = nullptr;
    REQUIRE(rocksdb::DB::Open(rocksdb::DBOptions(), tmp.path, families, &handles, &db).ok());
    for (auto* h : handles) {
      if (h->GetName() == family_name(Family::TagKeys)) REQUIRE(db->DropColumnFamily(h).ok());
      REQUIRE(db->DestroyColumnFamilyHandle(h).ok());
    }
    delete db;
    std::string error;
    REQUIRE(write_checksum_manifest(tmp.path, &error));
  }
  std::string error;
  using Read = IndexStore::DirectoryRead;
  {
    auto store = IndexStore::open_for_reading(tmp.path, &error);
    INFO(error);
    REQUIRE(store);
    CHECK(store->tag_keys("", [](std::string_view) {}, &error) == Read::Absent);
    CHECK(store->postings(Family::Tags, "white:kasparov", &error)->size() == 1);
  }
  {
    auto store = IndexStore::open_for_writing(tmp.path, &error);
    INFO(error);
    REQUIRE(store);
    REQUIRE(store->replace_family(Family::TagKeys, directory_chunks({"white:kasparov"}, 3), &error));
    REQUIRE(store->finish(&error));
  }
  auto store = IndexStore::open_for_reading(tmp.path, &error);
  REQUIRE(store);
  std::vector<std::string> keys;
  CHECK(store->tag_keys("white", [&](std::string_view key) { keys.emplace_back(key); }, &error) == Read::Read);
  CHECK(keys == std::vector<std::string>{"white:kasparov"});
  // a posting family is never replaced whole
  auto writer = IndexStore::open_for_writing(tmp.path, &error);
  REQUIRE(writer);
  CHECK_FALSE(writer->replace_family(Family::Tags, {}, &error));
}

TEST_CASE("position buckets: look-ups by position key, and an append joins buckets tag by tag", "[store]") {
  for (unsigned bits : {16u, 21u}) {
    INFO("bucket bits " << bits);
    // Two position keys that share a bucket, and a third in another bucket.
    auto bucket = [&](const std::string& key) { return position_bucket(position_hash(key), bits); };
    std::map<uint32_t, std::string> first_in_bucket;
    std::string a, b, c;
    for (int i = 0; a.empty(); ++i) {
      std::string key = "position " + std::to_string(i);
      auto [it, added] = first_in_bucket.emplace(bucket(key), key);
      if (!added) a = it->second, b = key;
    }
    for (int i = 0; c.empty(); ++i)
      if (std::string key = "other " + std::to_string(i); bucket(key) != bucket(a)) c = key;
    auto bucket_of = [&](std::vector<std::pair<std::string, std::vector<uint32_t>>> entries) {
      auto tag = [](const std::string& key) { return position_tag(position_hash(key)); };
      std::sort(entries.begin(), entries.end(), [&](const auto& x, const auto& y) { return tag(x.first) < tag(y.first); });
      PositionBucketWriter writer;
      for (const auto& [key, ids] : entries) writer.add(tag(key), ids);
      return std::make_pair(bucket_key(bucket(entries.front().first)), writer.take());
    };
    auto sorted = [](std::vector<std::pair<std::string, std::string>> rows) {
      std::sort(rows.begin(), rows.end());
      return rows;
    };
    TempDir tmp;
    build_small_index(tmp.path, bits);
    std::string error;
    {
      auto store = IndexStore::open_for_writing(tmp.path, &error);
      REQUIRE(store);
      REQUIRE(store->ingest_sorted(Family::Similar, IndexStore::Ingest::Merge,
                                   sorted({bucket_of({{a, {0}}}), bucket_of({{c, {1, 2}}})}), &error));
      REQUIRE(store->ingest_sorted(Family::Similar, IndexStore::Ingest::Merge,
                                   sorted({bucket_of({{a, {2}}, {b, {1}}})}), &error));
      REQUIRE(store->finish(&error));
    }
    auto store = IndexStore::open_for_reading(tmp.path, &error);
    REQUIRE(store);
    REQUIRE(store->meta().similar_bucket_bits == bits);
    auto games = [&](const std::string& key) {
      auto list = store->position_games(key, &error);
      REQUIRE(list);
      std::vector<uint32_t> ids(list->size());
      list->bits().toUint32Array(ids.data());
      return ids;
    };
    CHECK(games(a) == std::vector<uint32_t>{0, 2});
    CHECK(games(b) == std::vector<uint32_t>{1});
    CHECK(games(c) == std::vector<uint32_t>{1, 2});
    CHECK(games("never filed").empty());
    CHECK(store->position_count(&error) == 3u);
    CHECK(store->family_keys(Family::Similar) == 2u);
  }
}

TEST_CASE("damaged, truncated and unfinished indexes are refused with a reason", "[store]") {
  std::string error;
  SECTION("missing folder") {
    REQUIRE_FALSE(IndexStore::open_for_reading("/nonexistent/cqlindex", &error));
    REQUIRE(error.find("no index at") != std::string::npos);
  }
  SECTION("a flipped byte in any file: verify names it, and a read gives the same rows or fails") {
    // An open no longer hashes every file (issue 20): RocksDB checks what it reads, `verify` checks everything.
    TempDir tmp;
    build_small_index(tmp.path);
    const auto intact = read_everything(tmp.path, &error);
    REQUIRE(intact);
    int files = 0;
    for (const auto& entry : fs::directory_iterator(tmp.path)) {
      if (entry.path().filename() == kChecksumManifestName) continue;
      const auto size = fs::file_size(entry.path());
      if (size == 0) continue;
      INFO(entry.path());
      flip_byte(entry.path(), size / 2);
      CHECK(verify_names(tmp.path, entry.path()));
      auto rows = read_everything(tmp.path, &error);
      if (rows) CHECK(*rows == *intact);  // never other rows
      else CHECK_FALSE(error.empty());
      flip_byte(entry.path(), size / 2);
      CHECK(read_everything(tmp.path, &error) == intact);
      ++files;
    }
    REQUIRE(files >= 3);
  }
  SECTION("a flipped byte in a table's data blocks fails the reads that meet it, and verify names the file") {
    TempDir tmp;
    build_small_index(tmp.path);
    int tables = 0;
    for (const auto& entry : fs::directory_iterator(tmp.path)) {
      if (entry.path().extension() != ".sst") continue;
      const auto [family, data_bytes] = table_data(entry.path());
      INFO(entry.path() << " (" << family << ", " << data_bytes << " bytes of data blocks)");
      REQUIRE(data_bytes > 0);
      flip_byte(entry.path(), data_bytes / 2);
      CHECK(verify_names(tmp.path, entry.path()));
      // The open reads no data block but the meta family's: it succeeds (or, for the meta family, fails as
      // damaged); reading the family fails with a clear message naming the file.
      auto store = IndexStore::open_for_reading(tmp.path, &error);
      INFO(error);
      if (family == "meta") {
        CHECK_FALSE(store);
        CHECK(error.find("is damaged") != std::string::npos);
        CHECK(error.find(entry.path().filename().string()) != std::string::npos);
        flip_byte(entry.path(), data_bytes / 2);
        ++tables;
        continue;
      }
      REQUIRE(store);
      Family damaged = Family::Count;
      for (size_t f = 0; f < kFamilyCount; ++f)
        if (family_name(static_cast<Family>(f)) == family) damaged = static_cast<Family>(f);
      REQUIRE(damaged != Family::Count);
      error.clear();
      CHECK_FALSE(store->for_each(damaged, "", [](std::string_view, std::string_view) { return true; }, &error));
      CHECK(error.find("is damaged") != std::string::npos);
      CHECK(error.find(entry.path().filename().string()) != std::string::npos);
      store.reset();
      flip_byte(entry.path(), data_bytes / 2);
      ++tables;
    }
    REQUIRE(tables >= 3);
    IndexStore::Verification found;
    REQUIRE(IndexStore::verify(tmp.path, found, &error));
    CHECK(found.damaged.empty());
  }
  SECTION("a truncated file") {
    TempDir tmp;
    build_small_index(tmp.path);
    for (const auto& entry : fs::directory_iterator(tmp.path))
      if (entry.path().extension() == ".sst") {
        fs::resize_file(entry.path(), fs::file_size(entry.path()) / 2);
        break;
      }
    REQUIRE_FALSE(IndexStore::open_for_reading(tmp.path, &error));
    REQUIRE(error.find("truncated") != std::string::npos);
  }
  SECTION("a build that never finished") {
    TempDir tmp;
    {
      auto store = IndexStore::create(tmp.path, &error);
      REQUIRE(store);
      REQUIRE(store->ingest_sorted(Family::Material, IndexStore::Ingest::Merge, {{"k1", encoded({0})}}, &error));
    }  // dropped without finish(): like a killed build
    REQUIRE_FALSE(IndexStore::open_for_reading(tmp.path, &error));
    REQUIRE(error.find("did not finish") != std::string::npos);
  }
  SECTION("create refuses an existing folder") {
    TempDir tmp;
    build_small_index(tmp.path);
    REQUIRE_FALSE(IndexStore::create(tmp.path, &error));
  }
}

TEST_CASE("an index opened for some families reads them and refuses the others, and damage elsewhere is for verify",
          "[store]") {
  TempDir tmp;
  build_small_index(tmp.path);
  std::string error;
  {
    auto store = IndexStore::open_for_reading(tmp.path, &error, {Family::Tags});
    REQUIRE(store);
    CHECK(store->meta().game_count == 3);  // the meta family always comes along
    auto tags = store->postings(Family::Tags, "white:kasparov", &error);
    REQUIRE(tags);
    CHECK(tags->contains(1));
    CHECK_FALSE(tags->contains(0));
    // A family that was not opened is an error, never a crash or a silent empty answer.
    CHECK_FALSE(store->postings(Family::Similar, "k2", &error));
    CHECK(error.find("not opened") != std::string::npos);
    CHECK_FALSE(store->game(0, &error));
    CHECK_FALSE(store->for_each(Family::Games, "", [](std::string_view, std::string_view) { return true; }, &error));
    CHECK(store->family_bytes(Family::Similar) == 0);
  }
  // A damaged table of a family the query does not open (issue 20 changes this contract: it used to refuse the
  // whole index at open, by hashing every file): `verify` names it, a reader of that family fails cleanly, and a
  // reader of the others gets the right answer.
  fs::path material;
  for (const auto& entry : fs::directory_iterator(tmp.path))
    if (entry.path().extension() == ".sst" && table_data(entry.path()).first == "material") {
      material = entry.path();
      flip_byte(entry.path(), table_data(entry.path()).second / 2);
    }
  REQUIRE(!material.empty());
  CHECK(verify_names(tmp.path, material));
  {
    auto store = IndexStore::open_for_reading(tmp.path, &error, {Family::Tags});
    REQUIRE(store);
    auto tags = store->postings(Family::Tags, "white:kasparov", &error);
    REQUIRE(tags);
    CHECK(tags->size() == 1);
    CHECK(tags->contains(1));
  }
  auto store = IndexStore::open_for_reading(tmp.path, &error, {Family::Material});
  REQUIRE(store);
  CHECK_FALSE(store->postings(Family::Material, "k2", &error));
  CHECK(error.find("is damaged") != std::string::npos);
}

TEST_CASE("game records read many at a time: the same records as one by one, gaps stepped over, absent refused",
          "[store]") {
  TempDir tmp;
  const std::string dir = tmp.path.string();
  std::string error;
  {
    auto store = created_index(dir, 5000);
    std::vector<std::pair<uint32_t, GameRecord>> games;
    for (uint32_t id = 0; id < 5000; ++id) {
      GameRecord g;
      g.offset = uint64_t(id) * 613;
      g.length = 600 + id % 13;
      g.plies = id % 151;
      g.first_line = 1 + id * 17;
      games.push_back({id, g});
    }
    REQUIRE(store->put_games(games, &error));
    REQUIRE(store->finish(&error));
  }
  auto store = IndexStore::open_for_reading(dir, &error);
  REQUIRE(store);
  // dense runs (stepped to), gaps of every size (sought), the first and the last game
  std::vector<uint32_t> ids = {0, 1, 2, 3, 17, 18, 33, 34, 100, 116, 117, 1000, 1001, 2500, 4000, 4015, 4999};
  std::vector<std::pair<uint32_t, GameRecord>> read;
  REQUIRE(store->games(ids, [&](uint32_t id, const GameRecord& r) { read.push_back({id, r}); }, &error));
  REQUIRE(read.size() == ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    CHECK(read[i].first == ids[i]);
    auto one = store->game(ids[i], &error);
    REQUIRE(one);
    CHECK(read[i].second == *one);
    CHECK(one->offset == uint64_t(ids[i]) * 613);
  }
  read.clear();
  CHECK(store->games({}, [&](uint32_t id, const GameRecord& r) { read.push_back({id, r}); }, &error));
  CHECK(read.empty());
  // a game the index does not hold, just past a read one (stepped to) or far past (sought): refused, by number
  for (std::vector<uint32_t> bad : {std::vector<uint32_t>{4998, 5000}, std::vector<uint32_t>{10, 70000}}) {
    error.clear();
    size_t visited = 0;
    CHECK_FALSE(store->games(bad, [&](uint32_t, const GameRecord&) { ++visited; }, &error));
    CHECK(visited == 1);
    CHECK(error.find("game " + std::to_string(bad[1] + 1) + " not in the index") != std::string::npos);
  }
}
