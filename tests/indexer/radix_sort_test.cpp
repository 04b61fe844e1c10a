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
