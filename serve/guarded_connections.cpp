// The server's connection loop: keep-alive as cpp-httplib does it, a deadline for reading each request, and a
// cap on the connections of one address waiting for a request.
#include "serve/guarded_connections.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace cqlindex::serve {
namespace {

using Clock = std::chrono::steady_clock;

// One connection as the registry sees it.
struct Connection {
  socket_t sock = INVALID_SOCKET;
  std::string address;  // the peer's address, numeric
  bool waiting = false;
  std::list<Connection*>::iterator in_waiting;  // valid while waiting
  bool close_requested = false;
  std::function<void()> read_whole;  // the request is read: no longer waiting
};

// The connection the calling thread serves (the handlers run on it).
thread_local Connection* t_connection = nullptr;

// Returns the numeric address and port of `sock`'s peer (`local`: its own end).
void address_of(socket_t sock, bool local, std::string& ip, int& port) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  auto* address = reinterpret_cast<sockaddr*>(&storage);
  if ((local ? ::getsockname(sock, address, &length) : ::getpeername(sock, address, &length)) != 0) return;
  char host[NI_MAXHOST], service[NI_MAXSERV];
  if (::getnameinfo(address, length, host, sizeof host, service, sizeof service, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return;
  ip = host;
  port = std::atoi(service);
}

// A connection's bytes for cpp-httplib: reads buffered (the request line is read a byte at a time), each read
// bounded by the read timeout and by the deadline of the request being read; writes bounded by the write timeout.
class GuardedStream : public httplib::Stream {
 public:
  GuardedStream(socket_t sock, std::chrono::milliseconds read_timeout, std::chrono::milliseconds write_timeout)
      : sock_(sock), read_timeout_(read_timeout), write_timeout_(write_timeout) {}

  void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }
  bool buffered() const { return begin_ < end_; }
  // True once a read failed (the deadline, a timeout, an error or the peer's end): the connection is done.
  bool failed() const { return failed_; }

  bool is_readable() const override { return buffered() || wait(POLLIN, read_timeout_); }
  bool is_writable() const override { return wait(POLLOUT, write_timeout_); }

  ssize_t read(char* ptr, size_t size) override {
    if (!buffered()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
      if (left.count() <= 0 || !wait(POLLIN, std::min(left, read_timeout_))) return fail();
      ssize_t n;
      do n = ::recv(sock_, buffer_, sizeof buffer_, 0);
      while (n < 0 && errno == EINTR);
      if (n <= 0) return fail();
      begin_ = 0;
      end_ = size_t(n);
    }
    const size_t n = std::min(size, end_ - begin_);
    std::copy(buffer_ + begin_, buffer_ + begin_ + n, ptr);
    begin_ += n;
    return ssize_t(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n;
    do n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { address_of(sock_, false, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address_of(sock_, true, ip, port); }
  socket_t socket() const override { return sock_; }

 private:
  bool wait(short events, std::chrono::milliseconds timeout) const {
    pollfd p{sock_, events, 0};
    int r;
    do r = ::poll(&p, 1, int(timeout.count()));
    while (r < 0 && errno == EINTR);
    return r > 0 && (p.revents & events);
  }
  ssize_t fail() {
    failed_ = true;
    return -1;
  }

  socket_t sock_;
  std::chrono::milliseconds read_timeout_, write_timeout_;
  Clock::time_point deadline_ = Clock::time_point::max();
  char buffer_[4096];
  size_t begin_ = 0, end_ = 0;
  bool failed_ = false;
};

}  // namespace

// The connections waiting for a request, by address, longest-waiting first.
struct GuardedServer::Registry {
  std::mutex mutex;
  std::map<std::string, std::list<Connection*>> waiting;

  // Marks `c` waiting; past `cap` waiting connections of its address, ends the longest-waiting one (its
  // thread's read returns at once; the thread closes it).
  void start_waiting(Connection& c, unsigned cap) {
    std::lock_guard lock(mutex);
    if (c.waiting) return;
    std::list<Connection*>& of_address = waiting[c.address];
    if (of_address.size() >= cap) {
      Connection* oldest = of_address.front();
      of_address.pop_front();
      oldest->waiting = false;
      ::shutdown(oldest->sock, SHUT_RDWR);
    }
    c.in_waiting = of_address.insert(of_address.end(), &c);
    c.waiting = true;
  }
  void stop_waiting(Connection& c) {
    std::lock_guard lock(mutex);
    if (!c.waiting) return;
    auto at = waiting.find(c.address);
    at->second.erase(c.in_waiting);
    if (at->second.empty()) waiting.erase(at);
    c.waiting = false;
  }
};

GuardedServer::GuardedServer(const ConnectionLimits& limits)
    : limits_(limits), registry_(std::make_unique<Registry>()) {
  limits_.waiting_per_address = std::max(1u, limits_.waiting_per_address);
}

GuardedServer::~GuardedServer() = default;

void GuardedServer::request_read() {
  if (t_connection) t_connection->read_whole();
}

void GuardedServer::close_after_response() {
  if (t_connection) t_connection->close_requested = true;
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  Connection connection;
  connection.sock = sock;
  int port = 0;
  address_of(sock, false, connection.address, port);
  const int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  auto milliseconds = [](time_t sec, time_t usec) { return std::chrono::milliseconds(sec * 1000 + usec / 1000); };
  GuardedStream stream(sock, milliseconds(read_timeout_sec_, read_timeout_usec_),
                       milliseconds(write_timeout_sec_, write_timeout_usec_));
  connection.read_whole = [&] { registry_->stop_waiting(connection); };
  t_connection = &connection;
  bool served = false;
  for (size_t left = keep_alive_max_count_; left > 0; --left) {
    registry_->start_waiting(connection, limits_.waiting_per_address);
    // keep-alive: wait for the next request's first byte, at most keep_alive_timeout_sec_, the server's stop
    // noticed within 50 ms
    const auto idle_until = Clock::now() + std::chrono::seconds(keep_alive_timeout_sec_);
    bool readable = stream.buffered();
    while (!readable && svr_sock_ != INVALID_SOCKET && Clock::now() < idle_until) {
      pollfd p{sock, POLLIN, 0};
      const int r = ::poll(&p, 1, 50);
      if (r < 0 && errno != EINTR) break;
      readable = r > 0;
    }
    if (!readable || svr_sock_ == INVALID_SOCKET) break;
    stream.set_deadline(Clock::now() + limits_.request_read);
    bool closed = false;
    served = process_request(stream, left == 1, closed, nullptr);
    registry_->stop_waiting(connection);  // a handler that answered without calling request_read()
    if (!served || closed || connection.close_requested || stream.failed()) break;
  }
  registry_->stop_waiting(connection);
  t_connection = nullptr;
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return served;
}

}  // namespace cqlindex::serve
