// The tagkeys family's layout (store/key_directory.h): front-coded keys in chunks; pinned, read back, refused
// when malformed.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "store/key_directory.h"

using namespace std::string_literals;

using namespace cqlindex;

namespace {

// Returns the keys of `value`, read back; `ok` says whether the chunk read.
std::vector<std::string> read_back(std::string_view value, uint64_t& games, bool& ok) {
  std::vector<std::string> keys;
  ok = store::read_directory_chunk(value, games, [&](std::string_view key) {
    keys.emplace_back(key);
    return true;
  });
  return keys;
}

}  // namespace

TEST_CASE("key directory: games, count, then each key as bytes shared with the one before and the rest",
          "[store][keys]") {
  const std::vector<std::string> keys = {"Black\0Kar"s, "Black\0Karpov"s, "White\0Tal"s};
  const auto chunks = store::directory_chunks(keys, 300);
  REQUIRE(chunks.size() == 1);
  CHECK(chunks[0].first == keys[0]);
  const std::string expected = "\xAC\x02"s  // 300 games
                               "\x03"       // 3 keys
                               "\x00\x09" "Black\0Kar"s
                               "\x09\x03" "pov"
                               "\x00\x09" "White\0Tal"s;
  CHECK(chunks[0].second == expected);
  uint64_t games = 0;
  bool ok = false;
  CHECK(read_back(chunks[0].second, games, ok) == keys);
  CHECK(ok);
  CHECK(games == 300);
}

TEST_CASE("key directory: chunks of at most the bytes asked, each named by its first key, a long key alone",
          "[store][keys]") {
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back("White" + std::string(1, '\0') + "Player " + std::to_string(10000 + i));
  keys.push_back("Zz" + std::string(5000, 'x'));  // longer than a chunk: a chunk of its own
  const auto chunks = store::directory_chunks(keys, 7, 512);
  REQUIRE(chunks.size() > 5);  // (front coding keeps about 5 bytes of each 18-byte name)
  std::vector<std::string> all;
  for (const auto& [first, value] : chunks) {
    uint64_t games = 0;
    bool ok = false;
    const auto read = read_back(value, games, ok);
    REQUIRE(ok);
    CHECK(games == 7);
    REQUIRE_FALSE(read.empty());
    CHECK(read.front() == first);
    if (read.size() > 1) CHECK(value.size() <= 512 + 8);  // the body within the bytes asked, and the header
    all.insert(all.end(), read.begin(), read.end());
  }
  CHECK(all == keys);
  CHECK(chunks.back().first == keys.back());
  CHECK(store::directory_chunks({}, 7).empty());
}

TEST_CASE("key directory: a visit that stops early stops the read", "[store][keys]") {
  const auto chunks = store::directory_chunks({"a", "b", "c"}, 1);
  uint64_t games = 0;
  std::vector<std::string> seen;
  CHECK(store::read_directory_chunk(chunks[0].second, games, [&](std::string_view key) {
    seen.emplace_back(key);
    return key != "b";
  }));
  CHECK(seen == std::vector<std::string>{"a", "b"});
}

TEST_CASE("key directory: a malformed or unordered chunk is refused", "[store][keys]") {
  uint64_t games = 0;
  bool ok = true;
  for (const std::string& bad : {
           ""s,                             // no header
           "\x01"s,                         // no count
           "\x01\x02\x00\x01" "a"s,         // two keys announced, one there
           "\x01\x01\x00\x05" "ab"s,        // a key longer than what is left
           "\x01\x01\x01\x01" "a"s,         // the first key shares bytes with none
           "\x01\x02\x00\x01" "b" "\x00\x01" "a"s,   // not increasing
           "\x01\x02\x00\x01" "b" "\x01\x00"s,       // the same key again
           "\x01\x02\x00\x02" "ab" "\x03\x01" "c"s,  // shares more than the key before has
           "\x01\x01\x00\x01" "a" "extra"s,          // bytes after the last key
       }) {
    INFO(bad.size());
    read_back(bad, games, ok);
    CHECK_FALSE(ok);
  }
}
