#pragma once
// The execution layer's one worker pool: run, similar and yacpdb hand it their independent pieces of work
// (candidate games, output chunks, problem entries), either in no particular order (parallel_for) or with the
// results delivered in order on the calling thread (for_each_in_order). Workers are threads started for the
// call and joined before it returns; when the system gives no more threads, fewer threads do all of the work.
// The first exception of a worker or of the calling thread (out of memory) stops the others (no more items are
// begun) and leaves the call once every thread is joined.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace cqlindex::exec {

// Runs f(worker) once for every worker in [0, workers), each on its own thread where the system gives one (the
// calling thread is one of them, and takes the workers left over, one after the other).
void run_workers(unsigned workers, const std::function<void(unsigned)>& f);

// Runs f(i, worker) for every i in [0, n) on up to `threads` workers, in no particular order (worker in
// [0, threads): state kept per worker needs no lock); returns when all are done.
void parallel_for(size_t n, unsigned threads, const std::function<void(size_t, unsigned)>& f);

// The scheduler of for_each_in_order: compute(i, worker) for every i in [0, n) on `threads` worker threads,
// which claim batches of `batch` items in order, at most `window` batches ahead of the delivery; deliver(i) on
// the calling thread in the order of i, each once compute(i) is done, while the workers go on. compute returning
// false stops the run there (returns false, its index in `*failed`; the items after it in its batch stay undone,
// no batch after it is begun); deliver returning false stops it (returns true). One thread (or none to be had):
// compute and deliver alternate, item by item, on the calling thread.
bool run_in_order(size_t n, unsigned threads, size_t batch, size_t window,
                  const std::function<bool(size_t, unsigned)>& compute, const std::function<bool(size_t)>& deliver,
                  size_t* failed);

// Runs work(i, worker) for every i in [0, n) on up to `threads` workers (worker in [0, threads): state kept per
// worker needs no lock), each taking `batch` items at a time, and deliver(i, result) on the calling thread in the
// order of i while the workers go on with the next batches: memory follows the batch and the thread count, not n.
// Stops at the first item whose work gave nothing (returns false with its index in `*failed`) or whose deliver
// returned false (returns true); nothing after it is delivered.
template <class R>
bool for_each_in_order(size_t n, unsigned threads, size_t batch,
                       const std::function<std::optional<R>(size_t, unsigned)>& work,
                       const std::function<bool(size_t, R&&)>& deliver, size_t* failed = nullptr) {
  threads = unsigned(std::min<size_t>(std::max(1u, threads), std::max<size_t>(n, 1)));
  batch = std::max<size_t>(batch, 1);
  const size_t window = size_t(threads) * 2;  // batches in flight: one worked on and one waiting, a worker
  // item i in slot i % size, reused once i was delivered (one thread: each item is delivered as soon as done)
  std::vector<std::optional<R>> slots(threads == 1 ? 1 : window * batch);
  return run_in_order(
      n, threads, batch, window,
      [&](size_t i, unsigned w) { return (slots[i % slots.size()] = work(i, w)).has_value(); },
      [&](size_t i) {
        std::optional<R>& slot = slots[i % slots.size()];
        const bool go_on = deliver(i, std::move(*slot));
        slot.reset();
        return go_on;
      },
      failed);
}

}  // namespace cqlindex::exec
