// Picks the sub-command from argv[1] and prints the overall usage.
#include <cstring>
#include <iostream>
#include <string_view>

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

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  for (const Command& c : kCommands)
    if (c.run && name == c.name) {
      StandardOutputWatch watch;
      const int rc = c.run(argc - 1, argv + 1);
      // What a command printed must have reached standard output (a full disk, /dev/full): else it failed
      // (a command that failed already said why).
      if (auto error = rc == kExitOk ? standard_output_error() : std::nullopt) {
        std::cerr << "cqlindex " << name << ": " << *error << "\n";
        return kExitInput;
      }
      return rc;
    }
  std::cerr << "cqlindex: unknown command '" << name << "'\n\n" << kUsage;
  return kExitUsage;
}

}  // namespace cqlindex::cli
