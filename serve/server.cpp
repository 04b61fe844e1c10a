// The HTTP side of `cqlindex serve` (Debian's cpp-httplib): routes to the API calls of api.h and the page,
// limits on bodies and workers, JSON for every error, and a clean stop on SIGINT or SIGTERM.
#include "serve/server.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include <httplib.h>

#include "exec/memory_run.h"
#include "serve/api.h"
#include "serve/accepted_hosts.h"
#include "serve/api_support.h"
#include "serve/flat_memory.h"
#include "serve/guarded_connections.h"
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
    case 415: return "the API takes a JSON object (Content-Type: application/json)";
    default: return "HTTP status " + std::to_string(status);
  }
}

// Returns the repository a GET request names (?repo=NAME), nullopt when it names none.
RepoParameter repo_of(const httplib::Request& req) {
  return req.has_param("repo") ? RepoParameter(req.get_param_value("repo")) : std::nullopt;
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
  // cpp-httplib's default also sets SO_REUSEPORT, with which a second server binds a port already served and
  // the kernel shares the connections between the two: a port in use must be refused instead.
  server.set_socket_options([](socket_t socket) {
    const int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);  // a port left in TIME_WAIT is reusable
  });
}

// Reads a request's body into `body` through `reader`, keeping at most `max_body` bytes (the rest is read and
// dropped, so that the client, still sending, reads the answer; the request's read deadline bounds that:
// guarded_connections.h). Returns nullopt when the body is whole, else the refusal: 413 past `max_body` (a
// chunked body as one with a Content-Length), 415 a multipart form (left unread), 400 a body cut short.
std::optional<Answer> read_body(const httplib::Request& req, httplib::Response& res,
                                const httplib::ContentReader& reader, size_t max_body, std::string& body) {
  if (req.is_multipart_form_data()) {  // not read: cpp-httplib would parse its parts
    GuardedServer::close_after_response();
    return error_answer(415, status_reason(415) + ", not a form");
  }
  bool too_large = false;
  const bool whole = reader([&](const char* data, size_t length) {
    if (body.size() + length > max_body) too_large = true;
    if (!too_large) body.append(data, length);
    return true;
  });
  GuardedServer::request_read();
  if (too_large || res.status == 413) {
    body.clear();
    if (!whole) GuardedServer::close_after_response();
    return error_answer(413, status_reason(413) + " (" + std::to_string(max_body) + " bytes)");
  }
  if (!whole) {
    GuardedServer::close_after_response();
    return error_answer(400, "the request body could not be read whole");
  }
  return std::nullopt;
}

// True for a form's body that is not JSON (a form holding JSON, as `curl -d` sends it, is read as JSON).
bool form_not_json(const httplib::Request& req, const std::string& body) {
  return req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0 &&
         !json::accept(body);
}

// A POST route answered by `call` from the request's JSON body (read by read_body).
template <class Call>
httplib::Server::HandlerWithContentReader json_call(size_t max_body, Call call) {
  return [max_body, call](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    std::string body;
    if (auto refused = read_body(req, res, reader, max_body, body)) return reply(res, *refused);
    if (form_not_json(req, body)) return reply(res, error_answer(415, status_reason(415) + ", not a form"));
    reply(res, call(body));
  };
}

// The page and the API calls, each answered from `context` (which outlives the server).
void route(httplib::Server& server, const ApiContext& context) {
  const size_t max_body = context.settings.max_body;
  // The page: everything inline, and the browser told to fetch nothing from anywhere but this server.
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; connect-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
    const std::string_view html = page_html();
    res.set_content(html.data(), html.size(), "text/html; charset=utf-8");
  });
  server.Get("/api/info",
             [&](const httplib::Request& req, httplib::Response& res) { reply(res, api_info(context, repo_of(req))); });
  server.Post("/api/run", json_call(max_body, [&](const std::string& body) { return api_run(context, body); }));
  server.Post("/api/similar", json_call(max_body, [&](const std::string& body) { return api_similar(context, body); }));
  server.Post("/api/yacpdb", json_call(max_body, [&](const std::string& body) { return api_yacpdb(context, body); }));
  server.Get("/api/explore", [&](const httplib::Request& req, httplib::Response& res) {
    reply(res, api_explore(context, req.get_param_value("fen"), req.get_param_value("cap"), repo_of(req)));
  });
  server.Get(R"(/api/game/([^/]+))", [&](const httplib::Request& req, httplib::Response& res) {
    reply(res, api_game(context, req.matches[1].str(), repo_of(req)));
  });
  // Any other request with a body: its body read as the API's are (bounded), then 404; without these,
  // cpp-httplib would read a chunked body whole before answering.
  const auto no_such_call = [max_body](const httplib::Request& req, httplib::Response& res,
                                       const httplib::ContentReader& reader) {
    std::string body;
    if (auto refused = read_body(req, res, reader, max_body, body)) return reply(res, *refused);
    reply(res, error_answer(404, status_reason(404)));
  };
  server.Post(".*", no_such_call);
  server.Put(".*", no_such_call);
  server.Patch(".*", no_such_call);
  server.Delete(".*", no_such_call);
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
void refuse_other_sites(httplib::Server& server, const std::string& bind) {
  server.set_pre_routing_handler([bind](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host");
    const std::string origin = req.get_header_value("Origin");
    if (req.method == "GET" || req.method == "HEAD" || req.method == "OPTIONS") GuardedServer::request_read();
    std::string why;
    if (!host.empty() && !host_accepted(host, bind))
      why = "this server answers only requests naming its address (or localhost), not host " + host;
    else if (!origin.empty() && origin != "http://" + host)
      why = "requests from the page of another site (Origin " + origin + ") are refused";
    if (why.empty()) return httplib::Server::HandlerResponse::Unhandled;
    GuardedServer::close_after_response();  // a body, if any, left unread
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
  exec::survive_truncated_inputs();  // a file truncated under a run fails that request, not the server
  GuardedServer server(ConnectionLimits{std::chrono::milliseconds(int64_t(settings.request_read_seconds * 1000)),
                                        std::max(1u, settings.workers / 2)});
  configure_transport(server, settings);
  route(server, context);
  answer_errors(server);
  int port = settings.port;
  errno = 0;
  const bool bound = port == 0 ? (port = server.bind_to_any_port(settings.bind)) > 0
                               : server.bind_to_port(settings.bind, port);
  const int bind_error = errno;
  refuse_other_sites(server, settings.bind);
  if (!bound) {
    std::cerr << "cqlindex serve: cannot listen on " << settings.bind << ":" << settings.port << ": "
              << (bind_error == EADDRINUSE ? "address already in use (--port 0 picks a free port)"
                  : bind_error != 0        ? std::strerror(bind_error)
                                           : "not an address of this machine")
              << "\n";
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
