#pragma once
// Keeps a long-running server's resident memory flat (issue 19: no growth beyond 10 % over 10,000 requests).
// glibc's malloc gives the threads that allocate arenas of their own (up to eight per core) and a cache of freed
// chunks per thread (tcache), which stay resident between requests and are reused only in part by the next ones,
// served by other threads with other sizes. Measured on the 1,005-game sample (scripts/bench-serve, 20 clients):
// the resident memory rose from 26.5 to 34.1 MB over 10,000 requests and kept rising slowly after (36.4 MB after
// 30,000), while the live heap never passed 3.6 MB and 74 KB were left allocated at exit, in start-up structures
// (heaptrack): fragmentation, not a leak. One arena per core and no per-thread cache keep it at 22-23 MB from the
// first thousands of requests on (malloc_trim after each answer did not help: the pages it could not return were
// the caches'); the server's CPU per request did not change measurably.
namespace cqlindex::serve {

// The tunable glibc reads once, when a program starts: no per-thread cache of freed chunks. `cqlindex serve`
// (cli/command_serve.cpp) starts the server with it in GLIBC_TUNABLES.
inline constexpr const char* kMallocTunable = "glibc.malloc.tcache_count=0";

// Limits malloc to one arena per core; called before the server starts its threads.
void limit_malloc_arenas();

}  // namespace cqlindex::serve
