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

TEST_CASE("position hash: XXH3-64, the tag is its bits 16-47 and the bucket its first bits in 4 bytes", "[store]") {
  // XXH3_64bits of the empty input is 0x2D06800538D394C2 (xxHash's reference value): the layout is pinned, so an
  // index written by one build is read by another.
  const uint64_t h = position_hash("");
  CHECK(h == 0x2D06800538D394C2ull);
  CHECK(position_tag(h) == 0x800538D3u);
  CHECK(position_bucket(h, 16) == 0x2D060000u);
  CHECK(position_bucket(h, 17) == 0x2D068000u);
  CHECK(position_bucket(h, 24) == 0x2D068000u);
  CHECK(position_bucket(h, 32) == 0x2D068005u);
  CHECK(bucket_key(position_bucket(h, 16)) == std::string("\x2D\x06\0\0", 4));
  char bytes[kPositionHashBytes];
  write_position_hash(h, bytes);
  CHECK(std::string(bytes, sizeof bytes) == std::string("\x2D\x06\x80\x05\x38\xD3", 6));
  CHECK(read_position_hash(std::string_view(bytes, sizeof bytes)) == 0x2D06800538D30000ull);
}

TEST_CASE("position hash: byte order of the 6-byte form is hash order, so bucket-then-tag order at every bucket count",
          "[store]") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t a = rng();
    const uint64_t b = rng() % 4 ? (a & ~((uint64_t{1} << (rng() % 48)) - 1)) | (rng() >> 20) : rng();
    char x[kPositionHashBytes], y[kPositionHashBytes];
    write_position_hash(a, x);
    write_position_hash(b, y);
    CHECK((std::string_view(x, 6) < std::string_view(y, 6)) == ((a >> 16) < (b >> 16)));
    for (unsigned bits : {16u, 19u, 24u, 32u}) {
      const auto ka = bucket_key(position_bucket(a, bits)), kb = bucket_key(position_bucket(b, bits));
      if ((a >> 16) < (b >> 16)) CHECK(ka <= kb);
      if (ka == kb) CHECK(a >> (64 - bits) == b >> (64 - bits));  // same bucket: same first `bits` bits
    }
  }
}

TEST_CASE("position buckets split without the position keys: the tag holds the bits past the bucket's", "[store]") {
  // A bucket of b bits is the union of the two buckets of b + 1 bits whose keys start with its bits, and which
  // of them a position falls in is told by its tag (it repeats the hash's bits 16 to 47).
  std::mt19937_64 rng(5);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t h = rng();
    for (unsigned bits = kMinBucketBits; bits < kMaxBucketBits; ++bits) {
      const uint32_t parent = position_bucket(h, bits), child = position_bucket(h, bits + 1);
      CHECK((child & ~(0xFFFFFFFFu >> bits)) == parent);
      const uint32_t from_tag = (parent | ((position_tag(h) >> (47 - bits)) & 1u) << (31 - bits));
      CHECK(from_tag == child);
    }
  }
}

TEST_CASE("bucket bits grow with the family so that a bucket stays about 1 KiB", "[store]") {
  CHECK(similar_bucket_bits(0, 0) == kMinBucketBits);
  // The 116,573-game train file: 6.4 million positions, most in one game: 65,536 buckets, as before.
  CHECK(similar_bucket_bits(5'500'000, 6'400'000) == 16);
  // Ten times the positions: 8 times the buckets; a hundred million games: 2^26 buckets.
  CHECK(similar_bucket_bits(55'000'000, 64'000'000) == 19);
  CHECK(similar_bucket_bits(5'000'000'000ull, 8'000'000'000ull) == 26);
  // Repeated games: few distinct positions filed many times also fill buckets.
  CHECK(similar_bucket_bits(6'500'000, 550'000'000) == 21);
  CHECK(similar_bucket_bits(uint64_t{1} << 60, uint64_t{1} << 60) == kMaxBucketBits);
  for (uint64_t n = 1000; n < (uint64_t{1} << 40); n *= 3) {
    const unsigned bits = similar_bucket_bits(n, n);
    CHECK(((7 * n) >> bits) <= 1024);                                   // at most 1 KiB a bucket
    if (bits > kMinBucketBits) CHECK(((7 * n) >> (bits - 1)) > 1024);  // and no more buckets than that needs
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
