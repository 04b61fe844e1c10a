#include "exec/worker_pool.h"

#include <atomic>
#include <system_error>
#include <thread>

namespace cqlindex::exec {

void run_workers(unsigned workers, const std::function<void(unsigned)>& f) {
  if (workers <= 1) {
    if (workers == 1) f(0);
    return;
  }
  std::vector<std::thread> pool;
  unsigned started = 0;
  for (; started + 1 < workers; ++started) {
    try {
      pool.emplace_back(f, started);
    } catch (const std::system_error&) {  // the system gives no more threads (ulimit -v, -u): this one takes the rest
      break;
    }
  }
  for (unsigned w = started; w < workers; ++w) f(w);
  for (auto& t : pool) t.join();
}

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t, unsigned)>& f) {
  threads = std::max(1u, std::min<unsigned>(threads, unsigned(std::min<size_t>(n, 1024))));
  std::atomic<size_t> next{0};
  run_workers(threads, [&](unsigned w) {
    for (size_t i; (i = next.fetch_add(1)) < n;) f(i, w);
  });
}

}  // namespace cqlindex::exec
