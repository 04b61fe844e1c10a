// External sort of postings: runs written in any order by several writers, cut into key ranges, merged back
// per range into (family, key) -> sorted games, in byte order, duplicates removed, long keys included; position
// hashes buffered by add_position merge with the same keys given to add.
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "indexer/position_merge.h"
#include "indexer/posting_runs.h"
#include "store/position_buckets.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

// Returns what the runs of key range `p` hold.
indexer::RunContent content_of(size_t p) {
  return indexer::holds_positions(p) ? indexer::RunContent::Positions : indexer::RunContent::Any;
}

// Returns the (family byte + key, games) lists of `runs` of key range `p` in key order, merged as a build merges
// them: PositionMerge for position runs (sorted by slices only), RunMerger for the others.
std::vector<std::pair<std::string, std::vector<uint32_t>>> merge_range(const std::vector<std::string>& runs, size_t p,
                                                                      size_t buffer_bytes = SIZE_MAX) {
  std::vector<std::pair<std::string, std::vector<uint32_t>>> lists;
  std::string error;
  std::vector<uint32_t> games;
  if (indexer::holds_positions(p)) {
    indexer::PositionMerge merger;
    REQUIRE(merger.open(runs, &error, buffer_bytes));
    uint64_t hash = 0;
    while (merger.next(hash, games)) {
      char key[store::kPositionHashBytes];
      store::write_position_hash(hash, key);
      lists.emplace_back(std::string(1, static_cast<char>(store::Family::Similar)) + std::string(key, sizeof key), games);
    }
    CHECK(merger.error().empty());
    return lists;
  }
  indexer::RunMerger merger;
  REQUIRE(merger.open(runs, &error, buffer_bytes));
  std::string key;
  while (merger.has_next()) {
    const store::Family family = merger.family();
    merger.next(key, games);
    lists.emplace_back(std::string(1, static_cast<char>(family)) + key, games);
  }
  return lists;
}

// Returns two writers into `dir`, named `a` and `b`, writing runs of `a_pairs` and `b_pairs` postings (a writer
// is moved, not copied: its buffers are its own).
std::vector<indexer::RunWriter> two_writers(const std::string& dir, const std::string& a, size_t a_pairs,
                                            const std::string& b, size_t b_pairs) {
  std::vector<indexer::RunWriter> writers;
  writers.emplace_back(dir, a, a_pairs);
  writers.emplace_back(dir, b, b_pairs);
  return writers;
}

}  // namespace

