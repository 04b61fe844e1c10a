// Posting lists: both encodings, the choice between them, and refusal of damaged bytes.
#include <algorithm>
#include <random>

#include <catch2/catch.hpp>

#include "store/posting_list.h"
#include "store/varint.h"

using cqlindex::store::PostingList;

TEST_CASE("varints and big-endian keys have the documented layout", "[store]") {
  std::string out;
  cqlindex::store::put_varint(out, 0);
  cqlindex::store::put_varint(out, 127);
  cqlindex::store::put_varint(out, 300);
  REQUIRE(out == std::string("\x00\x7f\xac\x02", 4));
  std::string_view in = out;
  uint64_t v;
  REQUIRE(cqlindex::store::get_varint(in, v));
  REQUIRE(v == 0);
  REQUIRE(cqlindex::store::get_varint(in, v));
  REQUIRE(v == 127);
  REQUIRE(cqlindex::store::get_varint(in, v));
  REQUIRE(v == 300);
  REQUIRE_FALSE(cqlindex::store::get_varint(in, v));  // nothing left

  std::string a, b;
  cqlindex::store::put_be32(a, 255);
  cqlindex::store::put_be32(b, 256);
  REQUIRE(a == std::string("\x00\x00\x00\xff", 4));
  REQUIRE(a < b);  // keys sort by game id
  REQUIRE(cqlindex::store::get_be32(b) == 256);
}

TEST_CASE("a one-game posting list is its id alone, a few-game list the delta encoding", "[store]") {
  PostingList few;
  few.add(7);
  few.add(300);
  REQUIRE(few.encode() == std::string("D\x02\x07\xa5\x02", 5));  // format, count, 7, gap 293
  REQUIRE(*PostingList::decode(few.encode()) == few);
  PostingList list;
  list.add(116572);
  std::string bytes = list.encode();
  REQUIRE(bytes[0] == 'S');
  REQUIRE(bytes.size() == 1 + 3);  // format, id as a 3-byte varint
  auto back = PostingList::decode(bytes);
  REQUIRE(back);
  REQUIRE(*back == list);
}

TEST_CASE("a dense posting list is CRoaring's portable format", "[store]") {
  PostingList list;
  for (uint32_t id = 0; id < 100000; ++id) list.add(id);
  std::string bytes = list.encode();
  REQUIRE(bytes[0] == 'R');
  REQUIRE(bytes.size() < 100);  // one run container
  auto back = PostingList::decode(bytes);
  REQUIRE(back);
  REQUIRE(*back == list);
  REQUIRE(back->size() == 100000);
}

TEST_CASE("posting lists round-trip for random sets of every size", "[store]") {
  std::mt19937 rng(12345);
  for (int size : {0, 1, 2, 5, 40, 300, 5000}) {
    PostingList list;
    std::uniform_int_distribution<uint32_t> id(0, size < 100 ? 200000 : 20000);
    for (int i = 0; i < size; ++i) list.add(id(rng));
    auto back = PostingList::decode(list.encode());
    REQUIRE(back);
    REQUIRE(*back == list);
  }
}

TEST_CASE("damaged posting list bytes are refused, never misread", "[store]") {
  std::string error;
  REQUIRE_FALSE(PostingList::decode("", &error));
  REQUIRE_FALSE(PostingList::decode("X\x01\x01", &error));
  REQUIRE(error == "unknown posting list format");
  REQUIRE_FALSE(PostingList::decode(std::string("D\x02\x05", 3), &error));  // says 2 ids, has 1
  REQUIRE_FALSE(PostingList::decode(std::string("D\x02\x05\x00", 4), &error));  // repeated id
  REQUIRE_FALSE(PostingList::decode(std::string("D\x01\x05\x07", 4), &error));  // trailing byte
  REQUIRE_FALSE(PostingList::decode(std::string("S\x85", 2), &error));              // truncated id
  REQUIRE_FALSE(PostingList::decode(std::string("S\x05\x01", 3), &error));          // trailing byte
  REQUIRE_FALSE(PostingList::decode(std::string("R\x3a\x30\x00", 4), &error));  // truncated roaring

  // Random bytes and random truncations of real encodings never crash.
  std::mt19937 rng(7);
  PostingList dense;
  for (uint32_t i = 0; i < 3000; i += 3) dense.add(i);
  std::string good = dense.encode();
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bytes = good.substr(0, rng() % good.size());
    if (!bytes.empty() && trial % 2) bytes[rng() % bytes.size()] ^= static_cast<char>(1 + rng() % 255);
    (void)PostingList::decode(bytes, &error);
  }
}

TEST_CASE("encode_sorted equals encode, and the short-list shortcut never picks the larger form", "[store]") {
  std::mt19937 rng(20261123);
  for (int round = 0; round < 3000; ++round) {
    const uint32_t count = 1 + rng() % (round < 2000 ? 12 : 3000);
    const uint32_t spread = 1u << (rng() % 26);  // from dense runs to ids scattered over 64M
    std::vector<uint32_t> ids;  // increasing, as encode_sorted wants: ids stop short of 2^32 (no wrap)
    uint64_t id = rng() % spread;
    for (uint32_t i = 0; i < count && id <= UINT32_MAX; ++i, id += 1 + rng() % spread)
      ids.push_back(static_cast<uint32_t>(id));
    PostingList list;
    for (uint32_t x : ids) list.add(x);
    const std::string bytes = list.encode();
    REQUIRE(PostingList::encode_sorted(ids) == bytes);
    REQUIRE(*PostingList::decode(bytes) == list);
    // The bound behind the shortcut: no non-empty bitmap serialises in fewer than 15 bytes.
    Roaring optimised = list.bits();
    optimised.runOptimize();
    REQUIRE(optimised.getSizeInBytes(true) >= 15);
    if (bytes[0] == 'D') REQUIRE(bytes.size() <= optimised.getSizeInBytes(true) + 1);
  }
}

TEST_CASE("encode_sorted equals encode for games clustered in a few of many containers", "[store]") {
  // Near the choice between the forms: runs and scattered ids inside a few 65,536-id containers of a large build,
  // where the varint form and the bitmap are close in size (encode_sorted then decides without a bitmap only
  // when a bound proves the varint form the smaller).
  std::mt19937 rng(20261125);
  for (int round = 0; round < 20000; ++round) {
    const uint32_t containers = 1 + rng() % 12, per = 1 + rng() % (round % 10 == 0 ? 6000 : 40);
    std::vector<uint32_t> ids;
    for (uint32_t c = 0; c < containers; ++c) {
      const uint32_t base = (rng() % 256) << 16, gap = 1u << (rng() % 12);
      uint32_t id = base + rng() % 1024;
      for (uint32_t i = 0; i < per && (id >> 16) == (base >> 16); ++i) {
        ids.push_back(id);
        id += rng() % 3 == 0 ? 1 : 1 + rng() % gap;
      }
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    PostingList list;
    for (uint32_t x : ids) list.add(x);
    REQUIRE(PostingList::encode_sorted(ids) == list.encode());
  }
}
