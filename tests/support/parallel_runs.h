#pragma once
// Test support: runs many independent checks (mostly `cqlindex` processes) a few at a time (the machine has 2
// cores), so a test over a large golden set stays fast and can report every disagreement at once. The work
// function must not use Catch2 assertions (they are not thread-safe): it records its verdict, the test asserts.
#include <atomic>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace cqlindex::test {

// Calls `work(i)` for every i in [0, n) on `jobs` threads; returns when all are done.
inline void parallel_for(size_t n, int jobs, const std::function<void(size_t)>& work) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) work(i);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < jobs; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
}

// Returns true when the long tests were asked for: CQLINDEX_LONG_TESTS=1 when the suite was built (scripts/build
// turns it into the CMake option, which defines CQLINDEX_LONG_TESTS_BUILD) or in the environment of the run.
inline bool long_tests_enabled() {
#ifdef CQLINDEX_LONG_TESTS_BUILD
  return true;
#else
  const char* v = std::getenv("CQLINDEX_LONG_TESTS");
  return v && std::string(v) == "1";
#endif
}

}  // namespace cqlindex::test
