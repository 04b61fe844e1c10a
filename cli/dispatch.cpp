// Picks the sub-command from argv[1] and prints the overall usage.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/output_file.h"

namespace cqlindex::cli {
namespace {

constexpr const char* kUsage =
    "usage: cqlindex COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  build REPO.pgn [--index DIR] [--threads N] [--append]\n"
    "                           index a repository (or the games appended to it)\n"
    "  info [REPO.pgn | --index DIR]\n"
    "                           what an index holds\n"
    "  verify [REPO.pgn | --index DIR]\n"
    "                           read every byte of an index and of its PGN's indexed part; name a damaged file\n"
    "  check FILE.pgn [--fen]   validate a PGN file; --fen prints every mainline position\n"
    "  run QUERY.cql [-i IN.pgn] [-o OUT.pgn] [CQL options]\n"
    "                           run (or with -parse: parse) a CQL query\n"
    "  similar SUBMISSIONS.pgn -i REPO.pgn [-o OUT.pgn] [--nosort] [--notransform] [--no-index]\n"
    "                           CQL's -similarposition, through the index (judges' predecessor search)\n"
    "  yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]\n"
    "                           YACPDB query language over problems (PGN or YACPDB YAML)\n"
    "  explain QUERY.cql -i REPO.pgn [--index DIR]\n"
    "                           the index plan of a query and how many games it leaves\n"
    "  serve REPO.pgn|REPO.cqlrepo [REPO2 ...] [--port N] [--bind ADDR] [--timeout S]\n"
    "                           the indexes kept open behind a local web page and JSON API\n"
    "\n"
    "Run 'cqlindex COMMAND --help' for the options of a command.\n";

struct Command {
  const char* name;
  int (*run)(int, char**);
};

// One row per sub-command; a command is listed here once it exists.
constexpr Command kCommands[] = {
    {"help", nullptr},
    {"check", command_check},
    {"build", command_build},
    {"info", command_info},
    {"verify", command_verify},
    {"run", run_command},
    {"similar", command_similar},
    {"yacpdb", command_yacpdb},
    {"explain", command_explain},
    {"serve", command_serve},
};

}  // namespace

namespace {

// What to say when memory ran out, with the address-space limit if one is set. Written into a static buffer:
// there may be no memory left for a string, and two threads may run out at once (the text is the same).
const char* out_of_memory_message() {
  static char text[256];
  rlimit as{};
  char limit[96] = "";
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    std::snprintf(limit, sizeof limit, " (the address space is limited to %llu MB: ulimit -v)",
                  static_cast<unsigned long long>(as.rlim_cur >> 20));
  std::snprintf(text, sizeof text, "out of memory%s: try fewer --threads, a smaller input, or a higher limit", limit);
  return text;
}

// Writes `parts` to standard error with write(2): neither memory nor a lock is needed.
void write_stderr(std::initializer_list<const char*> parts) {
  for (const char* part : parts)
    for (size_t n = std::strlen(part); n > 0;) {
      const ssize_t k = ::write(2, part, n);
      if (k <= 0) break;
      part += k;
      n -= size_t(k);
    }
}

// An exception that leaves a worker thread ends the process through std::terminate: out of memory there
// gets the same message and exit code as on the main thread, not an abort. Only the first thread to get here
// speaks; the others wait for its exit.
[[noreturn]] void on_terminate() {
  static std::atomic<bool> ending{false};
  if (ending.exchange(true))
    for (;;) ::pause();
  try {
    if (std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    write_stderr({"\ncqlindex: ", out_of_memory_message(), "\n"});
    exec::exit_removing_temporary_outputs(kExitInput);
  } catch (const std::exception& e) {
    write_stderr({"\ncqlindex: internal error: ", e.what(), "\n"});
  } catch (...) {
  }
  std::abort();
}
}  // namespace

int dispatch(int argc, char** argv) {
  std::set_terminate(on_terminate);
  exec::fail_writes_past_file_size_limit();
  // Under an address-space limit (ulimit -v), glibc's malloc arenas (64 MB of address space reserved each, one
  // per thread up to 8 per core) use the limit up long before the memory is used: the one main arena serves
  // every thread (a little contention where memory, not time, is short).
  if (rlimit as{}; ::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) ::mallopt(M_ARENA_MAX, 1);
  if (argc < 2) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  for (const Command& c : kCommands) {
    if (!c.run || name != c.name) continue;
    try {
      exec::StandardOutputWatch watch;
      const int rc = c.run(argc - 1, argv + 1);
      // What a command printed must have reached standard output (a full disk, /dev/full): else it failed
      // (a command that failed already said why).
      if (auto error = rc == kExitOk ? exec::standard_output_error() : std::nullopt) {
        std::cerr << "cqlindex " << name << ": " << *error << "\n";
        return kExitInput;
      }
      return rc;
    } catch (const std::bad_alloc&) {
      std::cerr << "\ncqlindex " << name << ": " << out_of_memory_message() << "\n";
    } catch (const std::system_error& e) {  // threads or files the system refused
      // A thread refused for want of address space (EAGAIN from pthread_create) is memory running out.
      const bool memory = e.code() == std::errc::resource_unavailable_try_again ||
                          e.code() == std::errc::not_enough_memory;
      std::cerr << "\ncqlindex " << name << ": " << (memory ? std::string(out_of_memory_message()) + " (" + e.what() + ")" : e.what())
                << "\n";
    }
    return kExitInput;
  }
  std::cerr << "cqlindex: unknown command '" << name << "'\n\n" << kUsage;
  return kExitUsage;
}

}  // namespace cqlindex::cli
