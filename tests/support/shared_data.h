#pragma once
// Test support: the shared data beside the repository (../shared/data: real PGN, CQL 6.2's golden outputs,
// problem collections). Tests read it there, never copy it; a test that needs a file of it says which one is
// missing instead of failing obscurely on an empty read.
#include <filesystem>
#include <stdexcept>
#include <string>

namespace cqlindex::test {

// Returns the path of `relative` ("gnuchess-book/book_1.02.small-1005.pgn"; empty: the data folder itself) in
// the shared data folder. When it is not there, throws: the test that asked fails with
// "../shared/data/X not found: the tests read the shared data beside the repository".
inline std::string shared_data(const std::string& relative) {
  const std::string root = CQLINDEX_SHARED_DATA;
  const std::string path = relative.empty() ? root : root + "/" + relative;
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    throw std::runtime_error("../shared/data" + (relative.empty() ? std::string() : "/" + relative) +
                             " not found: the tests read the shared data beside the repository");
  return path;
}

}  // namespace cqlindex::test
