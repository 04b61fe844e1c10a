#include "exec/repository_indexes.h"

#include <iostream>

namespace cqlindex::exec {

Status RepositoryIndexes::check(const IndexRequest& request, const Repository& repository) {
  request_ = request;
  files_ = repository.files();
  game_counts_.assign(files_.size(), std::nullopt);
  if (!request.named_dir.empty() && !repository.single()) {
    std::cerr << "cqlindex " << request.command << ": --index names the index of one file; the files of a "
              << "repository are read with their own indexes (the default folder beside each)\n";
    return Status::QueryError;
  }
  if (repository.single()) {
    IndexRequest one = request;
    one.input = files_.front();
    if (Status s = open_fresh_index(one, single_); s != Status::Ok) return s;
    if (single_) game_counts_.front() = single_->meta().game_count;
    return Status::Ok;
  }
  std::vector<std::string> unindexed;
  for (size_t k = 0; k < files_.size(); ++k) {
    IndexRequest one = request;
    one.input = files_[k];
    one.families = {store::Family::Meta};  // the meta alone tells freshness and the game count
    std::unique_ptr<store::IndexStore> index;
    if (Status s = open_fresh_index(one, index); s != Status::Ok) return s;
    if (index) game_counts_[k] = index->meta().game_count;
    else unindexed.push_back(files_[k]);
  }
  if (!unindexed.empty() && unindexed.size() < files_.size()) {
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

Status RepositoryIndexes::open(size_t k, std::unique_ptr<store::IndexStore>& index) {
  index.reset();
  if (!indexed(k)) return Status::Ok;
  if (single_) {
    index = std::move(single_);
    return Status::Ok;
  }
  IndexRequest one = request_;
  one.input = files_[k];
  if (Status s = open_fresh_index(one, index); s != Status::Ok) return s;
  if (!index || index->meta().game_count != games(k)) {  // rebuilt or removed since the check
    std::cerr << "cqlindex " << request_.command << ": the index of " << files_[k]
              << " changed while the repository was read (run the query again)\n";
    index.reset();
    return Status::InputError;
  }
  return Status::Ok;
}

}  // namespace cqlindex::exec
