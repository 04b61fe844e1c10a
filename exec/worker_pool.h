#pragma once
// The execution layer's one worker pool: run, similar and yacpdb hand it their independent pieces of work
// (candidate games, output chunks, problem entries), either in no particular order (parallel_for) or with the
// results delivered in order on the calling thread (for_each_in_order). Workers are threads started for the
// call and joined before it returns; when the system gives no more threads, fewer threads do all of the work.
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

// Runs work(i, worker) for every i in [0, n), `threads` workers at a time over batches of `batch` items a worker
// (worker w takes items w, w + threads, ... of a batch, so state kept per worker needs no lock), and after each
// batch deliver(i, result) on the calling thread in the order of i: memory follows the batch, not n. Stops at
// the first item whose work gave nothing (returns false with its index in `*failed`) or whose deliver returned
// false (returns true); nothing after it is delivered.
template <class R>
bool for_each_in_order(size_t n, unsigned threads, size_t batch,
                       const std::function<std::optional<R>(size_t, unsigned)>& work,
                       const std::function<bool(size_t, R&&)>& deliver, size_t* failed = nullptr) {
  threads = std::max(1u, threads);
  const size_t step = std::max<size_t>(batch, 1) * threads;
  std::vector<std::optional<R>> results;
  for (size_t start = 0; start < n; start += step) {
    const size_t count = std::min(step, n - start);
    results.assign(count, std::nullopt);
    const unsigned workers = unsigned(std::min<size_t>(threads, count));
    run_workers(workers, [&](unsigned w) {
      for (size_t i = w; i < count; i += workers)
        if (!(results[i] = work(start + i, w))) return;  // the items after it in this worker stay undone
    });
    for (size_t i = 0; i < count; ++i) {
      if (!results[i]) {
        if (failed) *failed = start + i;
        return false;
      }
      if (!deliver(start + i, std::move(*results[i]))) return true;
    }
  }
  return true;
}

}  // namespace cqlindex::exec
