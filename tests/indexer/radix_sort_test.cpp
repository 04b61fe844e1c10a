// The radix sorts of a build's position postings (indexer/radix_sort.h): the same order as std::sort, in place
// and into a second buffer, over uniform values, values sharing their top bytes, repeats, and small ranges.
#include <algorithm>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "indexer/radix_sort.h"

using namespace cqlindex;

TEST_CASE("radix sorts: in place and into a buffer, the order std::sort gives", "[indexer]") {
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
      std::vector<uint64_t> in_place = values;
      indexer::radix_sort(in_place.data(), in_place.data() + n, 56);
      CHECK(in_place == expected);
      std::vector<uint64_t> into(n, 7);
      const std::vector<uint64_t> before = values;
      indexer::radix_sort_into(values.data(), values.data() + n, into.data());
      CHECK(into == expected);
      CHECK(values == before);  // the source is left as it was
    }
  }
}
