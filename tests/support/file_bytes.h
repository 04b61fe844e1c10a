#pragma once
// Test support: the bytes of a file, plain or .xz (golden outputs over 20 kB are stored compressed).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/process.h"

namespace cqlindex::test {

// Returns the bytes of `path`; empty when it is missing.
inline std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Returns the bytes of `path`, decompressed by `xz -dc` when it ends in .xz (xz-utils is in scripts/setup;
// a tool nobody here wrote, and the same decoder the golden files were checked with). Sets *ok to false when
// the file is missing or does not decompress.
inline std::string golden_bytes(const std::filesystem::path& path, bool* ok) {
  *ok = std::filesystem::exists(path);
  if (!*ok) return "";
  if (path.extension() != ".xz") return file_bytes(path);
  ProcessResult r = run_process("xz -dc " + shell_quote(path.string()) + " 2>/dev/null");
  *ok = r.exit_code == 0;
  return r.out;
}

}  // namespace cqlindex::test
