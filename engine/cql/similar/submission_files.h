// The submission databases of one run of a query: each file that a `similarposition` filter names is read
// once, however many filters name it, and the same database serves the evaluator (matching, comments) and the
// planner (the index look-ups of its positions). Read while the query is compiled, on one thread; only read
// afterwards, from any thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/cql/similar/submission_db.h"
#include "engine/pgn/pgn_error.h"

namespace cqlindex::cql::similar {

class SubmissionFiles {
 public:
  // One submissions file as a filter reads it.
  struct File {
    std::string path;  // as the query names it (relative to the working directory)
    bool notransform = false;
    SubmissionDb db;
    std::vector<pgn::PgnError> problems;  // PGN problems of its games (each game kept up to its last legal move)
  };

  // Returns the database of `path` for a filter with or without `notransform`, reading the file on first use;
  // nullptr with `error` when the file cannot be read or holds no game (CQL 6.2 stops there too).
  const SubmissionDb* load(const std::string& path, bool notransform, std::string* error);

  // Returns the database already read for (path, notransform), or nullptr.
  const SubmissionDb* find(const std::string& path, bool notransform) const;

  // Returns the files read, in the order the query named them.
  const std::vector<std::unique_ptr<File>>& files() const { return files_; }

 private:
  std::vector<std::unique_ptr<File>> files_;  // a handful: a linear search is enough
};

}  // namespace cqlindex::cql::similar
