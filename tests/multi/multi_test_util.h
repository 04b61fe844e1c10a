// Test support for repositories of several PGN files (issue 18): scratch folders, and the shared data cut into
// parts at game boundaries.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "engine/pgn/game_splitter.h"

namespace multi_test {

namespace fs = std::filesystem;

// This process's folder of scratch folders, removed when the process ends.
inline const fs::path& scratch_root() {
  static const struct Root {
    fs::path path = fs::temp_directory_path() / ("cqlindex-multi-" + std::to_string(::getpid()));
    ~Root() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } root;
  return root.path;
}

// A fresh folder for one test case.
inline fs::path scratch(const std::string& name) {
  fs::path dir = scratch_root() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

inline void write(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// Writes `text` to `dir/whole.pgn` and cut at the game boundaries before the given game numbers (1-based) to
// `dir/part1.pgn` ...; returns the parts' paths. The parts concatenated are `text`.
inline std::vector<std::string> split(const fs::path& dir, const std::string& text, const std::vector<uint64_t>& cuts) {
  write(dir / "whole.pgn", text);
  std::vector<uint64_t> offsets{0};
  cqlindex::pgn::GameSplitter splitter(text);
  cqlindex::pgn::GameSpan span;
  size_t next = 0;
  while (next < cuts.size() && splitter.next(span))
    if (span.number == cuts[next]) offsets.push_back(span.offset), ++next;
  REQUIRE(next == cuts.size());
  offsets.push_back(text.size());
  std::vector<std::string> parts;
  for (size_t i = 0; i + 1 < offsets.size(); ++i) {
    const fs::path part = dir / ("part" + std::to_string(i + 1) + ".pgn");
    write(part, text.substr(offsets[i], offsets[i + 1] - offsets[i]));
    parts.push_back(part.string());
  }
  return parts;
}

}  // namespace multi_test
