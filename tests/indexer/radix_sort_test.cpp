// The radix sort of a build's position postings (indexer/radix_sort.h): the order std::sort gives, over uniform
// values, values sharing their top bytes, repeats, and small ranges.
#include <algorithm>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "indexer/radix_sort.h"

using namespace cqlindex;

TEST_CASE("radix sort: the order std::sort gives", "[indexer]") {
  std::mt19937_64 rng(31);
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{63}, size_t{65}, size_t{1000}, size_t{300000}}) {
    for (int shape = 0; shape < 3; ++shape) {
      INFO("n " << n << ", shape " << shape);
      std::vector<uint64_t> values(n);
      for (uint64_t& v : values) {
        v = rng();
        if (shape == 1) v = (uint64_t{0xAB} << 56) | (v >> 40);  // one top byte, then zero bytes
        if (shape == 2) v = v % 50;                               // few values, repeated
      }
      std::vector<uint64_t> expected = values;
      std::sort(expected.begin(), expected.end());
      indexer::radix_sort(values.data(), values.data() + n, 56);
      CHECK(values == expected);
    }
  }
}

TEST_CASE("slice sorter: the order std::sort gives", "[indexer]") {
  std::mt19937_64 rng(37);
  indexer::SliceSorter sorter;  // one sorter for every case: its arrays are reused
  for (size_t n : {size_t{0}, size_t{1}, size_t{64}, size_t{65}, size_t{1200}, size_t{12000}, size_t{300000}}) {
    for (int shape = 0; shape < 4; ++shape) {
      INFO("n " << n << ", shape " << shape);
      std::vector<uint64_t> values(n);
      for (size_t i = 0; i < n; ++i) {
        uint64_t& v = values[i];
        v = rng();
        if (shape == 1) v = (uint64_t{0xAB} << 56) | (v >> 40);  // one top byte: a single bucket
        if (shape == 2) v = v % 50;                               // few values, repeated
        if (shape == 3 && i % 3 == 0) v = (uint64_t{0x12345678} << 32) | i;  // a hash in many runs, by game
      }
      if (shape == 3)  // as a slice comes: runs of 36 values, each sorted
        for (size_t at = 0; at < n; at += 36) std::sort(values.begin() + at, values.begin() + std::min(n, at + 36));
      std::vector<uint64_t> expected = values;
      std::sort(expected.begin(), expected.end());
      sorter.sort(values);
      CHECK(values == expected);
    }
  }
}

TEST_CASE("radix sort down to a digit: the order of the top bits, the same values", "[indexer]") {
  std::mt19937_64 rng(41);
  for (size_t n : {size_t{0}, size_t{1}, size_t{64}, size_t{65}, size_t{5000}, size_t{300000}}) {
    INFO("n " << n);
    std::vector<uint64_t> values(n);
    for (uint64_t& v : values) v = rng();
    std::vector<uint64_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    indexer::radix_sort(values.data(), values.data() + n, 56, 48);  // by the top 16 bits only
    CHECK(std::is_sorted(values.begin(), values.end(), [](uint64_t a, uint64_t b) { return a >> 48 < b >> 48; }));
    std::vector<uint64_t> again = values;
    std::sort(again.begin(), again.end());
    CHECK(again == sorted);  // a permutation of them
  }
}
