// `cqlindex serve` against hostile or careless clients and a repository changed under it: a body too large is
// refused while it is read (chunked or not), slow clients cannot hold every worker, only literal loopback hosts
// are answered, a file edited in place with its time stamp put back is refused, a form gets a clear 415, running
// out of file descriptors is a 503 naming them, a file truncated under a full scan fails that request only, and
// a port in use is refused at start-up.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <atomic>
#include <cstdlib>
#include <functional>
#include <set>
#include <thread>

#include "serve/serve_support.h"

using namespace cqlindex::test;

namespace {

// A TCP connection to 127.0.0.1:`port` (-1 when none could be made).
int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(uint16_t(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0) return fd;
  if (fd >= 0) ::close(fd);
  return -1;
}

// Sends all of `text`; false when the connection refuses it.
bool send_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::send(fd, text.data(), text.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    text.remove_prefix(size_t(n));
  }
  return true;
}

// Reads what the server sends until it closes the connection or 120 s pass; returns the status of the answer
// (0 when there is none).
int read_status(int fd) {
  std::string in;
  char buffer[4096];
  pollfd p{fd, POLLIN, 0};
  while (::poll(&p, 1, 120'000) > 0) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    in.append(buffer, size_t(n));
    if (in.find("\r\n\r\n") != std::string::npos) break;
  }
  return in.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(in.c_str() + 9) : 0;
}

// The server's peak resident memory in kB (VmHWM).
long peak_kb(pid_t pid) {
  const std::string status = slurp(fs::path("/proc") / std::to_string(pid) / "status");
  const size_t at = status.find("VmHWM:");
  return at == std::string::npos ? -1 : std::atol(status.c_str() + at + 6);
}

// A client sending a request one byte every 200 ms (never the end of its headers) until the server closes the
// connection or `stop` is set; `cut` counts the clients the server closed.
void dribble(int port, const std::atomic<bool>& stop, std::atomic<int>& cut) {
  const int fd = connect_to(port);
  if (fd < 0) return;
  const std::string request = "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ";
  for (size_t i = 0; !stop; ++i) {
    char c = i < request.size() ? request[i] : 'x';
    if (::send(fd, &c, 1, MSG_NOSIGNAL) != 1) {
      ++cut;
      break;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 200) > 0) {  // the server answered (408) or closed: either way it let go
      ++cut;
      break;
    }
  }
  ::close(fd);
}

}  // namespace

