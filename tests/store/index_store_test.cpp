// IndexStore on a real RocksDB folder: ingest + merge, reads, and refusal of damaged or unfinished indexes.
#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>

#include <catch2/catch.hpp>

#include "store/checksum_manifest.h"
#include "store/index_store.h"
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

// Builds a small finished index in `dir`.
void build_small_index(const std::string& dir) {
  std::string error;
  auto store = IndexStore::create(dir, &error);
  REQUIRE(store);
  IndexMeta meta;
  meta.pgn_path = "/x.pgn";
  meta.game_count = 3;
  REQUIRE(store->put_meta(meta, &error));
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
  REQUIRE(verify_checksum_manifest(tmp.path, &error));
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

TEST_CASE("position buckets: look-ups by position key, and an append joins buckets tag by tag", "[store]") {
  // Two position keys that share a bucket, and a third in another bucket.
  std::map<uint16_t, std::string> first_in_bucket;
  std::string a, b, c;
  for (int i = 0; a.empty(); ++i) {
    std::string key = "position " + std::to_string(i);
    auto [it, added] = first_in_bucket.emplace(position_hash(key).bucket, key);
    if (!added) a = it->second, b = key;
  }
  for (int i = 0; c.empty(); ++i)
    if (std::string key = "other " + std::to_string(i); position_hash(key).bucket != position_hash(a).bucket) c = key;
  auto bucket_of = [](std::vector<std::pair<std::string, std::vector<uint32_t>>> entries) {
    std::sort(entries.begin(), entries.end(),
              [](const auto& x, const auto& y) { return position_hash(x.first).tag < position_hash(y.first).tag; });
    PositionBucketWriter writer;
    for (const auto& [key, ids] : entries) writer.add(position_hash(key).tag, ids);
    return std::make_pair(bucket_key(position_hash(entries.front().first).bucket), writer.take());
  };
  auto sorted = [](std::vector<std::pair<std::string, std::string>> rows) {
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  TempDir tmp;
  build_small_index(tmp.path);
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
}

TEST_CASE("damaged, truncated and unfinished indexes are refused with a reason", "[store]") {
  std::string error;
  SECTION("missing folder") {
    REQUIRE_FALSE(IndexStore::open_for_reading("/nonexistent/cqlindex", &error));
    REQUIRE(error.find("no index at") != std::string::npos);
  }
  SECTION("a flipped byte in any file") {
    TempDir tmp;
    build_small_index(tmp.path);
    int files = 0;
    for (const auto& entry : fs::directory_iterator(tmp.path)) {
      if (entry.path().filename() == kChecksumManifestName) continue;
      // Flip one byte in the middle of this file, check refusal, and restore it.
      std::fstream f(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
      auto size = fs::file_size(entry.path());
      if (size == 0) continue;
      f.seekg(size / 2);
      char c;
      f.get(c);
      f.seekp(size / 2);
      f.put(static_cast<char>(c ^ 0x20));
      f.close();
      INFO(entry.path());
      REQUIRE_FALSE(IndexStore::open_for_reading(tmp.path, &error));
      REQUIRE(error.find("damaged") != std::string::npos);
      std::fstream g(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
      g.seekp(size / 2);
      g.put(c);
      g.close();
      REQUIRE(IndexStore::open_for_reading(tmp.path, &error));
      ++files;
    }
    REQUIRE(files >= 3);
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

TEST_CASE("an index opened for some families reads them and refuses the others, and is verified whole",
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
  // A damaged file of a family the query does not open still makes the whole index refused.
  for (const auto& entry : fs::directory_iterator(tmp.path))
    if (entry.path().extension() == ".sst") {
      const auto size = fs::file_size(entry.path());
      std::fstream f(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(size / 2);
      char c;
      f.get(c);
      f.seekp(size / 2);
      f.put(static_cast<char>(c ^ 0x20));
    }
  CHECK_FALSE(IndexStore::open_for_reading(tmp.path, &error, {Family::Tags}));
  CHECK(error.find("damaged") != std::string::npos);
}
