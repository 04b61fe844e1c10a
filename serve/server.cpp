// The HTTP side of `cqlindex serve` (Debian's cpp-httplib): routes to the API calls of api.h and the page,
// limits on bodies and workers, JSON for every error, and a clean stop on SIGINT or SIGTERM.
#include "serve/server.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <thread>

#include <httplib.h>

#include "serve/api.h"
#include "serve/api_support.h"
#include "serve/flat_memory.h"
#include "serve/listen_backlog.h"
#include "serve/page.h"

namespace cqlindex::serve {
namespace {

// Writes an API answer into httplib's response.
void reply(httplib::Response& response, const Answer& answer) {
  response.status = answer.status;
  response.set_content(answer.json, "application/json");
}

// The one-line reason of an HTTP status the server answers without a handler (no route, a body too large).
std::string status_reason(int status) {
  switch (status) {
    case 404: return "no such page or API call";
    case 405: return "method not allowed";
    case 413: return "the request body is larger than the server accepts";
    default: return "HTTP status " + std::to_string(status);
  }
}

// Returns the host of a Host header ("127.0.0.1:8080" -> "127.0.0.1", "[::1]:8080" -> "::1").
std::string host_name(const std::string& host) {
  if (!host.empty() && host[0] == '[') return host.substr(1, host.find(']') - 1);
  return host.substr(0, host.rfind(':') == std::string::npos ? host.size() : host.rfind(':'));
}

// Returns the repository a GET request names (?repo=NAME), nullopt when it names none.
RepoParameter repo_of(const httplib::Request& req) {
  return req.has_param("repo") ? RepoParameter(req.get_param_value("repo")) : std::nullopt;
}

// True for the names of this machine's loopback interface.
bool is_loopback(const std::string& name) {
  return name == "localhost" || name == "::1" || name.rfind("127.", 0) == 0;
}

// The transport's settings: workers, body limit, keep-alive (each with its reason).
void configure_transport(httplib::Server& server, const ServeSettings& settings) {
  server.new_task_queue = [workers = settings.workers] { return new httplib::ThreadPool(workers); };
  server.set_payload_max_length(settings.max_body);  // larger bodies: 413, never read whole
  // An answer leaves in several writes (headers, body): without TCP_NODELAY the second waits for the client's
  // delayed ACK, 40 ms on Linux, whatever the work took.
  server.set_tcp_nodelay(true);
  // A kept-alive connection holds its worker thread while idle (cpp-httplib's model): a browser keeps several
  // open, so the workers are many (--workers, default 64) and an idle connection is let go after 2 s.
  server.set_keep_alive_timeout(2);
  // A connection kept for 100 requests rather than 5 makes fewer new ones (the backlog: listen_backlog.h).
  server.set_keep_alive_max_count(100);
}

// The page and the API calls, each answered from `context` (which outlives the server).
void route(httplib::Server& server, const ApiContext& context) {
  // The page: everything inline, and the browser told to fetch nothing from anywhere but this server.
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; connect-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
    const std::string_view html = page_html();
    res.set_content(html.data(), html.size(), "text/html; charset=utf-8");
  });
  server.Get("/api/info",
             [&](const httplib::Request& req, httplib::Response& res) { reply(res, api_info(context, repo_of(req))); });
  server.Post("/api/run",
              [&](const httplib::Request& req, httplib::Response& res) { reply(res, api_run(context, req.body)); });
  server.Post("/api/similar", [&](const httplib::Request& req, httplib::Response& res) {
    reply(res, api_similar(context, req.body));
  });
  server.Post("/api/yacpdb",
              [&](const httplib::Request& req, httplib::Response& res) { reply(res, api_yacpdb(context, req.body)); });
  server.Get("/api/explore", [&](const httplib::Request& req, httplib::Response& res) {
    reply(res, api_explore(context, req.get_param_value("fen"), req.get_param_value("cap"), repo_of(req)));
  });
  server.Get(R"(/api/game/([^/]+))", [&](const httplib::Request& req, httplib::Response& res) {
    reply(res, api_game(context, req.matches[1].str(), repo_of(req)));
  });
}

// Every error as JSON, an exception in a handler as a 500 (and a line on stderr), never a dropped connection.
void answer_errors(httplib::Server& server) {
  // the answers of the API calls carry their own error; the others get one here
  server.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    res.set_content(error_answer(res.status, status_reason(res.status)).json, "application/json");
    return httplib::Server::HandlerResponse::Handled;
  }));
  server.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr e) {
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      what = "out of memory";
    } catch (const std::exception& ex) {
      what = ex.what();
    } catch (...) {
    }
    std::cerr << "cqlindex serve: " << req.method << " " << req.path << ": internal error: " << what << "\n";
    reply(res, error_answer(500, "internal error: " + what));
  });
}

