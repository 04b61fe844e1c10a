// Index folder naming and the freshness test (size, then XXH3 of the indexed bytes).
#include "indexer/index_location.h"

#include <filesystem>
#include <sys/stat.h>

#include "store/checksum_manifest.h"
#include "store/content_fingerprint.h"

namespace cqlindex::indexer {
namespace fs = std::filesystem;

std::string default_index_dir(const std::string& pgn_path) { return pgn_path + ".cqlidx"; }

bool is_index_folder(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  const fs::path d(dir);
  return fs::is_regular_file(d / kIndexMarkerName, ec) || fs::is_regular_file(d / store::kChecksumManifestName, ec);
}

std::string index_target_problem(const std::string& dir, const std::string& pgn_path) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (!fs::exists(st)) return "";
  const std::string keep = ": it is left as it is; name a new folder (or an index folder) with --index";
  if (!fs::is_directory(st)) return dir + " exists and is not a folder, so it is not an index" + keep;
  if (!is_index_folder(dir))
    return dir + " is a folder but not an index built by cqlindex (it has no " + kIndexMarkerName + ")" + keep;
  // An index folder that holds the PGN itself (or is the PGN's folder) would take the PGN with it.
  const fs::path folder = fs::weakly_canonical(dir, ec);
  const fs::path pgn = fs::weakly_canonical(pgn_path, ec);
  auto f = folder.begin();
  auto p = pgn.begin();
  for (; f != folder.end() && p != pgn.end() && *f == *p; ++f, ++p) {
  }
  if (f == folder.end()) return dir + " holds " + pgn_path + keep;
  return "";
}

namespace {

// Returns the device and inode of `dir` (zeros when it cannot be read).
std::pair<dev_t, ino_t> folder_identity(const std::string& dir) {
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) return {0, 0};
  return {st.st_dev, st.st_ino};
}

}  // namespace

std::unique_ptr<store::IndexStore> open_index_for_reading(const std::string& dir, std::string* error,
                                                          const std::vector<store::Family>& families) {
  std::unique_ptr<store::IndexStore> index;
  // A build swaps a new folder in with one rename (index_builder.cpp), so the folder's identity tells whether a
  // swap happened during the open; two swaps in a row are rare, a third retry rarer still.
  for (int attempt = 0; attempt < 3; ++attempt) {
    const auto before = folder_identity(dir);
    index = store::IndexStore::open_for_reading(dir, error, families);
    if (folder_identity(dir) == before) break;
    index.reset();
    if (error) *error = "index " + dir + " was replaced by a build while it was opened, three times in a row";
  }
  return index;
}

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