TEST_CASE("serve: a body over the limit is refused while it is read (chunked or not)", "[serve][hostile]") {
  ScratchDir dir("serve-big-body");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn", {"--request-timeout", "600"});
  REQUIRE(server.port() > 0);
  const std::string head = "POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
  const std::string block(1 << 16, ' ');
  {  // 200 MB in chunks of 64 KiB
    const int fd = connect_to(server.port());
    REQUIRE(fd >= 0);
    bool sent = send_all(fd, head + "Transfer-Encoding: chunked\r\n\r\n");
    char size_line[32];
    std::snprintf(size_line, sizeof size_line, "%zx\r\n", block.size());
    for (int i = 0; sent && i < 200 * 16; ++i) sent = send_all(fd, size_line + block + "\r\n");
    CHECK(sent);
    send_all(fd, "0\r\n\r\n");
    CHECK(read_status(fd) == 413);
    ::close(fd);
  }
  {  // 200 MB with its Content-Length
    const int fd = connect_to(server.port());
    REQUIRE(fd >= 0);
    bool sent = send_all(fd, head + "Content-Length: " + std::to_string(200 << 20) + "\r\n\r\n");
    for (int i = 0; sent && i < 200 * 16; ++i) sent = send_all(fd, block);
    CHECK(read_status(fd) == 413);
    ::close(fd);
  }
  CHECK(peak_kb(server.pid()) < 150'000);  // the bodies were not kept (a whole one alone is 204,800 kB)
  CHECK(get(server, "/api/info").status == 200);
}

TEST_CASE("serve: a client that sends its request too slowly is dropped at the request deadline",
          "[serve][hostile]") {
  ScratchDir dir("serve-slow-client");
  indexed_repository(dir, sample_pgn());
  // one worker: the slow client holds it until the deadline ends its connection
  Server server(dir.path(), "repository.pgn", {"--workers", "1", "--request-timeout", "1"});
  REQUIRE(server.port() > 0);
  std::atomic<bool> stop{false};
  std::atomic<int> cut{0};
  std::thread slow(dribble, server.port(), std::cref(stop), std::ref(cut));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the slow client holds the worker first
  const Reply info = get(server, "/api/info");
  stop = true;
  slow.join();
  CHECK(info.status == 200);
  CHECK(cut == 1);
}

TEST_CASE("serve: slow clients of one address cannot take every worker", "[serve][hostile]") {
  ScratchDir dir("serve-slow-clients");
  indexed_repository(dir, sample_pgn());
  // a deadline far away: only the cap on the connections of one address waiting for a request frees workers
  Server server(dir.path(), "repository.pgn", {"--workers", "8", "--request-timeout", "3600"});
  REQUIRE(server.port() > 0);
  std::atomic<bool> stop{false};
  std::atomic<int> cut{0};
  std::vector<std::thread> slow;
  for (int i = 0; i < 20; ++i) slow.emplace_back(dribble, server.port(), std::cref(stop), std::ref(cut));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // every slow client connected
  auto client = server.client();
  client.set_read_timeout(60, 0);
  const Reply info = as_reply(client.Get("/api/info"));
  const Reply run = post(server, "/api/run", json{{"cql", "cql() mate"}});
  stop = true;
  for (std::thread& t : slow) t.join();
  CHECK(info.status == 200);
  CHECK(run.status == 200);
  CHECK(cut >= 20 - 4);  // at most half the workers (4) held by the slow clients' address
}

TEST_CASE("serve: only literal loopback hosts and localhost are answered", "[serve][hostile]") {
  ScratchDir dir("serve-hosts");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  const std::string port = ":" + std::to_string(server.port());
  auto client = server.client();
  auto status_for = [&](const std::string& host) {
    auto r = client.Get("/api/info", httplib::Headers{{"Host", host}, {"Origin", "http://" + host}});
    return r ? r->status : 0;
  };
  for (const std::string host : {"127.evil.com", "127.0.0.1.evil.com", "localhost.evil.com", "127.1", "evil.com",
                                 "127.0.0.256", "0x7f.0.0.1"}) {
    INFO(host);
    CHECK(status_for(host + port) == 403);
  }
  for (const std::string host : {"127.0.0.1", "127.3.4.5", "localhost", "[::1]"}) {
    INFO(host);
    CHECK(status_for(host + port) == 200);
  }
}

TEST_CASE("serve: a file edited in place with its size and time stamp kept is refused", "[serve][hostile]") {
  ScratchDir dir("serve-edited");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  REQUIRE(post(server, "/api/run", json{{"cql", "cql() mate"}}).status == 200);
  const fs::path pgn = dir.path() / "repository.pgn";
  struct stat before {};
  REQUIRE(::stat(pgn.c_str(), &before) == 0);
  std::string text = slurp(pgn);
  const size_t at = text.find("1-0");
  REQUIRE(at != std::string::npos);
  text.replace(at, 3, "0-1");  // a result fixed in place, in the first block (the command line samples it)
  spit(pgn, text);
  const timespec times[2] = {before.st_atim, before.st_mtim};
  REQUIRE(::utimensat(AT_FDCWD, pgn.c_str(), times, 0) == 0);
  spit(dir.path() / "q.cql", "cql() mate");
  CHECK(cqlindex_in(dir.path(), "run -i repository.pgn -o out.pgn q.cql").exit_code == 2);  // as the command line
  CHECK(stderr_of(dir.path()).find("stale") != std::string::npos);
  const Reply r = post(server, "/api/run", json{{"cql", "cql() mate"}});
  CHECK(r.status == 503);
  CHECK(r.body["error"].get<std::string>().find("stale") != std::string::npos);
}

TEST_CASE("serve: a form is told the API takes JSON", "[serve][hostile]") {
  ScratchDir dir("serve-form");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  auto client = server.client();
  std::string form = "cql=";
  while (form.size() < 10'000) form += "mate%20";
  auto r = client.Post("/api/run", form, "application/x-www-form-urlencoded");
  REQUIRE(r);
  CHECK(r->status == 415);
  CHECK(r->body.find("JSON") != std::string::npos);
  // JSON sent as a form (curl -d) is read as JSON
  r = client.Post("/api/run", json{{"cql", "cql() mate"}}.dump(), "application/x-www-form-urlencoded");
  REQUIRE(r);
  CHECK(r->status == 200);
  r = client.Post("/api/run", httplib::MultipartFormDataItems{{"cql", "cql() mate", "", ""}});
  REQUIRE(r);
  CHECK(r->status == 415);
}

TEST_CASE("serve: running out of file descriptors is a 503 that says so", "[serve][hostile]") {
  ScratchDir dir("serve-descriptors");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  REQUIRE(get(server, "/api/info").status == 200);
  // Sends `request` with the server's descriptors limited so that one is free: the request's connection takes it,
  // the run finds none. The server may hold a descriptor for a moment (a connection closing, a file checked)
  // while its descriptors are listed, which leaves one free for the run and answers 200: then it is tried again,
  // up to five times; a server that answers 200 with none free fails the checks below.
  auto with_one_free_descriptor = [&](const std::function<Reply()>& request) {
    Reply reply;
    for (int attempt = 0; attempt < 5; ++attempt) {
      std::set<int> open;
      for (const auto& entry : fs::directory_iterator(fs::path("/proc") / std::to_string(server.pid()) / "fd"))
        open.insert(std::stoi(entry.path().filename().string()));
      int limit = 0;
      for (int free = 0; free < 1; ++limit) free += !open.count(limit);
      rlimit old{}, tight{};
      REQUIRE(::prlimit(server.pid(), RLIMIT_NOFILE, nullptr, &old) == 0);
      tight = old;
      tight.rlim_cur = rlim_t(limit);
      REQUIRE(::prlimit(server.pid(), RLIMIT_NOFILE, &tight, nullptr) == 0);
      reply = request();
      REQUIRE(::prlimit(server.pid(), RLIMIT_NOFILE, &old, nullptr) == 0);
      if (reply.status != 200) break;
    }
    return reply;
  };
  const Reply run = with_one_free_descriptor([&] { return post(server, "/api/run", json{{"cql", "cql() mate"}}); });
  const Reply similar = with_one_free_descriptor(
      [&] { return post(server, "/api/similar", json{{"fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"}}); });
  CHECK(run.status == 503);
  CHECK(run.body["error"].get<std::string>().find("file descriptors") != std::string::npos);
  CHECK(similar.status == 503);
  CHECK(similar.body["error"].get<std::string>().find("file descriptors") != std::string::npos);
  CHECK(post(server, "/api/run", json{{"cql", "cql() mate"}}).status == 200);
}

TEST_CASE("serve: the served file truncated during a full scan fails that request and the server stays up",
          "[serve][hostile]") {
  ScratchDir dir("serve-truncated");
  indexed_repository(dir, sample_pgn());
  // the test hook of engine/pgn/reader.cpp: the file is cut to half its size once the scan has mapped it
  ::setenv("CQLINDEX_TEST_SHRINK_AFTER_OPEN", "repository.pgn", 1);
  Server server(dir.path(), "repository.pgn");
  ::unsetenv("CQLINDEX_TEST_SHRINK_AFTER_OPEN");
  REQUIRE(server.port() > 0);
  const Reply r = post(server, "/api/run", json{{"cql", "cql() btm"}});  // every game replayed, in one pass
  CHECK(r.status == 503);
  CHECK(r.body["error"].get<std::string>().find("repository.pgn") != std::string::npos);
  CHECK(::kill(server.pid(), 0) == 0);
  const Reply after = get(server, "/api/info");
  CHECK(after.status == 200);
  CHECK(after.body["fresh"] == false);
  CHECK(server.stop() == 0);
}

TEST_CASE("serve: a port already in use is refused at start-up", "[serve][hostile]") {
  ScratchDir dir("serve-port-used");
  indexed_repository(dir, sample_pgn());
  Server server(dir.path(), "repository.pgn");
  REQUIRE(server.port() > 0);
  // `timeout`: a second server that shares the port (SO_REUSEPORT) would serve until killed
  const ProcessResult second =
      run_process("cd " + shell_quote(dir.path().string()) + " && timeout 30 " + shell_quote(CQLINDEX_BINARY) +
                  " serve repository.pgn --port " + std::to_string(server.port()) + " 2>stderr.txt");
  CHECK(second.exit_code == 2);
  CHECK(stderr_of(dir.path()).find("address already in use") != std::string::npos);
  CHECK(get(server, "/api/info").status == 200);
}
