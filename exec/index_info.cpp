// `cqlindex info`: the index's meta, freshness and family sizes.
#include "exec/index_info.h"

#include <filesystem>
#include <iostream>

#include "exec/open_index.h"
#include "indexer/index_location.h"
#include "store/distinct_sketch.h"
#include "store/index_store.h"

namespace cqlindex::exec {
uint64_t folder_bytes(const std::string& dir) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file(ec)) bytes += entry.file_size(ec);
  return bytes;
}

namespace {

// Returns what the freshness check's answer means for the summary.
PgnState state_of(indexer::Freshness freshness) {
  switch (freshness) {
    case indexer::Freshness::Fresh: return PgnState::Fresh;
    case indexer::Freshness::Appended: return PgnState::Appended;
    case indexer::Freshness::Stale: return PgnState::Stale;
  }
  return PgnState::Stale;
}

}  // namespace

IndexInfoSummary index_info(const IndexInfoSettings& settings) {
  IndexInfoSummary summary;
  summary.index_dir = settings.index_dir.empty() ? indexer::default_index_dir(settings.input) : settings.index_dir;
  const std::string& dir = summary.index_dir;
  std::string error;
  if (std::string problem = indexer::index_path_problem(dir); !problem.empty()) {
    std::cerr << "cqlindex info: " << problem << "\n";
    return stopped(summary, Status::InputError);
  }
  if (std::error_code exists_error; std::filesystem::exists(dir, exists_error) && !indexer::is_index_folder(dir)) {
    std::cerr << "cqlindex info: " << dir << " is not an index built by cqlindex\n";  // not "damaged": never was one
    return stopped(summary, Status::InputError);
  }
  auto store = indexer::open_index_for_reading(dir, &error);
  if (!store) {
    if (std::string os = os_refusal(dir, error); !os.empty()) error = "cannot read the index " + dir + ": " + os;
    std::cerr << "cqlindex info: " << error << "\n";
    return stopped(summary, Status::InputError);
  }
  const store::IndexMeta& meta = store->meta();
  summary.pgn_path = meta.pgn_path;
  summary.pgn_size = meta.pgn_size;
  summary.schema_version = meta.schema_version;
  summary.games = meta.game_count;
  summary.positions = meta.position_count;
  summary.pgn_checked = settings.input.empty() ? meta.pgn_path : settings.input;
  if (auto freshness = indexer::check_freshness(meta, summary.pgn_checked, &error)) {
    summary.pgn_state = state_of(*freshness);
  } else {
    summary.pgn_state = PgnState::Unreadable;
    summary.pgn_error = error;
  }
  for (size_t i = 0; i < store::kFamilyCount; ++i) {
    const auto family = static_cast<store::Family>(i);
    FamilyInfo info;
    info.name = store::family_name(family);
    info.keys = store->family_keys(family);
    info.bytes = store->family_bytes(family);
    if (family == store::Family::Similar) {  // its keys are buckets (store/position_buckets.h)
      // Estimated from the sketch the build kept (counting them would read the whole family).
      const auto sketch = store::DistinctSketch::from_text(meta.distinct_sketch);
      info.bucketed = true;
      info.distinct_positions = sketch ? sketch->estimate() : 0;
      info.buckets = uint64_t{1} << meta.similar_bucket_bits;
    }
    summary.table_bytes += info.bytes;
    summary.families.push_back(std::move(info));
  }
  summary.folder_bytes = folder_bytes(dir);
  return summary;
}

}  // namespace cqlindex::exec
