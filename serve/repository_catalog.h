#pragma once
// The repositories one server serves (`cqlindex serve A.pgn B.cqlrepo ...`), each under a short name (its file
// name without the extension) that requests choose it by ("repo"); the first is the default.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/served_repository.h"

namespace cqlindex::serve {

struct NamedRepository {
  std::string name;
  std::unique_ptr<exec::ServedRepository> repository;
};

class RepositoryCatalog {
 public:
  // Opens every repository of `inputs` in order (`index_dir`: --index, for one PGN file only). Returns nullopt,
  // with the reason on stderr, when one cannot be served (its file named) or their names clash (name_clash).
  static std::optional<RepositoryCatalog> open(const std::vector<std::string>& inputs, const std::string& index_dir);

  // Returns the repositories in the order given.
  const std::vector<NamedRepository>& all() const { return all_; }
  // Returns the repository named `name` (nullopt: the default, the first), or nullptr when there is none.
  const NamedRepository* find(const std::optional<std::string>& name) const;
  // Returns the names, "a, b" (for the message that refuses an unknown one).
  std::string names() const;

 private:
  std::vector<NamedRepository> all_;
};

// Returns why `inputs` cannot be served under their names (two would have the same, or one has none), or "".
std::string name_clash(const std::vector<std::string>& inputs);

// Returns the name a repository is served under: its file name without the extension ("data/a.cqlrepo" -> "a").
std::string repository_name(const std::string& input);

}  // namespace cqlindex::serve
