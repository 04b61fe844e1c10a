#include "exec/worker_pool.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace cqlindex::exec {

void run_workers(unsigned workers, const std::function<void(unsigned)>& f) {
  if (workers <= 1) {
    if (workers == 1) f(0);
    return;
  }
  // The first exception of any worker (out of memory) is rethrown here once every thread is joined: a thread
  // left joinable while an exception unwinds this frame would end the process through std::terminate.
  std::mutex mu;
  std::exception_ptr first_error;
  auto guarded = [&](unsigned w) {
    try {
      f(w);
    } catch (...) {
      std::lock_guard lock(mu);
      if (!first_error) first_error = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  unsigned started = 0;
  try {
    pool.reserve(workers - 1);
    for (; started + 1 < workers; ++started) pool.emplace_back(guarded, started);
  } catch (const std::exception&) {  // the system gives no more threads (ulimit -v, -u): this one takes the rest
  }
  for (unsigned w = started; w < workers; ++w) guarded(w);
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t, unsigned)>& f) {
  threads = std::max(1u, std::min<unsigned>(threads, unsigned(std::min<size_t>(n, 1024))));
  std::atomic<size_t> next{0};
  run_workers(threads, [&](unsigned w) {
    try {
      for (size_t i; (i = next.fetch_add(1)) < n;) f(i, w);
    } catch (...) {  // the others take no more items: the call ends with this exception
      next.store(n);
      throw;
    }
  });
}

bool run_in_order(size_t n, unsigned threads, size_t batch, size_t window,
                  const std::function<bool(size_t, unsigned)>& compute, const std::function<bool(size_t)>& deliver,
                  size_t* failed) {
  const size_t batches = (n + batch - 1) / batch;
  constexpr size_t kRunning = SIZE_MAX;
  std::mutex mu;
  std::condition_variable claimable, finished;
  size_t claimed = 0, delivered = 0;  // batches handed out, batches delivered
  bool stop = false;                  // no more batches are handed out
  // By batch slot (b % window): kRunning while batch b is worked on, else the index of its first item not done
  // (its end when all are: compute gave nothing at that item).
  std::vector<size_t> done_upto(window, kRunning);

  // The first exception of a worker (out of memory) ends the run: no batch is begun after it, and it is rethrown
  // on the calling thread once every thread is joined (a joinable thread unwound would end the process).
  std::exception_ptr first_error;

  auto worker = [&](unsigned w) {
    for (;;) {
      size_t b;
      {
        std::unique_lock lock(mu);
        claimable.wait(lock, [&] { return stop || claimed == batches || claimed < delivered + window; });
        if (stop || claimed == batches) return;
        b = claimed++;
      }
      const size_t end = std::min(n, (b + 1) * batch);
      size_t i = b * batch;
      try {
        while (i < end && compute(i, w)) ++i;
      } catch (...) {
        {
          std::lock_guard lock(mu);
          if (!first_error) first_error = std::current_exception();
          stop = true;
        }
        claimable.notify_all();
        finished.notify_one();
        return;
      }
      {
        std::lock_guard lock(mu);
        done_upto[b % window] = i;
        if (i < end) stop = true;  // the run ends at item i: no batch after this one is begun
      }
      finished.notify_one();
    }
  };

  std::vector<std::thread> pool;
  auto stop_and_join = [&] {
    {
      std::lock_guard lock(mu);
      stop = true;
    }
    claimable.notify_all();
    for (std::thread& t : pool) t.join();
  };
  bool all_done = true;
  try {
    for (unsigned w = 0; threads > 1 && w < threads; ++w) pool.emplace_back(worker, w);
  } catch (const std::exception&) {  // the system gives no more threads (ulimit -v, -u): fewer do it all
  }
  if (pool.empty()) {  // one thread, or not one to be had: the calling thread works and delivers, item by item
    for (size_t i = 0; i < n; ++i) {
      if (!compute(i, 0)) {
        if (failed) *failed = i;
        return false;
      }
      if (!deliver(i)) return true;
    }
    return true;
  }

  try {
    for (size_t b = 0; b < batches; ++b) {
      size_t upto;
      {
        std::unique_lock lock(mu);
        finished.wait(lock, [&] { return first_error || done_upto[b % window] != kRunning; });
        if (first_error) break;
        upto = std::exchange(done_upto[b % window], kRunning);
      }
      const size_t end = std::min(n, (b + 1) * batch);
      bool go_on = true;
      for (size_t i = b * batch; i < upto && go_on; ++i) go_on = deliver(i);
      if (go_on && upto < end) {
        if (failed) *failed = upto;
        all_done = false;
      }
      if (!go_on || upto < end) break;
      {
        std::lock_guard lock(mu);
        ++delivered;
      }
      claimable.notify_all();
    }
  } catch (...) {  // deliver threw: the workers stop before the exception leaves
    stop_and_join();
    throw;
  }
  stop_and_join();
  if (first_error) std::rethrow_exception(first_error);
  return all_done;
}

}  // namespace cqlindex::exec
