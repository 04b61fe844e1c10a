#pragma once
// The server's connections, served by its own loop rather than cpp-httplib's, for two limits the library does
// not have: a deadline for reading each request (cpp-httplib's read timeout applies to each recv, so a client
// sending one byte every few seconds holds its worker thread for ever), and a cap on the connections of one
// address waiting for or reading a request (each holds a worker thread: slow clients of one address cannot
// take them all, a new connection past the cap ends that address's longest-waiting one). The requests are
// still parsed, routed and answered by cpp-httplib (Server::process_request).
#include <chrono>
#include <memory>

#include <httplib.h>

#include "serve/listen_backlog.h"

namespace cqlindex::serve {

struct ConnectionLimits {
  // The request line, headers and body of one request must have arrived this long after its first byte.
  std::chrono::milliseconds request_read{10'000};
  // Connections of one address waiting for a request (idle between two) or reading one, at once.
  unsigned waiting_per_address = 32;
};

class GuardedServer : public BacklogServer {
 public:
  explicit GuardedServer(const ConnectionLimits& limits);
  ~GuardedServer() override;

  // Called by a handler, on the thread serving the connection: the request is read whole (its body too), so
  // the connection is no longer waiting (past the cap, another connection of its address is ended instead).
  static void request_read();
  // Called by a handler that answers without reading the body: the connection closes after the answer (the
  // unread body must not be taken for the next request).
  static void close_after_response();

 private:
  bool process_and_close_socket(socket_t sock) override;  // cpp-httplib's, private: replaced, never called

  struct Registry;
  ConnectionLimits limits_;
  std::unique_ptr<Registry> registry_;
};

}  // namespace cqlindex::serve
