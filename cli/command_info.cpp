// cqlindex info [REPO.pgn | --index DIR]: prints what an index holds and whether it matches its PGN.
//
// Output (stdout), one `name: value` line each: index, pgn, status, games, positions, keys per family (and the
// estimated distinct positions and the bucket count of the similar family, whose keys are buckets),
// bytes per family, total bytes, bytes per game. Exit 0, or 2 when there is no usable index.
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/open_index.h"
#include "indexer/index_location.h"
#include "store/distinct_sketch.h"
#include "store/index_store.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

int command_info(int argc, char** argv) {
  po::options_description visible("usage: cqlindex info [REPO.pgn | --index DIR]");
  visible.add_options()("help,h", "this help")("index", po::value<std::string>(), "index folder");
  po::variables_map vm;
  if (auto stop = parse_command_line("info", argc, argv, visible, "REPO.pgn", false, vm)) return *stop;
  if (!vm.count("REPO.pgn") && !vm.count("index")) {
    std::cerr << "cqlindex info: name REPO.pgn or --index DIR\n" << visible;
    return kExitUsage;
  }
  const std::string dir = vm.count("index") ? vm["index"].as<std::string>()
                                            : indexer::default_index_dir(vm["REPO.pgn"].as<std::string>());
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
  const std::string pgn = vm.count("REPO.pgn") ? vm["REPO.pgn"].as<std::string>() : meta.pgn_path;
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
  std::cout << "bytes: " << folder << " (" << total << " in tables)\n"
            << "bytes per game: " << (meta.game_count ? folder / meta.game_count : 0) << "\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
