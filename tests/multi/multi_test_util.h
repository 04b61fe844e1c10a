// Test support for repositories of several PGN files (issue 18) and their distributed runs (tests/mpi): scratch
// folders, the shared data cut into parts at game boundaries, `cqlindex run` and `build` started in a folder
// (under mpirun when asked), and answers compared without their timing.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

#include "engine/pgn/game_splitter.h"
#include "support/file_bytes.h"
#include "support/process.h"
#include "support/shared_data.h"

namespace multi_test {

namespace fs = std::filesystem;
using cqlindex::test::file_bytes;
using cqlindex::test::run_process;
using cqlindex::test::shell_quote;

// Returns the path of a file of ../shared/data; a missing one fails the test that asked, naming it.
inline std::string shared_data(const std::string& relative) { return cqlindex::test::shared_data(relative); }

// Returns the path of one of CQL 6.2's distribution examples (exalpha/NAME), checked as shared_data checks.
inline std::string exalpha(const std::string& name) {
  return shared_data("cql-examples/cql62-distribution-examples/exalpha/" + name);
}

// What a command printed and wrote.
struct Answer {
  int exit_code = -1;
  std::string out;     // standard output: CQL's lines, the summary line, persistent variables, messages
  std::string output;  // the output file's bytes
  std::string err;     // standard error
  bool output_exists = false;
};

// Returns the launcher of `ranks` MPI processes on this machine's loopback ("" for 0: one plain process).
inline std::string mpirun(int ranks) {
  return ranks > 0 ? "mpirun --oversubscribe --allow-run-as-root -np " + std::to_string(ranks) + " " : "";
}

// Runs `cqlindex run ARGS -o DIR/out.pgn QUERY` in `dir` (under mpirun(ranks), with `env` before it), stdout
// and stderr kept apart, and reads the output file.
inline Answer run_in(const fs::path& dir, int ranks, const std::string& args, const std::string& query,
                     const std::string& env = "") {
  const fs::path out = dir / "out.pgn", err = dir / "stderr.txt";
  fs::remove(out);
  auto r = run_process("cd " + shell_quote(dir.string()) + " && " + env + " " + mpirun(ranks) +
                       shell_quote(CQLINDEX_BINARY) + " run " + args + " -o " + shell_quote(out.string()) + " " +
                       shell_quote(query) + " 2>" + shell_quote(err.string()));
  return Answer{r.exit_code, r.out, file_bytes(out), file_bytes(err), fs::exists(out)};
}

// Returns `out` with CQL's timing left out ("... in 0.012 seconds" -> "... in seconds").
inline std::string without_timing(const std::string& out) {
  return std::regex_replace(out, std::regex(" in [0-9.]+ seconds"), " in seconds");
}

// `-i a -i b ...`.
inline std::string inputs(const std::vector<std::string>& files) {
  std::string args;
  for (const std::string& f : files) args += " -i " + shell_quote(f);
  return args;
}

// Builds the default index of each file; REQUIREs success.
inline void build(const std::vector<std::string>& files) {
  for (const std::string& f : files) {
    auto r = run_process(shell_quote(CQLINDEX_BINARY) + " build " + shell_quote(f) + " 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
  }
}

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
