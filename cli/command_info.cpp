// cqlindex info [REPO.pgn... | NAME.cqlrepo | --index DIR]: prints what an index holds and whether it matches its PGN.
//
// Output (stdout), one `name: value` line each: index, pgn, status, games, positions, keys per family (and the
// estimated distinct positions and the bucket count of the similar family, whose keys are buckets),
// bytes per family, total bytes, bytes per game. A repository of several files (exec/repository.h): each
// file's block, a blank line between, then `repository: K files, G games, B bytes (b bytes per game)` and the
// global game numbers of each file (`file N: games FIRST-LAST PATH`). Exit 0, or 2 when there is no usable
// index (for a repository: when any file has none, after the blocks of the others).
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/open_index.h"
#include "exec/repository.h"
#include "indexer/index_location.h"
#include "store/distinct_sketch.h"
#include "store/index_store.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

namespace {

struct InfoTotals {
  uint64_t games = 0, bytes = 0;
};

// Prints the block of the index in `dir` (of `named_pgn`, else of the PGN its meta names) and adds its games and
// bytes to `totals`; returns the exit code.
int print_index_info(const std::string& dir, const std::string& named_pgn, InfoTotals& totals) {
  std::string error;
  if (std::error_code exists_error; std::filesystem::exists(dir, exists_error) && !indexer::is_index_folder(dir)) {  // not "damaged": never was an index
    std::cerr << "cqlindex info: " << dir << " is not an index built by cqlindex\n";
    return kExitInput;
  }
  auto store = indexer::open_index_for_reading(dir, &error);
  if (!store) {
    if (std::string os = exec::os_refusal(dir, error); !os.empty()) error = "cannot read the index " + dir + ": " + os;
    std::cerr << "cqlindex info: " << error << "\n";
    return kExitInput;
  }
  const store::IndexMeta& meta = store->meta();
  const std::string pgn = !named_pgn.empty() ? named_pgn : meta.pgn_path;
  std::string status;
  if (auto freshness = indexer::check_freshness(meta, pgn, &error)) {
    status = *freshness == indexer::Freshness::Fresh      ? "up to date"
             : *freshness == indexer::Freshness::Appended ? "games appended since the build (run build --append)"
                                                          : "stale (the PGN changed; rebuild)";
  } else {
    status = "PGN unreadable: " + error;
  }
  std::cout << "index: " << dir << "\n"
            << "pgn: " << meta.pgn_path << " (" << meta.pgn_size << " bytes)\n"
            << "status: " << status << "\n"
            << "schema version: " << meta.schema_version << "\n"
            << "games: " << meta.game_count << "\n"
            << "positions: " << meta.position_count << "\n";
  uint64_t total = 0;
  for (size_t i = 0; i < store::kFamilyCount; ++i) {
    auto family = static_cast<store::Family>(i);
    uint64_t bytes = store->family_bytes(family);
    total += bytes;
    std::cout << "family " << store::family_name(family) << ": " << store->family_keys(family) << " keys, ";
    if (family == store::Family::Similar) {  // its keys are buckets (store/position_buckets.h)
      // Estimated from the sketch the build kept (counting them would read the whole family).
      const auto sketch = store::DistinctSketch::from_text(meta.distinct_sketch);
      std::cout << "about " << (sketch ? sketch->estimate() : 0) << " distinct positions in "
                << (uint64_t{1} << meta.similar_bucket_bits) << " buckets, ";
    }
    std::cout << bytes << " bytes\n";
  }
  uint64_t folder = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file(ec)) folder += entry.file_size(ec);
  totals.games += meta.game_count;
  totals.bytes += folder;
  std::cout << "bytes: " << folder << " (" << total << " in tables)\n"
            << "bytes per game: " << (meta.game_count ? folder / meta.game_count : 0) << "\n";
  return kExitOk;
}

}  // namespace

int command_info(int argc, char** argv) {
  po::options_description visible("usage: cqlindex info [REPO.pgn... | NAME.cqlrepo | --index DIR]");
  visible.add_options()("help,h", "this help")("index", po::value<std::string>(), "index folder");
  po::variables_map vm;
  if (auto stop = parse_command_line("info", argc, argv, visible, "REPO.pgn", false, vm, true)) return *stop;
  if (!vm.count("REPO.pgn") && !vm.count("index")) {
    std::cerr << "cqlindex info: name REPO.pgn or --index DIR\n" << visible;
    return kExitUsage;
  }
  InfoTotals totals;
  if (!vm.count("REPO.pgn")) return print_index_info(vm["index"].as<std::string>(), "", totals);
  std::string error;
  const auto repository = exec::Repository::resolve(vm["REPO.pgn"].as<std::vector<std::string>>(), &error);
  if (!repository) {
    std::cerr << "cqlindex info: " << error << "\n";
    return kExitInput;
  }
  const std::vector<std::string>& files = repository->files();
  if (files.size() == 1) {
    const std::string dir = vm.count("index") ? vm["index"].as<std::string>() : indexer::default_index_dir(files[0]);
    return print_index_info(dir, files[0], totals);
  }
  if (files.empty() || vm.count("index")) {
    std::cerr << "cqlindex info: " << (files.empty() ? "the repository list names no PGN file"
                                                     : "--index names the index of one file, not of a repository")
              << "\n";
    return files.empty() ? kExitInput : kExitUsage;
  }
  int first_failure = kExitOk;
  std::vector<std::pair<uint64_t, uint64_t>> numbers;  // each file's first and last game numbers
  for (size_t k = 0; k < files.size(); ++k) {
    if (k) std::cout << "\n";
    const uint64_t before = totals.games;
    const int code = print_index_info(indexer::default_index_dir(files[k]), files[k], totals);
    if (first_failure == kExitOk) first_failure = code;
    numbers.emplace_back(before + 1, totals.games);
  }
  if (first_failure != kExitOk) return first_failure;  // the game numbers need every file's count
  std::cout << "\nrepository: " << files.size() << " files, " << totals.games << " games, " << totals.bytes
            << " bytes (" << (totals.games ? totals.bytes / totals.games : 0) << " bytes per game)\n";
  for (size_t k = 0; k < files.size(); ++k)
    std::cout << "file " << k + 1 << ": games " << numbers[k].first << "-" << numbers[k].second << " " << files[k]
              << "\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
