// `cqlindex serve` queues a burst of new connections rather than dropping their SYNs (serve/listen_backlog.h):
// Debian's cpp-httplib listens with a backlog of 5, so a seventh connection arriving before the accept loop takes
// the first waits a second for its SYN's retransmit. Seen here with the server stopped (SIGSTOP: its accept loop
// takes nothing): 64 connections opened together all complete their handshake in the kernel's queue, and `ss`
// shows the listening socket's backlog.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <algorithm>
#include <sstream>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// A non-blocking connection to 127.0.0.1:`port` under way (-1 when no socket could be made).
int start_connect(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(uint16_t(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to);  // 0 or EINPROGRESS: the state says
  return fd;
}

// True when the connection `fd` is established (its handshake done, whether or not the server accepted it).
bool established(int fd) {
  tcp_info info{};
  socklen_t size = sizeof info;
  return ::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) == 0 && info.tcpi_state == TCP_ESTABLISHED;
}

// The number of `fds` established once each handshake has had `wait_ms` to complete: on loopback one takes
// microseconds, while a dropped SYN is sent again only after a second.
size_t established_after(const std::vector<int>& fds, int wait_ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  for (int fd : fds) {
    pollfd p{fd, POLLOUT, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    if (!established(fd) && left.count() > 0) ::poll(&p, 1, int(left.count()));
  }
  return size_t(std::count_if(fds.begin(), fds.end(), established));
}

}  // namespace

TEST_CASE("serve: a burst of connections queues in the listen backlog", "[serve][load]") {
  ScratchDir dir("serve-backlog");
  indexed_repository(dir, sample_pgn(), false);
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);

  // the listening socket's backlog, as the kernel reports it (ss: Send-Q of a listening socket)
  const ProcessResult ss = run_process("ss -Hltn 'sport = :" + std::to_string(server.port()) + "' 2>&1");
  INFO("ss: " << ss.out);
  if (ss.exit_code == 0 && !ss.out.empty()) {
    std::istringstream columns(ss.out);
    std::string state;
    long received = 0, backlog = 0;
    columns >> state >> received >> backlog;
    CHECK(state == "LISTEN");
    CHECK(backlog >= 64);
  }

  constexpr size_t kBurst = 64;
  REQUIRE(::kill(server.pid(), SIGSTOP) == 0);
  std::vector<int> fds;
  for (size_t i = 0; i < kBurst; ++i) fds.push_back(start_connect(server.port()));
  const size_t done = established_after(fds, 500);
  ::kill(server.pid(), SIGCONT);
  for (int fd : fds)
    if (fd >= 0) ::close(fd);
  CHECK(std::count(fds.begin(), fds.end(), -1) == 0);
  CHECK(done == kBurst);  // with cpp-httplib's backlog of 5: 6

  // the server goes on answering
  const Reply info = get(server, "/api/info");
  CHECK(info.status == 200);
  CHECK(server.stop() == 0);
}
