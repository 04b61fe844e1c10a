// CandidateSlices: a file's candidates come back in slices, in game order, whole, numbered from the file's first
// game, cut at a -gamenumber range's end, and a record that cannot be read stops them after the slices before it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include "exec/candidate_slices.h"
#include "store/index_meta.h"
#include "store/index_store.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("cqlindex-slices-test-" + std::to_string(::getpid()));
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

// An index of `games` games whose records say which game they are (offset 100 * id, length id + 1, line id + 2),
// opened for reading.
std::unique_ptr<store::IndexStore> built_index(const fs::path& dir, uint32_t games) {
  std::string error;
  auto store = store::IndexStore::create(dir.string(), &error);
  REQUIRE(store);
  store::IndexMeta meta;
  meta.pgn_path = "/x.pgn";
  meta.game_count = games;
  REQUIRE(store->put_meta(meta, &error));
  std::vector<std::pair<uint32_t, store::GameRecord>> records;
  for (uint32_t id = 0; id < games; ++id) {
    store::GameRecord r;
    r.offset = 100ull * id;
    r.length = id + 1;
    r.first_line = id + 2;
    records.emplace_back(id, r);
  }
  REQUIRE(store->put_games(records, &error));
  REQUIRE(store->finish(&error));
  store.reset();
  auto index = store::IndexStore::open_for_reading(dir.string(), &error);
  REQUIRE(index);
  return index;
}

Roaring ids_of(std::initializer_list<uint32_t> ids) {
  Roaring r;
  for (uint32_t id : ids) r.add(id);
  return r;
}

// Every slice of `slices`, in turn; `sizes` gets each one's size.
std::vector<pgn::GameSpan> all_slices(exec::CandidateSlices& slices, std::vector<size_t>& sizes, bool& ok,
                                      std::string& error) {
  std::vector<pgn::GameSpan> all, spans;
  ok = true;
  while ((ok = slices.next(spans, &error)) && !spans.empty()) {
    sizes.push_back(spans.size());
    all.insert(all.end(), spans.begin(), spans.end());
  }
  return all;
}

}  // namespace

TEST_CASE("candidate slices: every candidate once, in order, in slices, numbered from the file's start", "[exec]") {
  TempDir tmp;
  const auto index = built_index(tmp.path, 40);
  const Roaring ids = ids_of({0, 2, 3, 7, 8, 9, 15, 21, 22, 30, 39});
  std::string error;

  SECTION("no range: slices of 1, 2 and 4 of a slice of 8, the last one short") {
    exec::CandidateSlices slices(*index, ids, 1000, std::nullopt, 8);
    std::vector<size_t> sizes;
    bool ok = false;
    std::vector<pgn::GameSpan> all = all_slices(slices, sizes, ok, error);
    CHECK(ok);
    CHECK(sizes == std::vector<size_t>{1, 2, 4, 4});
    REQUIRE(all.size() == ids.cardinality());
    size_t i = 0;
    for (uint32_t id : ids) {
      CHECK(all[i].number == 1000 + id + 1);
      CHECK(all[i].offset == 100ull * id);
      CHECK(all[i].length == id + 1);
      CHECK(all[i].first_line == id + 2);
      ++i;
    }
  }
  SECTION("a first slice as large as the candidates, and one larger") {
    for (size_t slice : {size_t(88), size_t(200)}) {
      exec::CandidateSlices slices(*index, ids, 0, std::nullopt, slice);
      std::vector<size_t> sizes;
      bool ok = false;
      CHECK(all_slices(slices, sizes, ok, error).size() == 11);
      CHECK(ok);
      CHECK(sizes == std::vector<size_t>{11});
    }
  }
  SECTION("a -gamenumber range ends the candidates inside a slice") {
    exec::CandidateSlices slices(*index, ids, 10, cql::Range{1, 10 + 16}, 8);  // games up to 26: ids up to 15
    std::vector<size_t> sizes;
    bool ok = false;
    std::vector<pgn::GameSpan> all = all_slices(slices, sizes, ok, error);
    CHECK(ok);
    CHECK(sizes == std::vector<size_t>{1, 2, 4});
    REQUIRE_FALSE(all.empty());
    CHECK(all.back().number == 26);
  }
  SECTION("no candidates: one empty slice") {
    Roaring none;
    exec::CandidateSlices slices(*index, none, 0, std::nullopt, 8);
    std::vector<pgn::GameSpan> spans{pgn::GameSpan{}};
    CHECK(slices.next(spans, &error));
    CHECK(spans.empty());
  }
}

TEST_CASE("candidate slices: a record that is not there stops them after the slices before it", "[exec]") {
  TempDir tmp;
  const auto index = built_index(tmp.path, 10);
  const Roaring ids = ids_of({1, 2, 4, 5, 12, 13});  // 12 and 13: no such games
  std::string error;
  exec::CandidateSlices slices(*index, ids, 0, std::nullopt, 16);  // slices of 2, 4...
  std::vector<pgn::GameSpan> spans;
  REQUIRE(slices.next(spans, &error));
  CHECK(spans.size() == 2);
  CHECK(spans[1].number == 3);
  error.clear();  // the next slice, read while the first was "replayed", holds the missing ones
  CHECK_FALSE(slices.next(spans, &error));
  CHECK_FALSE(error.empty());
  CHECK(slices.next(spans, &error));  // and nothing comes after it
  CHECK(spans.empty());
}
