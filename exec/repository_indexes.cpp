#include "exec/repository_indexes.h"

#include <iostream>
#include <sstream>

#include "engine/pgn/reader.h"
#include "exec/worker_pool.h"

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
  // Each file checked on its own, on every core: a check is a RocksDB open of the meta family, a stat per index
  // file and the PGN's sampled blocks, about a millisecond each, which 100 files add up. Each file's messages are
  // kept and said in file order up to the first refusal, as a check one file after the other says them.
  struct Checked {
    Status status = Status::Ok;
    std::optional<uint64_t> games;  // none: the file has no index
    std::string messages;
  };
  std::vector<Checked> checked(files_.size());
  parallel_for(files_.size(), pgn::resolve_threads(0), [&](size_t k, unsigned) {
    IndexRequest one = request;
    one.input = files_[k];
    one.families = {store::Family::Meta};  // the meta alone tells freshness and the game count
    std::unique_ptr<store::IndexStore> index;
    std::ostringstream messages;
    checked[k].status = open_fresh_index(one, index, nullptr, messages);
    if (index) checked[k].games = index->meta().game_count;
    checked[k].messages = messages.str();
  });
  std::vector<std::string> unindexed;
  for (size_t k = 0; k < files_.size(); ++k) {
    std::cerr << checked[k].messages;
    if (checked[k].status != Status::Ok) return checked[k].status;
    game_counts_[k] = checked[k].games;
    if (!checked[k].games) unindexed.push_back(files_[k]);
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
