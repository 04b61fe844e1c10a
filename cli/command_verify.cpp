// cqlindex verify [REPO.pgn | --index DIR]: reads every byte of an index and of its PGN's indexed prefix, which
// no query does (an open costs the same whatever the size of the index: store/README.md, "Integrity").
//
// Output (stdout): `index: DIR`, one `checked: ...` line per check that ran, `pgn: ...` with what the PGN's
// whole-prefix hash says, then `verified: ...`. A damaged file: `cqlindex verify: FILE ...` on stderr, one line
// each, exit 2. A PGN that changed other than by growing: exit 2 (the index is stale). Else exit 0.
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <sys/resource.h>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/verify_index.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

namespace {

// Returns what may have made the system refuse: the limit of open files, or a permission.
std::string refusal_note() {
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
    return "too many open files, a permission or memory; the limit of open files, ulimit -n, is " +
           std::to_string(files.rlim_cur);
  return "too many open files, a permission or memory";
}

}  // namespace

int command_verify(int argc, char** argv) {
  po::options_description visible("usage: cqlindex verify [REPO.pgn | --index DIR]");
  visible.add_options()("help,h", "this help")("index", po::value<std::string>(), "index folder");
  po::variables_map vm;
  if (auto stop = parse_command_line("verify", argc, argv, visible, "REPO.pgn", false, vm)) return *stop;
  if (!vm.count("REPO.pgn") && !vm.count("index")) {
    std::cerr << "cqlindex verify: name REPO.pgn or --index DIR\n" << visible;
    return kExitUsage;
  }
  exec::VerifySettings settings;
  if (vm.count("REPO.pgn")) settings.input = vm["REPO.pgn"].as<std::string>();
  if (vm.count("index")) settings.index_dir = vm["index"].as<std::string>();
  const exec::VerifySummary found = exec::verify_index(settings);
  const std::string& dir = found.index_dir;
  const std::string rebuild =
      "rebuild it with 'cqlindex build " + (settings.input.empty() ? std::string("REPO.pgn") : settings.input) + "'";
  // The system would not let a check run: say what failed, never that the index is damaged (it may be intact).
  auto refused = [&] {
    for (const std::string& line : found.refused) std::cerr << "cqlindex verify: cannot check: " << line << "\n";
    for (const std::string& line : found.damaged) std::cerr << "cqlindex verify: " << line << "\n";
    std::cerr << "cqlindex verify: index " << dir << " was not checked whole: the system refused (" << refusal_note()
              << "); this says nothing of its bytes: run verify again "
              << (found.damaged.empty() ? "once the cause is gone" : "to know the rest") << "\n";
    return exit_code(found.status);
  };
  if (!found.refused.empty() && !found.index_found) return refused();
  if (!found.index_found) {
    std::cerr << "cqlindex verify: " << found.error << " (" << rebuild << ")\n";
    return exit_code(found.status);
  }
  std::cout << "index: " << dir << "\n";
  for (const std::string& line : found.checked) std::cout << "checked: " << line << "\n";
  if (!found.refused.empty()) return refused();
  for (const std::string& line : found.damaged) std::cerr << "cqlindex verify: " << line << "\n";
  if (!found.meta_read) {
    std::cerr << "cqlindex verify: index " << dir << " is damaged; " << rebuild << "\n";
    return exit_code(found.status);
  }
  const std::string& pgn = found.pgn;
  switch (found.pgn_check) {
    case exec::PgnCheck::NotRead:
      std::cerr << "cqlindex verify: " << found.pgn_error << "\n";
      break;
    case exec::PgnCheck::Differs:
      std::cout << "checked: " << pgn << ": XXH3-64 of its " << found.pgn_size << " indexed bytes "
                << "differs: the PGN changed since it was indexed\n";
      std::cerr << "cqlindex verify: " << found.pgn_error << "\n";
      break;
    case exec::PgnCheck::Agrees:
    case exec::PgnCheck::Appended:
      std::cout << "checked: " << pgn << ": XXH3-64 of its " << found.pgn_size << " indexed bytes agrees"
                << (found.pgn_check == exec::PgnCheck::Appended
                        ? "; games were appended since (run 'cqlindex build --append " + pgn + "')"
                        : "")
                << "\n";
      if (found.touched)
        std::cout << "note: " << pgn << " was touched, rewritten or moved since it was indexed: each query reads its "
                  << "indexed bytes in full until 'cqlindex build --append " << pgn << "' records its new time stamp\n";
      break;
  }
  if (!found.damaged.empty()) {
    std::cerr << "cqlindex verify: index " << dir << " is damaged; rebuild it with 'cqlindex build " << pgn << "'\n";
    return exit_code(found.status);
  }
  if (found.status != exec::Status::Ok) return exit_code(found.status);
  std::cout << "verified: every file of the index and the PGN's indexed bytes are intact\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
