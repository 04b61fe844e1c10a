// A run's position postings binned by their top byte (indexer/position_bins.h): each bin's values, in the order
// of the top byte, whatever the order they came in; bins of many blocks, empty bins, a reuse after clear(), and
// more values than reserved.
#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "indexer/position_bins.h"

using namespace cqlindex;

TEST_CASE("position bins: every value in the bin of its top byte, bins in order", "[indexer]") {
  std::mt19937_64 rng(59);
  indexer::PositionBins bins;
  for (int round = 0; round < 3; ++round) {  // the same bins, cleared between rounds
    INFO("round " << round);
    const size_t n = round == 2 ? 50000 : 20000;
    bins.reserve(20000);  // round 2: more values than reserved
    std::map<size_t, std::vector<uint64_t>> expected;  // top byte -> values
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = rng();
      if (i % 3 == 0) v = (uint64_t{0x7F} << 56) | (v >> 8);  // one bin of thousands: many blocks
      if (round == 1) v &= ~(uint64_t{0x01} << 56);          // half the bins empty
      bins.add(v);
      expected[v >> 56].push_back(v);
    }
    CHECK(bins.size() == n);
    std::vector<size_t> seen;
    REQUIRE(bins.for_each_bin([&](uint64_t* first, uint64_t* last) {
      REQUIRE(first != last);
      const size_t bin = *first >> 56;
      seen.push_back(bin);
      std::vector<uint64_t> got(first, last), want = expected[bin];
      CHECK(std::all_of(first, last, [&](uint64_t v) { return v >> 56 == bin; }));
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      CHECK(got == want);
      return true;
    }));
    CHECK(seen.size() == expected.size());
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    bins.clear();
    CHECK(bins.empty());
  }
  // visit may stop the walk
  bins.add(uint64_t{1} << 56);
  bins.add(uint64_t{2} << 56);
  int visited = 0;
  CHECK_FALSE(bins.for_each_bin([&](uint64_t*, uint64_t*) { return ++visited < 1; }));
  CHECK(visited == 1);
  bins.release();
  CHECK(bins.empty());
}
