#include "exec/worker_pool.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace cqlindex::exec {

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& f) {
  threads = std::max(1u, std::min<unsigned>(threads, unsigned(std::min<size_t>(n, 1024))));
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) f(i);
    return;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) f(i);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {  // the system gives no more threads (ulimit -v, -u): fewer do it all
      break;
    }
  }
  work();
  for (auto& t : pool) t.join();
}

}  // namespace cqlindex::exec
