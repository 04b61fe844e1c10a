#pragma once
// A one-line progress display on standard error, shown only when standard error is a terminal (never in a
// pipe or a log file).
#include <chrono>
#include <cstdint>
#include <string>

namespace cqlindex::exec {

class ProgressBar {
 public:
  explicit ProgressBar(std::string label);
  ~ProgressBar();
  // Shows `done` of `total` bytes (at most ten times a second).
  void update(uint64_t done, uint64_t total);
  // Clears the line.
  void finish();

 private:
  std::string label_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace cqlindex::exec
