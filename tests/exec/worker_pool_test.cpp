// The worker pool's in-order delivery (exec/worker_pool.h): every item delivered once, in order, on the calling
// thread, whatever the thread count and batch size; a failed item or a refused delivery stops the run there.
#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <new>
#include <set>
#include <thread>
#include <vector>

#include "exec/worker_pool.h"

using cqlindex::exec::for_each_in_order;

namespace {

struct Item {
  size_t index = 0;
  unsigned worker = 0;
};

}  // namespace

TEST_CASE("for_each_in_order delivers every item once, in order, on the calling thread", "[exec][worker_pool]") {
  for (unsigned threads : {1u, 2u, 3u, 8u})
    for (size_t batch : {size_t(1), size_t(3), size_t(64)})
      for (size_t n : {size_t(0), size_t(1), size_t(5), size_t(1000)}) {
        INFO("threads " << threads << ", batch " << batch << ", n " << n);
        std::vector<std::atomic<int>> worked(n);
        std::mutex mu;
        std::set<std::pair<std::thread::id, unsigned>> worker_ids;  // which thread ran under which worker number
        std::vector<size_t> delivered;
        bool on_caller = true;
        const std::thread::id caller = std::this_thread::get_id();
        const bool finished = for_each_in_order<Item>(
            n, threads, batch,
            [&](size_t i, unsigned w) -> std::optional<Item> {
              ++worked[i];
              std::lock_guard lock(mu);
              worker_ids.insert({std::this_thread::get_id(), w});
              return Item{i, w};
            },
            [&](size_t i, Item&& item) {
              on_caller = on_caller && std::this_thread::get_id() == caller;
              CHECK(item.index == i);
              CHECK(item.worker < threads);
              delivered.push_back(i);
              return true;
            });
        CHECK(finished);
        CHECK(on_caller);
        REQUIRE(delivered.size() == n);
        for (size_t i = 0; i < n; ++i) {
          CHECK(delivered[i] == i);
          CHECK(worked[i] == 1);
        }
        // a worker number belongs to one thread at a time: per-worker state needs no lock
        std::set<unsigned> numbers;
        for (const auto& [id, w] : worker_ids) numbers.insert(w);
        std::set<std::thread::id> threads_seen;
        for (const auto& [id, w] : worker_ids) threads_seen.insert(id);
        CHECK(numbers.size() == worker_ids.size());
        CHECK(threads_seen.size() == worker_ids.size());
      }
}

TEST_CASE("for_each_in_order stops at a failed item: those before it delivered, none after", "[exec][worker_pool]") {
  for (unsigned threads : {1u, 2u, 4u})
    for (size_t batch : {size_t(1), size_t(7), size_t(64)}) {
      INFO("threads " << threads << ", batch " << batch);
      const size_t n = 500, bad = 213;
      std::vector<size_t> delivered;
      size_t failed = 0;
      const bool finished = for_each_in_order<size_t>(
          n, threads, batch,
          [&](size_t i, unsigned) -> std::optional<size_t> {
            if (i == bad) return std::nullopt;
            return i;
          },
          [&](size_t i, size_t&&) {
            delivered.push_back(i);
            return true;
          },
          &failed);
      CHECK_FALSE(finished);
      CHECK(failed == bad);
      REQUIRE(delivered.size() == bad);
      for (size_t i = 0; i < bad; ++i) CHECK(delivered[i] == i);
    }
}

TEST_CASE("for_each_in_order stops when a delivery says so, and works at most a window ahead", "[exec][worker_pool]") {
  for (unsigned threads : {1u, 2u, 4u}) {
    INFO("threads " << threads);
    const size_t n = 100000, batch = 16, last = 99;
    std::atomic<size_t> worked{0};
    size_t count = 0;
    const bool finished = for_each_in_order<int>(
        n, threads, batch,
        [&](size_t, unsigned) -> std::optional<int> {
          ++worked;
          return 1;
        },
        [&](size_t i, int&&) {
          ++count;
          return i < last;
        });
    CHECK(finished);  // a refused delivery is not a failure
    CHECK(count == last + 1);
    // the workers run ahead of the delivery by a bounded window (2 batches a thread), not to the end
    CHECK(worked.load() <= last + 1 + (threads * 2 + 1) * batch);
  }
}

TEST_CASE("an exception of a worker or of the delivery leaves the pool after every thread stopped",
          "[exec][worker_pool]") {
  // (a thread left running while the exception leaves would end the process through std::terminate)
  for (unsigned threads : {1u, 2u, 4u}) {
    CAPTURE(threads);
    for (bool in_worker : {true, false}) {
      CAPTURE(in_worker);
      size_t delivered = 0;
      CHECK_THROWS_AS(for_each_in_order<Item>(
                          1000, threads, 4,
                          [&](size_t i, unsigned) -> std::optional<Item> {
                            if (in_worker && i == 300) throw std::bad_alloc();
                            return Item{i, 0};
                          },
                          [&](size_t i, Item&&) {
                            if (!in_worker && i == 300) throw std::bad_alloc();
                            ++delivered;
                            return true;
                          }),
                      std::bad_alloc);
      CHECK(delivered <= 300);
    }
    // parallel_for: the item that throws may fall to a started thread or to the calling one
    for (size_t throwing : {size_t(0), size_t(500), size_t(999)}) {
      CAPTURE(throwing);
      CHECK_THROWS_AS(cqlindex::exec::parallel_for(1000, threads,
                                                   [&](size_t i, unsigned) {
                                                     if (i == throwing) throw std::bad_alloc();
                                                   }),
                      std::bad_alloc);
    }
  }
}
