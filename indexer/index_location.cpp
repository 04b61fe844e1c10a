// Index folder naming and the freshness test: stat facts and sampled blocks on every open, the whole indexed
// prefix only when the stat facts cannot vouch for it (store/README.md, "Freshness").
#include "indexer/index_location.h"

#include <cerrno>
#include <cstring>
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

std::string index_path_problem(const std::string& dir) {
  struct stat link {}, st {};
  if (::lstat(dir.c_str(), &link) != 0) return "";  // nothing there (or a folder on the way we may not read)
  if (::stat(dir.c_str(), &st) != 0) {
    const int why = errno;
    std::error_code ec;
    const fs::path target = fs::read_symlink(dir, ec);
    return dir + " is a symbolic link" + (ec ? std::string() : " to " + target.string()) + " that cannot be followed: " +
           (why == ELOOP ? "the links form a loop" : why == ENOENT ? "its target does not exist" : std::strerror(why));
  }
  if (S_ISDIR(st.st_mode)) return "";
  const char* what = S_ISFIFO(st.st_mode)                          ? "a named pipe"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                     : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                                  : "a file";
  return dir + " is " + what + ", not a folder (so not an index)";
}

std::string index_target_problem(const std::string& dir, const std::string& pgn_path) {
  const std::string keep = ": it is left as it is; name a new folder (or an index folder) with --index";
  if (std::string problem = index_path_problem(dir); !problem.empty()) return problem + keep;
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (!fs::exists(st)) return "";
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

std::optional<PgnIdentity> pgn_identity(const std::string& path, std::string* error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (error) *error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  return PgnIdentity{uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
                     uint64_t(st.st_dev), uint64_t(st.st_ino)};
}

std::optional<Freshness> check_freshness(const store::IndexMeta& meta, const std::string& pgn_path,
                                         std::string* error, FreshnessEvidence* evidence) {
  if (evidence) *evidence = FreshnessEvidence::Refused;
  auto now = pgn_identity(pgn_path, error);
  if (!now) return std::nullopt;
  if (now->size < meta.pgn_size) return Freshness::Stale;
  auto samples = store::fingerprint_file_samples(pgn_path, meta.pgn_size, error);
  if (!samples) return std::nullopt;
  if (*samples != meta.pgn_sample_hash) return Freshness::Stale;
  // A grown file is refused either way; `build --append` hashes the prefix whole before it extends the index.
  if (now->size > meta.pgn_size) return Freshness::Appended;
  if (now->mtime_ns == meta.pgn_mtime_ns && now->device == meta.pgn_device && now->inode == meta.pgn_inode) {
    if (evidence) *evidence = FreshnessEvidence::Identity;
    return Freshness::Fresh;
  }
  // Touched, rewritten, replaced or moved with the same size: an edit that keeps the size (a result fixed in
  // place) changes the time stamp, and the samples cannot vouch for the bytes between them.
  auto whole = store::fingerprint_file_prefix(pgn_path, meta.pgn_size, error);
  if (!whole) return std::nullopt;
  if (*whole != meta.pgn_fingerprint) return Freshness::Stale;
  if (evidence) *evidence = FreshnessEvidence::WholeRead;
  return Freshness::Fresh;
}

std::optional<Freshness> check_freshness_in_full(const store::IndexMeta& meta, const std::string& pgn_path,
                                                 std::string* error) {
  auto now = pgn_identity(pgn_path, error);
  if (!now) return std::nullopt;
  if (now->size < meta.pgn_size) return Freshness::Stale;
  auto whole = store::fingerprint_file_prefix(pgn_path, meta.pgn_size, error);
  if (!whole) return std::nullopt;
  if (*whole != meta.pgn_fingerprint) return Freshness::Stale;
  return now->size == meta.pgn_size ? Freshness::Fresh : Freshness::Appended;
}

std::string refusal_message(Freshness freshness, const std::string& pgn_path, const std::string& index_dir,
                            const std::string& build_flags) {
  if (freshness == Freshness::Appended)
    return "index " + index_dir + " does not cover the games appended to " + pgn_path +
           " since it was built; run 'cqlindex build --append " + pgn_path + build_flags + "' (or use --no-index)";
  return "index " + index_dir + " is stale: " + pgn_path + " has changed since it was indexed; run 'cqlindex build " +
         pgn_path + build_flags + "' to rebuild it (or use --no-index)";
}

std::string whole_read_note(const std::string& pgn_path, const std::string& build_flags) {
  return "note: " + pgn_path + " was touched, rewritten or moved since it was indexed; its indexed bytes were read "
         "in full and are unchanged. Run 'cqlindex build --append " + pgn_path + build_flags +
         "' to record its new time stamp and skip this check";
}

}  // namespace cqlindex::indexer
