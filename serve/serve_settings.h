#pragma once
// What `cqlindex serve` is given: the repositories, where to listen, and the limits every request runs under
// (shared by the repositories: one pool of workers, one time limit and result cap per request).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cqlindex::serve {

struct ServeSettings {
  std::vector<std::string> inputs;   // REPO.pgn or REPO.cqlrepo, one per repository (every index must be fresh)
  std::string index_dir;             // --index DIR, one PGN file served only ("" = the default folder beside it)
  std::string problems;              // --problems FILE: the YACPDB tab's problem file ("" = the chosen repository)
  std::string bind = "127.0.0.1";    // --bind: loopback unless told otherwise
  int port = 8080;                   // --port (0: any free port, printed on stdout's first line)
  double timeout_seconds = 10;       // --timeout: a query still running then is stopped (between games)
  uint64_t max_results = 10000;      // --max-results: a run stops after this many matching games
  size_t max_body = 1 << 20;         // request bodies above this are refused (413)
  double request_read_seconds = 10;  // --request-timeout: a request not read whole then (headers, body) is dropped
  unsigned workers = 64;             // connections served at once (the HTTP thread pool: one thread a connection)
  unsigned threads = 0;              // --threads: worker threads of one query (0 = every core)
};

}  // namespace cqlindex::serve