// A web page from another site may make the browser send requests here (a query that burns the server's
// time, or, through a DNS name rebound to 127.0.0.1, one that reads its answers). Refused: a request a browser
// marks as coming from another origin than the server's own address, and on a loopback server any request
// naming a host other than a loopback one.
void refuse_other_sites(httplib::Server& server, bool loopback) {
  server.set_pre_routing_handler([loopback](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host");
    const std::string origin = req.get_header_value("Origin");
    std::string why;
    if (loopback && !host.empty() && !is_loopback(host_name(host)))
      why = "this server answers only requests to its loopback address, not to host " + host;
    else if (!origin.empty() && origin != "http://" + host)
      why = "requests from the page of another site (Origin " + origin + ") are refused";
    if (why.empty()) return httplib::Server::HandlerResponse::Unhandled;
    reply(res, error_answer(403, why));
    return httplib::Server::HandlerResponse::Handled;
  });
}

// Says on stderr what is served where, and the port alone on stdout's first line (tests read it, then stderr).
void announce(const ServeSettings& settings, int port, const RepositoryCatalog& repositories) {
  std::cerr << "cqlindex serve: http://" << settings.bind << ":" << port << "/ serves";
  for (const NamedRepository& r : repositories.all())
    std::cerr << (&r == &repositories.all().front() ? " " : ", ") << r.repository->input() << " ("
              << r.repository->game_count() << " games, as '" << r.name << "')";
  std::cerr << "; Ctrl-C stops it\n";
  std::cout << port << std::endl;
}

// Listens until SIGINT or SIGTERM (taken by one thread, sigwait), which sets `stopping` so that the runs under
// way stop at their next game; returns whether listening ended because of such a signal or went on until one.
bool listen_until_stopped(httplib::Server& server, const sigset_t& stop_signals, std::atomic<bool>& stopping) {
  std::atomic<bool> listening_ended{false};
  std::thread stopper([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    stopping = true;
    // a signal in the instant before listening began: stop() acts only once the server runs
    while (!server.is_running() && !listening_ended) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server.stop();
  });
  const bool listened = server.listen_after_bind();
  listening_ended = true;
  if (!stopping) pthread_kill(stopper.native_handle(), SIGTERM);  // listening failed: wake the stopper
  stopper.join();
  return listened || stopping;
}

}  // namespace

exec::Status run_server(const ServeSettings& settings) {
  // SIGINT and SIGTERM are taken by one thread (sigwait) that stops the server; blocked here, before any
  // thread starts, so that every thread inherits the mask and none is interrupted.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto repositories = RepositoryCatalog::open(settings.inputs, settings.index_dir);
  if (!repositories) return exec::Status::InputError;
  if (std::error_code ec; !settings.problems.empty() && !std::filesystem::is_regular_file(settings.problems, ec)) {
    std::cerr << "cqlindex serve: --problems " << settings.problems << ": no such problem file\n";
    return exec::Status::InputError;
  }
  std::atomic<bool> stopping{false};
  const ApiContext context{*repositories, settings, stopping};

  limit_malloc_arenas();  // before any thread starts (serve/flat_memory.h)
  BacklogServer server;
  configure_transport(server, settings);
  route(server, context);
  answer_errors(server);
  int port = settings.port;
  const bool bound = port == 0 ? (port = server.bind_to_any_port(settings.bind)) > 0
                               : server.bind_to_port(settings.bind, port);
  refuse_other_sites(server, is_loopback(settings.bind));
  if (!bound) {
    std::cerr << "cqlindex serve: cannot listen on " << settings.bind << ":" << settings.port
              << " (the address is in use or not this machine's; --port 0 picks a free port)\n";
    return exec::Status::InputError;
  }
  // a burst of new connections queues rather than waiting a second each for a SYN retransmit (listen_backlog.h)
  if (!server.raise_listen_backlog())
    std::cerr << "cqlindex serve: warning: the listen backlog stays at 5 (" << std::strerror(errno) << ")\n";
  announce(settings, port, *repositories);
  if (!listen_until_stopped(server, stop_signals, stopping)) {
    std::cerr << "cqlindex serve: the server stopped listening on " << settings.bind << ":" << port << "\n";
    return exec::Status::InputError;
  }
  std::cerr << "cqlindex serve: stopped\n";
  return exec::Status::Ok;
}

}  // namespace cqlindex::serve
