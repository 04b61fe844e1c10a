// Index folder naming and the freshness test: stat facts and sampled blocks on every open, the whole indexed
// prefix only when the stat facts cannot vouch for it (store/README.md, "Freshness").
#include "indexer/index_location.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

#include "store/content_fingerprint.h"

namespace cqlindex::indexer {

std::string default_index_dir(const std::string& pgn_path) { return pgn_path + ".cqlidx"; }

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
