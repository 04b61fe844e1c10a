// Writes the tags family's key directory (tag_key_directory.h).
#include "indexer/tag_key_directory.h"

#include <vector>

#include "store/key_directory.h"

namespace cqlindex::indexer {

bool write_tag_key_directory(store::IndexStore& store, uint64_t games, std::string* error) {
  std::vector<std::string> keys;
  const bool read = store.for_each_read_once(store::Family::Tags, "", [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  }, error);
  return read && store.replace_family(store::Family::TagKeys, store::directory_chunks(keys, games), error);
}

}  // namespace cqlindex::indexer
