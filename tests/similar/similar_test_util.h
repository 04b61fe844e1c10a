// Test support for `cqlindex similar`: scratch folders, the binary, the shared data files.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "support/process.h"
#include "support/shared_data.h"

namespace cqlindex::test {

namespace fs = std::filesystem;

// The shared data folder and CQL 6.2's similarposition goldens; each says which is missing (shared_data.h).
inline fs::path data_dir() { return shared_data(""); }
inline fs::path goldens_dir() { return shared_data("cql-examples/expected-output/similarposition"); }

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void spit(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// A fresh folder under the temporary directory, removed with the object.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("cqlindex-similar-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Runs `cqlindex ARGS` in `dir`; stdout in .out, stderr in the file `stderr.txt` of `dir`.
inline ProcessResult cqlindex_in(const fs::path& dir, const std::string& args) {
  return run_process("cd " + shell_quote(dir.string()) + " && " + shell_quote(CQLINDEX_BINARY) + " " + args +
                     " 2>stderr.txt");
}

inline std::string stderr_of(const fs::path& dir) { return slurp(dir / "stderr.txt"); }

// The bytes `xz -dc` makes of an .xz file; empty if that fails.
inline std::string xz_decompress(const fs::path& p) {
  std::string out;
  FILE* pipe = popen(("xz -dc " + shell_quote(p.string()) + " 2>/dev/null").c_str(), "r");
  if (!pipe) return out;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  if (pclose(pipe) != 0) out.clear();
  return out;
}

}  // namespace cqlindex::test
