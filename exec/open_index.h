#pragma once
// Opening the index of an input file for a query (run, similar, yacpdb): used only when it still describes
// the file; a damaged or stale index is refused, never used for a wrong answer.
#include <iostream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "exec/status.h"
#include "store/index_store.h"

namespace cqlindex::exec {

struct IndexRequest {
  std::string command;      // "run", "similar", "yacpdb": the prefix of the messages
  std::string input;        // the indexed file
  std::string named_dir;    // --index DIR; empty: the default folder beside the input
  std::string build_flags;  // what `cqlindex build` needs for this file (" --yacpdb"), for the messages
  bool appendable = true;   // whether `build --append` can extend it (else a grown file is just stale)
  std::vector<store::Family> families = {};  // the families the command reads (empty: all); see open_for_reading
};

// Why the index in `dir` could not be opened when the system refused (permission, the limit of open files)
// rather than the index being damaged: the OS error, else empty. `store_error` is the store's message.
// Meant for the failure path only (it opens every file of the folder once).
std::string os_refusal(const std::string& dir, const std::string& store_error);

// Opens the index of `request.input` when it is fresh. Returns Ok with `index` set, or with `index` null
// when there is no index folder and none was named (the caller scans); InputError, with the message on stderr,
// when a named folder is missing or the index is damaged or not fresh. `dir` receives the folder. The messages go
// to `err` (a repository's checks on several threads keep each file's, said in file order).
Status open_fresh_index(const IndexRequest& request, std::unique_ptr<store::IndexStore>& index,
                        std::string* dir = nullptr, std::ostream& err = std::cerr);

}  // namespace cqlindex::exec
