// Index folder naming and the freshness test (size, then XXH3 of the indexed bytes).
#include "indexer/index_location.h"

#include <filesystem>

#include "store/content_fingerprint.h"

namespace cqlindex::indexer {
namespace fs = std::filesystem;

std::string default_index_dir(const std::string& pgn_path) { return pgn_path + ".cqlidx"; }

std::optional<Freshness> check_freshness(const store::IndexMeta& meta, const std::string& pgn_path,
                                         std::string* error) {
  std::error_code ec;
  uint64_t size = fs::file_size(pgn_path, ec);
  if (ec) {
    if (error) *error = pgn_path + ": " + ec.message();
    return std::nullopt;
  }
  if (size < meta.pgn_size) return Freshness::Stale;
  // The whole indexed part is hashed every time: a size and a time stamp can stay the same across an edit.
  auto hash = store::fingerprint_file_prefix(pgn_path, meta.pgn_size, error);
  if (!hash) return std::nullopt;
  if (*hash != meta.pgn_fingerprint) return Freshness::Stale;
  return size == meta.pgn_size ? Freshness::Fresh : Freshness::Appended;
}

std::string refusal_message(Freshness freshness, const std::string& pgn_path, const std::string& index_dir,
                            const std::string& build_flags) {
  if (freshness == Freshness::Appended)
    return "index " + index_dir + " does not cover the games appended to " + pgn_path +
           " since it was built; run 'cqlindex build --append " + pgn_path + build_flags + "' (or use --no-index)";
  return "index " + index_dir + " is stale: " + pgn_path + " has changed since it was indexed; run 'cqlindex build " +
         pgn_path + build_flags + "' to rebuild it (or use --no-index)";
}

}  // namespace cqlindex::indexer
