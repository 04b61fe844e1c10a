#pragma once
// The indexes of a repository's files (repository.h): each file's own index, checked for freshness on its own
// before any game is read, so that a stale one is refused by name before any output. A repository of several
// files is checked with each index's meta family alone (RocksDB loads no other table: opening 100 indexes
// stays cheap) and closed again; a file's index is opened whole when the file's turn comes, and closed after
// it, so only one is open at a time. A one-file repository's index is opened whole once, as before.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/open_index.h"
#include "exec/repository.h"
#include "exec/status.h"
#include "store/index_store.h"

namespace cqlindex::exec {

class RepositoryIndexes {
 public:
  // Checks the index of every file of `repository` as open_fresh_index does for one file (`request.input` is
  // ignored; `request.named_dir`, --index, is allowed only for a one-file repository). Returns Ok, else the
  // first refusal's status, its message (naming the file) on stderr. When some files have an index and others
  // none, one message names those without (they are scanned); with none at all nothing is said, as for one file.
  Status check(const IndexRequest& request, const Repository& repository);

  // Returns true when file `k` has a fresh index.
  bool indexed(size_t k) const { return k < game_counts_.size() && game_counts_[k].has_value(); }
  // Returns the games of file k's index (its meta); 0 when it has none.
  uint64_t games(size_t k) const { return indexed(k) ? *game_counts_[k] : 0; }
  // Opens file k's index for reading (null when it has none), once per file: Ok, or the refusal (on stderr) of
  // an index that changed since check().
  Status open(size_t k, std::unique_ptr<store::IndexStore>& index);

 private:
  IndexRequest request_;
  std::vector<std::string> files_;
  std::vector<std::optional<uint64_t>> game_counts_;
  std::unique_ptr<store::IndexStore> single_;  // a one-file repository's index, opened whole by check()
};

}  // namespace cqlindex::exec
