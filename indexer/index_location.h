#pragma once
// Where an index lives and whether it still describes its PGN.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/family.h"
#include "store/index_meta.h"
#include "store/index_store.h"

namespace cqlindex::indexer {

// Returns the default index folder of a PGN: `REPO.pgn.cqlidx` beside it.
std::string default_index_dir(const std::string& pgn_path);

// The file every index folder this tool builds holds: what lets a build replace a folder (it never replaces or
// removes one without it, nor a file).
constexpr const char* kIndexMarkerName = "CQLINDEX-INDEX";

// Returns true when `dir` is a folder that holds an index this tool built: its marker file, or (indexes built
// before the marker existed) its store::kChecksumManifestName.
bool is_index_folder(const std::string& dir);

// Returns what stands at `dir` in place of a folder (a named pipe, a device, a socket, a file, a symbolic link
// that leads nowhere or in a loop), naming the path and the problem; empty when nothing is there or a folder is.
// Only stat is used: nothing is opened (a named pipe would block its reader).
std::string index_path_problem(const std::string& dir);

// Returns why `dir` cannot receive the index of `pgn_path` (it exists and is not an index folder this tool
// built, or it holds the PGN), or an empty string when it can.
std::string index_target_problem(const std::string& dir, const std::string& pgn_path);

// Opens the index in `dir` as store::IndexStore::open_for_reading does; when a build replaced the folder while
// it was being opened (one generation's files read, then the other's), it opens it again, so a reader sees one
// whole generation.
std::unique_ptr<store::IndexStore> open_index_for_reading(const std::string& dir, std::string* error,
                                                          const std::vector<store::Family>& families = {});

enum class Freshness {
  Fresh,     // the PGN is byte for byte what was indexed
  Appended,  // the PGN starts with what was indexed and has grown: `build --append` can extend the index
  Stale,     // anything else: the index must be rebuilt
};

// What stat says about a PGN: the facts an index records to recognise it without reading it.
struct PgnIdentity {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t device = 0;
  uint64_t inode = 0;
};

// Returns the identity of the file at `path`, or nullopt (with `error`) when stat fails.
std::optional<PgnIdentity> pgn_identity(const std::string& path, std::string* error);

// How much of the PGN check_freshness read.
enum class FreshnessEvidence {
  Identity,   // same size, time stamp, device and inode, and the sampled blocks agree: constant time
  WholeRead,  // same size and samples but another time stamp or file: the indexed bytes were hashed in full
  Refused,    // the answer is Appended or Stale (samples or size; `build --append` then checks the prefix whole)
};

// Returns how the PGN at `pgn_path` relates to the index described by `meta`, in constant time unless the file
// was touched, replaced or moved (see FreshnessEvidence and store/README.md, "Freshness"); nullopt (with `error`)
// when the PGN cannot be read. `evidence` (optional) receives what the answer rests on.
std::optional<Freshness> check_freshness(const store::IndexMeta& meta, const std::string& pgn_path,
                                         std::string* error, FreshnessEvidence* evidence = nullptr);

// Returns how the PGN relates to the index by hashing its whole indexed prefix (what `verify` and
// `build --append` rely on); nullopt (with `error`) when the PGN cannot be read.
std::optional<Freshness> check_freshness_in_full(const store::IndexMeta& meta, const std::string& pgn_path,
                                                 std::string* error);

// Returns the message a query prints when it refuses an index that is not fresh (`build_flags`: what the
// rebuild command needs besides the file, e.g. " --yacpdb").
std::string refusal_message(Freshness freshness, const std::string& pgn_path, const std::string& index_dir,
                            const std::string& build_flags = "");

// Returns the note a query prints when check_freshness had to read the whole indexed prefix (WholeRead).
std::string whole_read_note(const std::string& pgn_path, const std::string& build_flags = "");

}  // namespace cqlindex::indexer