TEST_CASE("posting runs: every key range merges back to the sorted postings", "[indexer]") {
  const fs::path dir = fs::temp_directory_path() / ("cqlindex-runs-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::mt19937 rng(7);
  // Keys that share long prefixes, end in zero bytes, or pass the 32 bytes held inline.
  std::vector<std::pair<store::Family, std::string>> keys;
  const std::string shared(30, '\x05');
  for (int i = 0; i < 400; ++i) {
    const store::Family family = i % 4 == 0 ? store::Family::Tags
                                 : i % 4 == 1 ? store::Family::Material
                                              : store::Family::Similar;
    std::string key;
    if (family == store::Family::Similar) {  // a position hash as builds file it (both halves of the hash space)
      for (size_t k = 0; k < store::kPositionHashBytes; ++k) key.push_back(static_cast<char>(rng() % 4 == 0 ? 0 : rng() % 256));
      keys.emplace_back(family, key);
      continue;
    }
    if (i % 3 == 0) key += shared;
    const size_t length = rng() % 40;
    for (size_t k = 0; k < length; ++k) key.push_back(static_cast<char>(rng() % 4 == 0 ? 0 : rng() % 256));
    if (key.empty()) key.push_back('k');
    keys.emplace_back(family, key);
  }
  std::map<std::string, std::set<uint32_t>> expected;  // family byte + key -> games
  std::vector<indexer::RunWriter> writers = two_writers(dir.string(), "a", 97, "b", 64);
  for (int n = 0; n < 20000; ++n) {
    const auto& [family, key] = keys[rng() % keys.size()];
    const uint32_t game = rng() % 500;
    auto& writer = writers[rng() % 2];
    // Position hashes through both paths: the radix-sorted buffer and the generic one give the same records.
    if (family == store::Family::Similar && rng() % 4 != 0)
      writer.add_position(store::read_position_hash(key) | (rng() & 0xFFFF), game);  // (the low bits are dropped)
    else
      writer.add(family, key, game);
    expected[std::string(1, static_cast<char>(family)) + key].insert(game);
  }
  std::string error;
  for (auto& w : writers) REQUIRE(w.flush(&error));

  // Merged straight from the writers' runs, then again after merging them in rounds of 3 (as a build with a small
  // fan-in does) through the smallest read buffers (as a build under an address-space limit): the same postings.
  auto merge_all = [&](size_t fan_in) {
    std::map<std::string, std::set<uint32_t>> merged;
    std::string previous;
    for (size_t p = 0; p < indexer::kRunPartitions; ++p) {
      std::vector<std::string> runs;
      for (auto& w : writers) runs.insert(runs.end(), w.runs(p).begin(), w.runs(p).end());
      if (fan_in) {
        REQUIRE(runs.size() > fan_in * fan_in);  // at least two rounds
        std::string name = "merged-p";  // (not "literal" + string: GCC 12's false -Wrestrict, bug 105329)
        name += std::to_string(p);
        REQUIRE(indexer::reduce_runs(runs, fan_in, fan_in * indexer::kLeastRunReadBuffer, dir.string(), name, &error,
                                     content_of(p)));
        CHECK(runs.size() <= fan_in);
      }
      for (const auto& [text, games] : merge_range(runs, p, fan_in ? 1 : SIZE_MAX)) {
        CHECK(indexer::run_partition(text) == p);
        CHECK(previous < text);  // strictly increasing across all ranges
        previous = text;
        CHECK(std::is_sorted(games.begin(), games.end()));
        CHECK(std::adjacent_find(games.begin(), games.end()) == games.end());
        merged[text].insert(games.begin(), games.end());
      }
    }
    return merged;
  };
  CHECK(merge_all(0) == expected);
  CHECK(merge_all(3) == expected);
  fs::remove_all(dir);
}

TEST_CASE("position runs: a hash in every game is merged as games, not as slice values", "[indexer]") {
  // A run is sorted by slices only, so a hash in every game (the start position's) lies among the other hashes of
  // its slice in any order; the merge still takes all but kStretch of its postings a run as games, so that its
  // slice does not hold them all (at 10 million games the start position's slice grew to 128 MB that way).
  const fs::path dir = fs::temp_directory_path() / ("cqlindex-position-stretch-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::mt19937_64 rng(53);
  const uint64_t slice = uint64_t{0x1234} << 48, common = slice | (uint64_t{0x5678'9ABC} << 16);
  indexer::RunWriter writer(dir.string(), "c", 6000);
  size_t others = 0;
  for (uint32_t game = 0; game < 10000; ++game) {
    writer.add_position(common, game);
    for (int k = 0; k < 2; ++k, ++others) writer.add_position(slice | (rng() & 0x0000'FFFF'FFFF'0000), game);
  }
  std::string error;
  REQUIRE(writer.finish(&error));
  const std::vector<std::string>& runs = writer.runs(indexer::run_partition(std::string(1, char(store::Family::Similar)) + char(0x12)));
  REQUIRE(runs.size() > 4);
  indexer::PositionMerge positions;
  REQUIRE(positions.open(runs, &error));
  uint64_t hash = 0;
  std::vector<uint32_t> games;
  size_t lists = 0, longest = 0;
  while (positions.next(hash, games)) ++lists, longest = std::max(longest, games.size());
  CHECK(positions.error().empty());
  CHECK(lists == others + 1);
  CHECK(longest == 10000);
  CHECK(positions.largest_slice() <= others + 64 * runs.size());  // not the common hash's 10,000
  fs::remove_all(dir);
}

TEST_CASE("posting runs: keys in thousands of games of every run merge back in game order", "[indexer]") {
  // As a build posts them: two writers taking batches of 64 games in turn, a few keys in most games (a result,
  // a common material), so that a run holds a key's games in records of kGroupGames and the two writers' runs
  // interleave by batches; merged straight, and after reduce_runs' rounds through the smallest buffers.
  const fs::path dir = fs::temp_directory_path() / ("cqlindex-runs-groups-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::mt19937 rng(43);
  const std::vector<std::pair<store::Family, std::string>> keys{
      {store::Family::Tags, std::string("Result\0", 7) + "1-0"},
      {store::Family::Tags, std::string("Result\0", 7) + "0-1"},
      {store::Family::Tags, std::string("Event\0", 6) + std::string(40, 'e')},  // past the 8 bytes of a head
      {store::Family::Material, "KQRRBBNNPPPPPPPP"},
      {store::Family::Material, "KQ"}};
  std::map<std::string, std::set<uint32_t>> expected;
  auto write = [&](const std::string& tag) {
    std::vector<indexer::RunWriter> writers = two_writers(dir.string(), tag + "a", 20000, tag + "b", 30000);
    std::mt19937 postings(47);
    for (uint32_t game = 0; game < 40000; ++game) {
      auto& writer = writers[(game / 64) % 2];
      for (const auto& [family, key] : keys)
        if (postings() % 10 < 7) {
          writer.add(family, key, game);
          expected[std::string(1, static_cast<char>(family)) + key].insert(game);
        }
    }
    std::string error;
    for (auto& w : writers) REQUIRE(w.finish(&error));
    return writers;
  };
  for (const size_t fan_in : {size_t{0}, size_t{3}}) {
    INFO("fan-in " << fan_in);
    expected.clear();
    const auto writers = write("f" + std::to_string(fan_in));
    std::map<std::string, std::vector<uint32_t>> merged;
    for (size_t p = 0; p < indexer::kRunPartitions; ++p) {
      std::vector<std::string> runs;
      for (auto& w : writers) runs.insert(runs.end(), w.runs(p).begin(), w.runs(p).end());
      if (runs.empty()) continue;
      std::string error;
      if (fan_in) {
        REQUIRE(runs.size() > fan_in);
        std::string name = "grouped-p";
        name += std::to_string(p);
        REQUIRE(indexer::reduce_runs(runs, fan_in, fan_in * indexer::kLeastRunReadBuffer, dir.string(), name, &error));
      }
      indexer::RunMerger merger;
      REQUIRE(merger.open(runs, &error, fan_in ? 1 : SIZE_MAX));
      std::string key;
      std::vector<uint32_t> games;
      while (merger.has_next()) {
        const store::Family family = merger.family();
        merger.next(key, games);
        const std::string text = std::string(1, static_cast<char>(family)) + key;
        CHECK(merged.count(text) == 0);  // one list a key
        merged[text] = games;
      }
    }
    REQUIRE(merged.size() == expected.size());
    for (const auto& [text, games] : expected) {
      INFO("key " << text);
      CHECK(merged[text] == std::vector<uint32_t>(games.begin(), games.end()));  // increasing, no duplicates
      CHECK(games.size() > 3 * indexer::kGroupGames);
    }
  }
  // A run file that is not one (another format byte) is refused, with its name.
  const std::string bad = (dir / "not-a-run").string();
  std::ofstream(bad) << "X\x02\x05k" << std::string(4, '\0');
  std::string error;
  indexer::RunReader reader;
  REQUIRE(reader.open(bad, indexer::kLeastRunReadBuffer, &error));
  CHECK_FALSE(reader.load());
  CHECK_THAT(reader.failure(), Catch::Contains(bad) && Catch::Contains("not a run file"));
  fs::remove_all(dir);
}

TEST_CASE("posting runs: position postings of games far apart or out of order merge back", "[indexer]") {
  // A run's positions hold a game as its distance from the run's first game in 16 bits: games 65,536 or more
  // apart start a new run, a game before the first goes through add(); equal hashes of many games, too.
  const fs::path dir = fs::temp_directory_path() / ("cqlindex-runs-span-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::mt19937_64 rng(11);
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 300; ++i) hashes.push_back(i % 10 == 0 ? uint64_t{0x8000'0000'0000'0000} : rng());
  std::map<std::string, std::set<uint32_t>> expected;
  indexer::RunWriter writer(dir.string(), "s", 5000);
  uint32_t game = 7;
  for (int n = 0; n < 30000; ++n) {
    if (n % 50 == 0) game += static_cast<uint32_t>(rng() % 40000);  // often past the 16 bits from a run's first
    const uint32_t posted = n % 97 == 0 ? static_cast<uint32_t>(rng() % (game + 1)) : game;  // out of order
    const uint64_t h = hashes[rng() % hashes.size()];
    writer.add_position(h, posted);
    char key[store::kPositionHashBytes];
    store::write_position_hash(h, key);
    expected[std::string(1, static_cast<char>(store::Family::Similar)) + std::string(key, sizeof key)].insert(posted);
  }
  std::string error;
  REQUIRE(writer.finish(&error));
  CHECK(game > (uint32_t{1} << 22));
  std::map<std::string, std::set<uint32_t>> merged;
  for (size_t p = 0; p < indexer::kRunPartitions; ++p)
    for (const auto& [text, games] : merge_range(writer.runs(p), p)) {
      CHECK(std::is_sorted(games.begin(), games.end()));
      merged[text].insert(games.begin(), games.end());
    }
  CHECK(merged == expected);
  fs::remove_all(dir);
}

TEST_CASE("position runs merged by slices give every position's games, in hash order", "[indexer]") {
  // Several writers' runs of the similar ranges (sorted by slices only), hashes sharing their first 16 bits (one
  // slice) or all their 48, postings through add_position and add, games out of order and repeated: PositionMerge
  // yields each position once with its games, increasing, in hash order, and the same after reduce_runs' rounds.
  const fs::path dir = fs::temp_directory_path() / ("cqlindex-position-merge-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::mt19937_64 rng(23);
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 500; ++i) {
    uint64_t h = rng() & ~uint64_t{0xFFFF};
    if (i % 3 == 0) h = (uint64_t{0xABCD} << 48) | (h & 0x0000'FFFF'FFFF'0000);  // one slice, many hashes
    if (i % 7 == 0) h = uint64_t{0x8000'0000'0000'0000};                           // the second range's first
    hashes.push_back(h);
  }
  std::vector<std::map<uint64_t, std::set<uint32_t>>> expected(indexer::kRunPartitions);
  // The same postings written afresh for each way of merging them (reduce_runs removes the runs it merges).
  auto write_runs = [&](const std::string& tag) {
    std::mt19937_64 postings_rng(29);
    std::vector<indexer::RunWriter> writers = two_writers(dir.string(), tag + "a", 3000, tag + "b", 5000);
    for (int n = 0; n < 40000; ++n) {
      // one hash in every fourth posting (as the start position is in every game): long stretches in every run
      const uint64_t h = n % 4 == 0 ? hashes[3] : hashes[postings_rng() % hashes.size()];
      const uint32_t game = static_cast<uint32_t>(n / 4 + (n % 13 == 0 ? postings_rng() % 100000 : 0));
      auto& writer = writers[postings_rng() % 2];
      char key[store::kPositionHashBytes];
      store::write_position_hash(h, key);
      if (n % 5 == 0)
        writer.add(store::Family::Similar, std::string_view(key, sizeof key), game);
      else
        writer.add_position(h, game);
      expected[indexer::run_partition(std::string(1, char(store::Family::Similar)) + std::string(key, sizeof key))][h]
          .insert(game);
    }
    std::string why;
    for (auto& w : writers) REQUIRE(w.finish(&why));
    return writers;
  };
  std::string error;
  int variant = 0;
  for (const size_t reduction : {size_t{0}, size_t{3}, SIZE_MAX}) {  // SIZE_MAX: one partial round of two runs
    INFO("fan-in " << reduction);
    for (auto& e : expected) e.clear();
    const auto writers = write_runs("v" + std::to_string(variant++));
    for (size_t p = 0; p < indexer::kRunPartitions; ++p) {
      if (!indexer::holds_positions(p)) continue;
      std::vector<std::string> runs;
      for (auto& w : writers) runs.insert(runs.end(), w.runs(p).begin(), w.runs(p).end());
      REQUIRE(runs.size() > 3);
      const size_t fan_in = reduction == SIZE_MAX ? runs.size() - 1 : reduction;
      if (fan_in) {
        std::string name = "reduced-p";
        name += std::to_string(p) + "-" + std::to_string(variant);
        const size_t before = runs.size();
        REQUIRE(indexer::reduce_runs(runs, fan_in, fan_in * indexer::kLeastRunReadBuffer, dir.string(), name, &error,
                                     indexer::RunContent::Positions));
        CHECK(runs.size() <= fan_in);
        if (reduction == SIZE_MAX) CHECK(runs.size() == before - 1);  // two merged, the others kept
      }
      std::vector<std::pair<uint64_t, std::vector<uint32_t>>> by_slices, wanted;
      for (const auto& [h, games] : expected[p]) wanted.emplace_back(h, std::vector<uint32_t>(games.begin(), games.end()));
      indexer::PositionMerge positions;
      REQUIRE(positions.open(runs, &error, fan_in ? 1 : SIZE_MAX));
      uint64_t hash = 0;
      std::vector<uint32_t> games;
      while (positions.next(hash, games)) by_slices.emplace_back(hash, games);
      CHECK(positions.error().empty());
      CHECK(by_slices.size() > 100);
      CHECK(by_slices == wanted);
      size_t longest = 0;
      for (const auto& [h, g] : by_slices) longest = std::max(longest, g.size());
      if (p == indexer::run_partition(std::string(1, char(store::Family::Similar)) + char(hashes[3] >> 56))) {
        CHECK(longest > 5000);  // (the long path's memory: the next test)
      }
    }
  }
  // A run of another family's records is refused, with its name.
  indexer::RunWriter other(dir.string(), "m", 100);
  other.add(store::Family::Material, "KQkq", 1);
  REQUIRE(other.finish(&error));
  indexer::PositionMerge positions;
  std::vector<std::string> runs = other.runs(2);
  REQUIRE(runs.size() == 1);
  CHECK_FALSE(positions.open(runs, &error));
  CHECK_THAT(error, Catch::Contains(runs[0]) && Catch::Contains("not a run of position postings"));
  fs::remove_all(dir);
}
