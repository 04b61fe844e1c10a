#include "exec/repository_indexes.h"

#include <iostream>

namespace cqlindex::exec {

Status open_repository_indexes(const IndexRequest& request, const Repository& repository,
                               std::vector<std::unique_ptr<store::IndexStore>>& indexes) {
  indexes.clear();
  if (!request.named_dir.empty() && !repository.single()) {
    std::cerr << "cqlindex " << request.command << ": --index names the index of one file; the files of a "
              << "repository are read with their own indexes (the default folder beside each)\n";
    return Status::QueryError;
  }
  std::vector<std::string> unindexed;
  for (const std::string& file : repository.files()) {
    IndexRequest one = request;
    one.input = file;
    std::unique_ptr<store::IndexStore> index;
    if (Status s = open_fresh_index(one, index); s != Status::Ok) return s;
    if (!index) unindexed.push_back(file);
    indexes.push_back(std::move(index));
  }
  // Some files indexed, some not: the run goes on (the others are scanned whole), and says which and how to
  // index them. With no index at all a repository is scanned silently, as one file is.
  if (!unindexed.empty() && unindexed.size() < indexes.size()) {
    std::string names, build;
    for (const std::string& file : unindexed) {
      names += (names.empty() ? "" : ", ") + file;
      build += " " + file;
    }
    std::cerr << "cqlindex " << request.command << ": no index for " << names << ": "
              << (unindexed.size() == 1 ? "it is" : "they are") << " scanned whole ('cqlindex build" << build
              << request.build_flags << "' indexes " << (unindexed.size() == 1 ? "it" : "them") << ")\n";
  }
  return Status::Ok;
}

}  // namespace cqlindex::exec
