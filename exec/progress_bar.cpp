// Progress line: `label [#####     ] 45%  31.2 MB/s  ETA 3s`.
#include "exec/progress_bar.h"

#include <cstdio>
#include <unistd.h>

namespace cqlindex::exec {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)), enabled_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(uint64_t done, uint64_t total) {
  if (!enabled_ || total == 0) return;
  auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  double seconds = std::chrono::duration<double>(now - start_).count();
  double fraction = static_cast<double>(done) / static_cast<double>(total);
  double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0;
  const int width = 30;
  int filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r%s [%.*s%*s] %3d%%  %.1f MB/s  ETA %.0fs ", label_.c_str(), filled,
               "##############################", width - filled, "", static_cast<int>(fraction * 100), rate / 1e6, eta);
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (!shown_) return;
  std::fprintf(stderr, "\r%*s\r", 80, "");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace cqlindex::exec
