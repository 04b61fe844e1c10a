#include "cli/open_index.h"

#include <filesystem>
#include <iostream>

#include "cli/exit_codes.h"
#include "indexer/index_location.h"

namespace cqlindex::cli {

int open_fresh_index(const IndexRequest& request, std::unique_ptr<store::IndexStore>& index, std::string* dir_out) {
  const bool named = !request.named_dir.empty();
  const std::string dir = named ? request.named_dir : indexer::default_index_dir(request.input);
  if (dir_out) *dir_out = dir;
  const std::string prefix = "cqlindex " + request.command + ": ";
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    if (!named) return kExitOk;
    std::cerr << prefix << "no index at " << dir << "\n";
    return kExitInput;
  }
  // A folder this tool did not build is not offered to `build`, which would refuse to replace it anyway.
  if (!indexer::is_index_folder(dir)) {
    std::cerr << prefix << dir << " is not an index built by cqlindex (name the index folder with --index, or use "
              << "--no-index)\n";
    return kExitInput;
  }
  std::string error;
  index = indexer::open_index_for_reading(dir, &error, request.families);
  if (!index) {
    std::cerr << prefix << error << " (rebuild it with 'cqlindex build " << request.input
              << (named ? " --index " + dir : std::string()) << request.build_flags << "', or use --no-index)\n";
    return kExitInput;
  }
  indexer::FreshnessEvidence evidence{};
  auto freshness = indexer::check_freshness(index->meta(), request.input, &error, &evidence);
  if (!freshness) {
    std::cerr << prefix << error << "\n";
    index.reset();
    return kExitInput;
  }
  if (*freshness != indexer::Freshness::Fresh) {
    const auto why = request.appendable ? *freshness : indexer::Freshness::Stale;
    std::cerr << prefix << indexer::refusal_message(why, request.input, dir, request.build_flags) << "\n";
    index.reset();
    return kExitInput;
  }
  if (evidence == indexer::FreshnessEvidence::WholeRead)
    std::cerr << prefix << indexer::whole_read_note(request.input, request.build_flags) << "\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
