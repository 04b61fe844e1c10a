// cqlindex verify [REPO.pgn | --index DIR]: reads every byte of an index and of its PGN's indexed prefix, which
// no query does (an open costs the same whatever the size of the index: store/README.md, "Integrity").
//
// Output (stdout): `index: DIR`, one `checked: ...` line per check that ran, `pgn: ...` with what the PGN's
// whole-prefix hash says, then `verified: ...`. A damaged file: `cqlindex verify: FILE ...` on stderr, one line
// each, exit 2. A PGN that changed other than by growing: exit 2 (the index is stale). Else exit 0.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "indexer/index_location.h"
#include "store/index_store.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_verify(int argc, char** argv) {
  po::options_description visible("usage: cqlindex verify [REPO.pgn | --index DIR]");
  visible.add_options()("help,h", "this help")("index", po::value<std::string>(), "index folder");
  po::variables_map vm;
  if (auto stop = parse_command_line("verify", argc, argv, visible, "REPO.pgn", false, vm)) return *stop;
  if (!vm.count("REPO.pgn") && !vm.count("index")) {
    std::cerr << "cqlindex verify: name REPO.pgn or --index DIR\n" << visible;
    return kExitUsage;
  }
  const std::string dir = vm.count("index") ? vm["index"].as<std::string>()
                                            : indexer::default_index_dir(vm["REPO.pgn"].as<std::string>());
  std::string error;
  store::IndexStore::Verification found;
  const std::string rebuild =
      "rebuild it with 'cqlindex build " + (vm.count("REPO.pgn") ? vm["REPO.pgn"].as<std::string>() : "REPO.pgn") + "'";
  if (!store::IndexStore::verify(dir, found, &error)) {
    std::cerr << "cqlindex verify: " << error << " (" << rebuild << ")\n";
    return kExitInput;
  }
  std::cout << "index: " << dir << "\n";
  for (const std::string& line : found.checked) std::cout << "checked: " << line << "\n";
  for (const std::string& line : found.damaged) std::cerr << "cqlindex verify: " << line << "\n";
  if (!found.meta) {
    std::cerr << "cqlindex verify: index " << dir << " is damaged; " << rebuild << "\n";
    return kExitInput;
  }
  const store::IndexMeta& meta = *found.meta;
  const std::string pgn = vm.count("REPO.pgn") ? vm["REPO.pgn"].as<std::string>() : meta.pgn_path;
  bool pgn_ok = true;
  auto freshness = indexer::check_freshness_in_full(meta, pgn, &error);
  if (!freshness) {
    std::cerr << "cqlindex verify: " << error << "\n";
    pgn_ok = false;
  } else {
    std::cout << "checked: " << pgn << ": XXH3-64 of its " << meta.pgn_size << " indexed bytes ";
    if (*freshness == indexer::Freshness::Stale) {
      std::cout << "differs: the PGN changed since it was indexed\n";
      std::cerr << "cqlindex verify: " << indexer::refusal_message(*freshness, pgn, dir) << "\n";
      pgn_ok = false;
    } else {
      std::cout << "agrees" << (*freshness == indexer::Freshness::Appended ? "; games were appended since (run "
                                                                             "'cqlindex build --append " + pgn + "')"
                                                                           : "")
                << "\n";
      auto now = indexer::pgn_identity(pgn, &error);
      if (now && (now->mtime_ns != meta.pgn_mtime_ns || now->device != meta.pgn_device || now->inode != meta.pgn_inode))
        std::cout << "note: " << pgn << " was touched, rewritten or moved since it was indexed: each query reads its "
                  << "indexed bytes in full until 'cqlindex build --append " << pgn << "' records its new time stamp\n";
    }
  }
  if (!found.damaged.empty()) {
    std::cerr << "cqlindex verify: index " << dir << " is damaged; rebuild it with 'cqlindex build " << pgn << "'\n";
    return kExitInput;
  }
  if (!pgn_ok) return kExitInput;
  std::cout << "verified: every file of the index and the PGN's indexed bytes are intact\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
