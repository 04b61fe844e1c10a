// The similar family's layout (store/position_buckets.h): hash split, byte order, bucket values read back,
// and damaged values refused.
#include <algorithm>
#include <map>
#include <random>

#include <catch2/catch.hpp>

#include "store/position_buckets.h"

using namespace cqlindex::store;

namespace {

std::vector<uint32_t> ids_of(const PostingList& list) {
  std::vector<uint32_t> ids(list.size());
  list.bits().toUint32Array(ids.data());
  return ids;
}

}  // namespace

TEST_CASE("position hash: XXH3-64 cut into a 16-bit bucket and the next 32 bits", "[store]") {
  // XXH3_64bits of the empty input is 0x2D06800538D394C2 (xxHash's reference value): the layout is pinned, so an
  // index written by one build is read by another.
  CHECK(position_hash("") == PositionHash{0x2D06, 0x800538D3});
  char bytes[kPositionHashBytes];
  write_position_hash(PositionHash{0x2D06, 0x800538D3}, bytes);
  CHECK(std::string(bytes, sizeof bytes) == std::string("\x2D\x06\x80\x05\x38\xD3", 6));
  CHECK(read_position_hash(std::string_view(bytes, sizeof bytes)) == PositionHash{0x2D06, 0x800538D3});
  CHECK(bucket_key(0x2D06) == std::string("\x2D\x06", 2));
}

TEST_CASE("position hash: byte order of the 6-byte form is bucket-then-tag order", "[store]") {
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) {
    PositionHash a{static_cast<uint16_t>(rng()), static_cast<uint32_t>(rng())};
    PositionHash b{static_cast<uint16_t>(rng() % 4 ? a.bucket : rng()), static_cast<uint32_t>(rng())};
    char x[kPositionHashBytes], y[kPositionHashBytes];
    write_position_hash(a, x);
    write_position_hash(b, y);
    const bool numeric = a.bucket != b.bucket ? a.bucket < b.bucket : a.tag < b.tag;
    CHECK((std::string_view(x, 6) < std::string_view(y, 6)) == numeric);
  }
}

TEST_CASE("position bucket: every entry is found again, absent tags give no games", "[store]") {
  std::mt19937 rng(3);
  std::map<uint32_t, std::vector<uint32_t>> entries;
  for (int i = 0; i < 300; ++i) {
    std::vector<uint32_t> ids;
    const int n = i % 5 == 0 ? 1 + int(rng() % 40) : 1;  // most positions are in one game
    for (int k = 0; k < n; ++k) ids.push_back(rng() % 200000);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    entries[uint32_t(rng()) | 1] = ids;  // odd tags: even ones are certainly absent
  }
  PositionBucketWriter writer;
  for (const auto& [tag, ids] : entries) {
    if (tag % 3 == 0) writer.add(tag, PostingList(Roaring(ids.size(), ids.data())));
    else writer.add(tag, ids);
  }
  const std::string value = writer.take();
  CHECK(writer.empty());
  std::string error;
  for (const auto& [tag, ids] : entries) {
    auto found = find_in_bucket(value, tag, &error);
    REQUIRE(found);
    CHECK(ids_of(*found) == ids);
    auto absent = find_in_bucket(value, tag + 1, &error);
    REQUIRE(absent);
    CHECK(absent->empty());
  }
  auto before_all = find_in_bucket(value, 0, &error);
  REQUIRE(before_all);
  CHECK(before_all->empty());
  CHECK(bucket_entry_count(value, &error) == entries.size());
  std::vector<uint32_t> order;
  REQUIRE(for_each_in_bucket(value, [&](uint32_t tag, PostingList&& games) {
    order.push_back(tag);
    CHECK(ids_of(games) == entries[tag]);
  }, &error));
  CHECK(order.size() == entries.size());
  CHECK(std::is_sorted(order.begin(), order.end()));
  // The empty value is an empty bucket.
  CHECK(bucket_entry_count("", &error) == 0u);
}

TEST_CASE("position bucket: damaged values are refused, never misread", "[store]") {
  PositionBucketWriter writer;
  writer.add(5, std::vector<uint32_t>{7});
  writer.add(9, std::vector<uint32_t>{1, 2, 3});
  const std::string value = writer.take();
  std::string error;
  // Every truncation either fails or, cut at an entry's end, reads as a shorter bucket.
  for (size_t n = 1; n < value.size(); ++n) {
    auto count = bucket_entry_count(value.substr(0, n), &error);
    if (count) CHECK(*count < 2);
    else CHECK(error.find("damaged position bucket") == 0);
  }
  // Tags out of order.
  PositionBucketWriter backwards;
  backwards.add(9, std::vector<uint32_t>{1});
  backwards.add(5, std::vector<uint32_t>{2});
  CHECK_FALSE(find_in_bucket(backwards.take(), 10, &error));  // read past tag 9 to tag 5
  CHECK(error == "damaged position bucket: tags out of order");
  // A posting list that does not decode.
  std::string bad = value;
  REQUIRE(bad.size() == 15);  // tag 5, its game; tag 9, length 5, then 'D' 3 1 1 1
  REQUIRE(bad[10] == 'D');
  bad[10] = 'X';  // the format byte of tag 9's games
  CHECK_FALSE(find_in_bucket(bad, 9, &error));
  CHECK(error.find("damaged position bucket") == 0);
  // An entry whose games are an empty list (a writer never writes one; found by store_values_fuzz).
  const std::string empty_games("\0\0\0\1\x05" "D\0", 7);
  CHECK_FALSE(find_in_bucket(empty_games, 1, &error));
  CHECK(error == "damaged position bucket: an entry without games");
}
