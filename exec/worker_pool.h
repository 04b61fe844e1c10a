#pragma once
// The execution layer's one worker pool: run, similar and yacpdb hand it their independent pieces of work
// (candidate games, output chunks, problem entries). Workers are threads started for the call and joined
// before it returns; when the system gives no more threads, fewer workers do all of the work.
#include <cstddef>
#include <functional>

namespace cqlindex::exec {

// Runs f(i) for every i in [0, n) on up to `threads` threads (the calling thread is one of them), in no
// particular order; returns when all are done.
void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& f);

}  // namespace cqlindex::exec
