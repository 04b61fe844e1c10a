// Test support for `cqlindex serve`: a scratch repository with its index, the server started on a free
// loopback port (its first stdout line), an HTTP client, and JSON.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "similar/similar_test_util.h"

namespace cqlindex::test {

using nlohmann::json;

// The gnuchess sample (1,005 games): small enough to query many times, big enough for real answers.
inline fs::path sample_pgn() { return shared_data("gnuchess-book/book_1.02.small-1005.pgn"); }

// A running `cqlindex serve` over `dir`/`pgn` (or the repositories `repositories`, in `dir`) with `flags`;
// stopped (SIGTERM) by stop() or the destructor.
class Server {
 public:
  Server(const fs::path& dir, const std::string& pgn, const std::vector<std::string>& flags = {})
      : Server(dir, std::vector<std::string>{pgn}, flags) {}
  Server(const fs::path& dir, const std::vector<std::string>& repositories, const std::vector<std::string>& flags) {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // a test process that dies (a broken pipe) takes its server along
      ::dup2(out[1], 1);
      const int err = ::open((dir / "serve-stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) ::dup2(err, 2);
      ::close(out[0]);
      if (::chdir(dir.c_str()) != 0) ::_exit(127);
      std::vector<std::string> args{CQLINDEX_BINARY, "serve"};
      args.insert(args.end(), repositories.begin(), repositories.end());
      args.insert(args.end(), {"--port", "0"});
      args.insert(args.end(), flags.begin(), flags.end());
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(CQLINDEX_BINARY, argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    // The first line is the port; a server that does not print it within 60 s has failed.
    std::string line;
    pollfd p{out[0], POLLIN, 0};
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < until) {
      if (::poll(&p, 1, 1000) <= 0) continue;
      char c[64];
      const ssize_t n = ::read(out[0], c, sizeof c);
      if (n <= 0) break;
      line.append(c, size_t(n));
    }
    ::close(out[0]);
    if (line.find('\n') != std::string::npos) port_ = std::stoi(line);
    stderr_path_ = dir / "serve-stderr.txt";
  }
  ~Server() { stop(); }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  // What the server wrote on stderr so far.
  std::string stderr_text() const { return slurp(stderr_path_); }
  // Stops the server with SIGTERM; returns its exit code (-1 when it did not exit normally).
  int stop() {
    if (pid_ <= 0) return exit_code_;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return exit_code_;
  }
  // A client of this server (long read timeout: a busy machine).
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(120, 0);
    c.set_connection_timeout(10, 0);
    return c;
  }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  int exit_code_ = -1;
  fs::path stderr_path_;
};

// The answer to one request: the status and the body parsed as JSON (null when it is not JSON).
struct Reply {
  int status = 0;
  json body;
};

inline Reply as_reply(const httplib::Result& r) {
  Reply reply;
  if (!r) return reply;
  reply.status = r->status;
  reply.body = json::parse(r->body, nullptr, false);
  return reply;
}

inline Reply post(const Server& server, const std::string& path, const std::string& body) {
  auto client = server.client();
  return as_reply(client.Post(path.c_str(), body, "application/json"));
}

inline Reply post(const Server& server, const std::string& path, const json& body) {
  return post(server, path, body.dump());
}

inline Reply get(const Server& server, const std::string& path) {
  auto client = server.client();
  return as_reply(client.Get(path.c_str()));
}

// CQL's line without its timing: "N matches of M games" ("" when absent), and where it starts in `out`.
inline std::string match_line(const std::string& out, size_t* begin_out = nullptr) {
  const size_t at = out.find(" matches of ");
  if (at == std::string::npos) return "";
  size_t begin = out.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  if (begin_out) *begin_out = begin;
  return out.substr(begin, out.find(" games", at) - begin) + " games";
}

// The answer of the server to `cql` (over the repository `repo`, else the default one), every page of it (1,000
// games a page): the games' text concatenated.
struct ServedRun {
  Reply last;
  std::string pgn;
  std::vector<uint64_t> numbers;
};
inline ServedRun run_all_pages(const Server& server, const std::string& cql, uint64_t limit = 1000,
                               const std::string& repo = "") {
  ServedRun run;
  for (uint64_t offset = 0;; offset += limit) {
    json body{{"cql", cql}, {"offset", offset}, {"limit", limit}};
    if (!repo.empty()) body["repo"] = repo;
    run.last = post(server, "/api/run", body);
    if (run.last.status != 200) break;
    for (const json& g : run.last.body["results"]) {
      run.pgn += g["pgn"].get<std::string>();
      run.numbers.push_back(g["number"].get<uint64_t>());
    }
    if (offset + limit >= run.last.body["matches"].get<uint64_t>()) break;
  }
  return run;
}

// The bytes of games [first, end) (0-based) of the sample (each of its games starts at an "[Event " tag).
inline std::string sample_games(size_t first, size_t end) {
  const std::string all = slurp(sample_pgn());
  std::vector<size_t> starts;
  for (size_t at = all.find("[Event "); at != std::string::npos; at = all.find("[Event ", at + 1)) starts.push_back(at);
  starts.push_back(all.size());
  return all.substr(starts.at(first), starts.at(std::min(end, starts.size() - 1)) - starts.at(first));
}

// A scratch folder holding `repository.pgn` (a copy of `source`) and its index, with the explore family as a
// served repository's index would have it (`build --explore`) unless `explore` is false.
inline void indexed_repository(const ScratchDir& dir, const fs::path& source, bool explore = true) {
  fs::copy_file(source, dir.path() / "repository.pgn");
  const ProcessResult built = cqlindex_in(dir.path(), explore ? "build --explore repository.pgn" : "build repository.pgn");
  if (built.exit_code != 0) throw std::runtime_error("cqlindex build failed: " + stderr_of(dir.path()));
}

// `cqlindex run -i repository.pgn` of `cql` in the scratch folder `dir` (REQUIREs exit 0): what it printed and
// the output file it wrote, which a served run must equal.
struct CliRun {
  ProcessResult process;
  std::string output;
};
inline CliRun cli_run(const ScratchDir& dir, const std::string& cql) {
  spit(dir.path() / "q.cql", cql);
  fs::remove(dir.path() / "out.pgn");
  CliRun run{cqlindex_in(dir.path(), "run -i repository.pgn -o out.pgn q.cql"), {}};
  REQUIRE(run.process.exit_code == 0);
  run.output = slurp(dir.path() / "out.pgn");
  return run;
}

}  // namespace cqlindex::test
