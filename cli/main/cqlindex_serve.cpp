// cqlindex-serve REPO.pgn|REPO.cqlrepo [REPO2 ...] [--port N] [--bind ADDR] [--index DIR] [--timeout S]
//               [--request-timeout S] [--max-results N] [--workers N] [--threads N] [--problems FILE]
//
// The executable behind `cqlindex serve` (cli/command_serve.cpp runs it): a server of its own because it links
// Debian's cpp-httplib, a shared library (with OpenSSL, zlib and Brotli), which the one-process-per-query
// `cqlindex` must not load at every start nor mix with its static libstdc++ (CMakeLists.txt).
//
// stdout: the port, alone on the first line (with --port 0 the system picks a free one). stderr: where it
// serves, and problems. Exit 0 when stopped by SIGINT or SIGTERM; 1 on usage errors (two repositories of one
// name, --index with several); 2 when a repository's file has no fresh index or the address cannot be bound.
#include <cmath>
#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/command_line.h"
#include "cli/exit_codes.h"
#include "serve/repository_catalog.h"
#include "serve/server.h"

namespace po = boost::program_options;
using namespace cqlindex;

namespace {

// Parses the flags into `s`; returns nullopt to serve, else the exit code.
std::optional<int> parse_options(int argc, char** argv, serve::ServeSettings& s) {
  po::options_description visible(
      "usage: cqlindex serve REPO.pgn|REPO.cqlrepo [REPO2 ...] [--port N] [--bind ADDR] [--index DIR]\n"
      "                      [--timeout SECONDS] [--request-timeout SECONDS] [--max-results N] [--workers N]\n"
      "                      [--threads N] [--problems FILE]\n"
      "each repository is served under its file name without the extension (the first is the default)");
  visible.add_options()("help,h", "this help")(
      "port", po::value<int>()->default_value(s.port), "TCP port (0: any free port, printed on the first line)")(
      "bind", po::value<std::string>()->default_value(s.bind), "address to listen on (default: this machine only)")(
      "index", po::value<std::string>(), "index folder of one REPO.pgn served alone (default: REPO.pgn.cqlidx)")(
      "timeout", po::value<double>()->default_value(s.timeout_seconds),
      "stop a query still running after SECONDS (0.01 to 86400)")(
      "request-timeout", po::value<double>()->default_value(s.request_read_seconds),
      "drop a connection whose request (headers and body) has not arrived SECONDS after it began (0.1 to 3600)")(
      "max-results", po::value<long long>()->default_value(static_cast<long long>(s.max_results)),
      "stop a run after N matching games (1 to 10,000,000)")(
      "workers", po::value<int>()->default_value(int(s.workers)), "connections served at once (1 to 256)")(
      "threads", po::value<int>()->default_value(0), "threads of one query (0 = all cores)")(
      "problems", po::value<std::string>(), "problem file of the YACPDB tab (default: the chosen repository)");
  po::variables_map vm;
  if (auto stop = cli::parse_command_line("serve", argc, argv, visible, "REPO.pgn", true, vm, true)) return *stop;
  s.inputs = vm["REPO.pgn"].as<std::vector<std::string>>();
  if (vm.count("index")) s.index_dir = vm["index"].as<std::string>();
  if (vm.count("problems")) s.problems = vm["problems"].as<std::string>();
  s.bind = vm["bind"].as<std::string>();
  const int port = vm["port"].as<int>();
  const double timeout = vm["timeout"].as<double>();
  const long long max_results = vm["max-results"].as<long long>();
  const int workers = vm["workers"].as<int>();
  const double request_timeout = vm["request-timeout"].as<double>();
  const char* wrong = port < 0 || port > 65535                                      ? "--port: 0 to 65535"
                      : !std::isfinite(timeout) || timeout < 0.01 || timeout > 86400 ? "--timeout: 0.01 to 86400 seconds"
                      : !std::isfinite(request_timeout) || request_timeout < 0.1 || request_timeout > 3600
                          ? "--request-timeout: 0.1 to 3600 seconds"
                      : max_results < 1 || max_results > 10'000'000                   ? "--max-results: 1 to 10,000,000"
                      : workers < 1 || workers > cli::kMaxThreads                     ? "--workers: 1 to 256"
                      : s.inputs.size() > 1 && !s.index_dir.empty()
                          ? "--index names the index of one repository; give it with one REPO.pgn only"
                          : nullptr;
  const std::string clash = serve::name_clash(s.inputs);
  if (wrong || !clash.empty()) {
    std::cerr << "cqlindex serve: " << (wrong ? wrong : clash.c_str()) << "\n";
    return cli::kExitUsage;
  }
  s.port = port;
  s.timeout_seconds = timeout;
  s.request_read_seconds = request_timeout;
  s.max_results = uint64_t(max_results);
  s.workers = unsigned(workers);
  s.threads = unsigned(vm["threads"].as<int>());
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    serve::ServeSettings settings;
    if (auto stop = parse_options(argc, argv, settings)) return *stop;
    return cli::exit_code(serve::run_server(settings));
  } catch (const std::bad_alloc&) {
    std::cerr << "cqlindex serve: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "cqlindex serve: " << e.what() << "\n";
  }
  return cli::kExitInput;
}
