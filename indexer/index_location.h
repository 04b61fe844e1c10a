#pragma once
// Where an index lives and whether it still describes its PGN.
#include <optional>
#include <string>

#include "store/index_meta.h"

namespace cqlindex::indexer {

// Returns the default index folder of a PGN: `REPO.pgn.cqlidx` beside it.
std::string default_index_dir(const std::string& pgn_path);

enum class Freshness {
  Fresh,     // the PGN is byte for byte what was indexed
  Appended,  // the PGN starts with what was indexed and has grown: `build --append` can extend the index
  Stale,     // anything else: the index must be rebuilt
};

// Returns how the PGN at `pgn_path` relates to the index described by `meta`; nullopt (with `error`) when
// the PGN cannot be read.
std::optional<Freshness> check_freshness(const store::IndexMeta& meta, const std::string& pgn_path,
                                         std::string* error);

// Returns the message a query prints when it refuses an index that is not fresh (`build_flags`: what the
// rebuild command needs besides the file, e.g. " --yacpdb").
std::string refusal_message(Freshness freshness, const std::string& pgn_path, const std::string& index_dir,
                            const std::string& build_flags = "");

}  // namespace cqlindex::indexer
