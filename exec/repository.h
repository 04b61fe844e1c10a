#pragma once
// A repository: the ordered list of PGN files a query reads as one collection, from repeated `-i` flags or a
// `NAME.cqlrepo` list file (one PGN path a line, relative to the list's folder; blank lines and lines starting
// with `#` are skipped). Its games are numbered across the files in list order, as if the files were
// concatenated: file k's first game follows the last game of file k-1. Each file keeps its own index (the
// default folder beside it), checked for freshness on its own (repository_indexes.h).
#include <optional>
#include <string>
#include <vector>

namespace cqlindex::exec {

// The extension of a repository list file.
constexpr const char* kRepositoryListExtension = ".cqlrepo";

class Repository {
 public:
  // Returns the repository named by `inputs` in order (each a PGN file or a .cqlrepo list, whose files take
  // its place); nullopt with `error` when a list cannot be read, or names a file that is not a readable
  // regular file or another list (the message names the list's file:line:col). A PGN named directly is
  // left for the command to open, as with one file.
  static std::optional<Repository> resolve(const std::vector<std::string>& inputs, std::string* error);

  // Returns the PGN files in game order (paths usable from the current folder).
  const std::vector<std::string>& files() const { return files_; }
  // Returns the .cqlrepo lists that named files (inputs too: no output may overwrite one).
  const std::vector<std::string>& lists() const { return lists_; }
  // Returns the files and the lists: every file the command reads, which its output may not be.
  std::vector<std::string> read_paths() const;
  // Returns true when the repository is one PGN file: every command behaves as it does with one file.
  bool single() const { return files_.size() == 1; }

 private:
  std::vector<std::string> files_;
  std::vector<std::string> lists_;
};

// Returns true when `path` names a repository list (its extension is .cqlrepo).
bool is_repository_list(const std::string& path);

}  // namespace cqlindex::exec
