#pragma once
// The tags family's key directory (store/key_directory.h), written whole by every build and --append once the
// tags family is complete: it costs a pass over the tags family's keys (70,230 at 1M games), not over the games.
#include <cstdint>
#include <string>

#include "store/index_store.h"

namespace cqlindex::indexer {

// Writes the directory of the tags family of `store`, marked as written for an index of `games` games, in place
// of the one there; false (with `error`) when reading or writing fails.
bool write_tag_key_directory(store::IndexStore& store, uint64_t games, std::string* error);

}  // namespace cqlindex::indexer
