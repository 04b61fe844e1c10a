// Postings grouped by key (indexer/key_groups.h): the keys come back in byte order with their games increasing
// and without duplicates, whatever order the postings came in, and a cleared group set starts afresh.
#include <map>
#include <random>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "indexer/key_groups.h"

using namespace cqlindex;

namespace {

// Returns what `groups` yields, as key -> games.
std::map<std::string, std::vector<uint32_t>> yielded(indexer::KeyGroups& groups) {
  std::map<std::string, std::vector<uint32_t>> out;
  std::string previous;
  bool first = true;
  groups.for_each_in_order([&](std::string_view key, const uint32_t* games, uint32_t count) {
    CHECK((first || previous < std::string(key)));  // strictly increasing bytes
    previous = std::string(key);
    first = false;
    out[previous].assign(games, games + count);
    return true;
  });
  return out;
}

}  // namespace

TEST_CASE("key groups: keys in byte order, games sorted and unique, across table growth and clear", "[indexer]") {
  std::mt19937 rng(11);
  // Keys that share prefixes, hold zero and high bytes, or are one a prefix of another.
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) {
    std::string key(1, static_cast<char>(3 + i % 3));  // a family byte
    if (i % 7 == 0) key += std::string(20, '\xF0');
    const size_t length = rng() % 30;
    for (size_t k = 0; k < length; ++k) key.push_back(static_cast<char>(rng() % 3 == 0 ? 0 : rng() % 256));
    keys.push_back(key);
    keys.push_back(key + std::string(1, '\0'));
  }
  indexer::KeyGroups groups;
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    std::map<std::string, std::set<uint32_t>> expected;
    uint32_t game = 0;
    for (int n = 0; n < 200000; ++n) {
      // Mostly increasing games, as a build gives them; round 1 also sends earlier ones and repeats.
      game += rng() % 3 == 0;
      uint32_t g = game;
      if (round == 1 && rng() % 10 == 0) g = static_cast<uint32_t>(rng() % (game + 1));
      const std::string& key = keys[rng() % (round == 2 ? 50 : keys.size())];
      groups.add(key, g);
      expected[key].insert(g);
    }
    REQUIRE(groups.size() == 200000);
    const auto got = yielded(groups);
    REQUIRE(got.size() == expected.size());
    for (const auto& [key, games] : expected) {
      REQUIRE(got.count(key) == 1);
      CHECK(got.at(key) == std::vector<uint32_t>(games.begin(), games.end()));
    }
    groups.clear();
    CHECK(groups.empty());
  }
}

TEST_CASE("key groups: a visit that returns false stops the walk", "[indexer]") {
  indexer::KeyGroups groups;
  for (const char* key : {"\x05" "c", "\x05" "a", "\x05" "b"}) groups.add(key, 1);
  std::vector<std::string> seen;
  CHECK_FALSE(groups.for_each_in_order([&](std::string_view key, const uint32_t*, uint32_t) {
    seen.emplace_back(key);
    return seen.size() < 2;
  }));
  CHECK(seen == std::vector<std::string>{"\x05" "a", "\x05" "b"});
  groups.release();
  CHECK(groups.empty());
}
