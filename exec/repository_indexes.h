#pragma once
// The indexes of a repository's files (repository.h): each file's own index, opened and checked for freshness
// on its own before anything is read, so that a stale one is refused by name before any output.
#include <memory>
#include <string>
#include <vector>

#include "exec/open_index.h"
#include "exec/repository.h"
#include "exec/status.h"
#include "store/index_store.h"

namespace cqlindex::exec {

// Opens the index of every file of `repository` as open_fresh_index does for one file (`request.input` is
// ignored; `request.named_dir`, --index, is allowed only for a one-file repository). `indexes[k]` is file k's
// index, or null when the file has none (it is scanned; when other files have one, a message names the files
// without). Returns Ok, else the first refusal's status, its message (naming the file) on stderr.
Status open_repository_indexes(const IndexRequest& request, const Repository& repository,
                               std::vector<std::unique_ptr<store::IndexStore>>& indexes);

}  // namespace cqlindex::exec
