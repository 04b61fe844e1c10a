#pragma once
// The listen backlog of the server's socket. Debian's cpp-httplib 0.11 listens with a backlog of 5, compiled into
// its shared library (defining CPPHTTPLIB_LISTEN_BACKLOG before the header changes nothing): when more than six
// connections arrive before the accept loop takes them (twenty clients opening theirs together), the kernel drops
// the others' SYNs and each of those clients waits a second for its retransmit. Linux takes a second listen() on a
// listening socket as its new backlog, which this server does once bound.
#include <sys/socket.h>

#include <httplib.h>

namespace cqlindex::serve {

// An httplib server whose bound socket's listen backlog can be raised before it starts accepting.
class BacklogServer : public httplib::Server {
 public:
  // Sets the backlog of the bound socket to `backlog` (the kernel caps it at net.core.somaxconn); false when the
  // server is not bound or listen() refuses.
  bool raise_listen_backlog(int backlog = SOMAXCONN);
};

}  // namespace cqlindex::serve
