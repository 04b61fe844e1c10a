// Picks the sub-command from argv[1] and prints the overall usage.
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <malloc.h>
#include <sys/resource.h>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/output_file.h"

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
};

}  // namespace

namespace {

// What to say when memory ran out, with the address-space limit if one is set.
std::string out_of_memory_message() {
  std::string limit;
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    limit = " (the address space is limited to " + std::to_string(as.rlim_cur >> 20) + " MB: ulimit -v)";
  return "out of memory" + limit + ": try fewer --threads, a smaller input, or a higher limit";
}

// An exception that leaves a worker thread ends the process through std::terminate: out of memory there
// gets the same message and exit code as on the main thread, not an abort.
[[noreturn]] void on_terminate() {
  try {
    if (std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    std::cerr << "\ncqlindex: " << out_of_memory_message() << std::endl;
    std::_Exit(kExitInput);
  } catch (const std::exception& e) {
    std::cerr << "\ncqlindex: internal error: " << e.what() << std::endl;
  } catch (...) {
  }
  std::abort();
}
}  // namespace

int dispatch(int argc, char** argv) {
  std::set_terminate(on_terminate);
  // Under an address-space limit (ulimit -v), glibc's malloc arenas (64 MB of address space each, one per
  // thread up to 8 per core) use the limit up long before the memory is used: two arenas serve our threads.
  if (rlimit as{}; ::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) ::mallopt(M_ARENA_MAX, 2);
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
      StandardOutputWatch watch;
      const int rc = c.run(argc - 1, argv + 1);
      // What a command printed must have reached standard output (a full disk, /dev/full): else it failed
      // (a command that failed already said why).
      if (auto error = rc == kExitOk ? standard_output_error() : std::nullopt) {
        std::cerr << "cqlindex " << name << ": " << *error << "\n";
        return kExitInput;
      }
      return rc;
    } catch (const std::bad_alloc&) {
      std::cerr << "\ncqlindex " << name << ": " << out_of_memory_message() << "\n";
    } catch (const std::system_error& e) {  // threads or files the system refused
      std::cerr << "\ncqlindex " << name << ": " << e.what() << "\n";
    }
    return kExitInput;
  }
  std::cerr << "cqlindex: unknown command '" << name << "'\n\n" << kUsage;
  return kExitUsage;
}

}  // namespace cqlindex::cli
