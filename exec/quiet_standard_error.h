#pragma once
// Standard error silenced for a while: a rank of a distributed command repeating a check that rank 0 made and
// reported already (docs/distributed.md).
#include <iostream>

namespace cqlindex::exec {

// While it lives, what is written to std::cerr is discarded.
class QuietStandardError {
 public:
  QuietStandardError() : saved_(std::cerr.rdbuf(nullptr)) {}
  ~QuietStandardError() {
    std::cerr.rdbuf(saved_);
    std::cerr.clear();  // the writes to no buffer set badbit
  }
  QuietStandardError(const QuietStandardError&) = delete;
  QuietStandardError& operator=(const QuietStandardError&) = delete;

 private:
  std::streambuf* saved_;
};

}  // namespace cqlindex::exec
