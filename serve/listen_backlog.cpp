// A second listen() on httplib's bound socket, with a backlog larger than the 5 compiled into Debian's library.
#include "serve/listen_backlog.h"

namespace cqlindex::serve {

bool BacklogServer::raise_listen_backlog(int backlog) {
  const socket_t socket = svr_sock_;  // httplib's listening socket, set by bind_to_port / bind_to_any_port
  return socket != INVALID_SOCKET && ::listen(socket, backlog) == 0;
}

}  // namespace cqlindex::serve
