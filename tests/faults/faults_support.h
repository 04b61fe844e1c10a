#pragma once
// Support of the fault tests: a scratch folder per test, and the cqlindex binary run by the shell.
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "support/process.h"

namespace faults_test {

namespace fs = std::filesystem;
using cqlindex::test::ProcessResult;
using cqlindex::test::shell_quote;

// A fresh folder under the temporary directory, removed with its contents at the end of the test.
struct Scratch {
  fs::path path;
  explicit Scratch(const std::string& tag) {
    static int n = 0;
    path = fs::temp_directory_path() / ("cqlindex-faults-" + tag + "-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Scratch() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    for (const auto& e : fs::recursive_directory_iterator(path, ec))
      fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  // Returns the path of `name` in the folder, written with `text` if given.
  std::string file(const std::string& name) const { return (path / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return file(name);
  }
};

// Runs `cqlindex ARGS` by the shell (ARGS already quoted, redirections allowed) with `prefix` before it (a
// `ulimit`, an environment variable); stderr joins stdout.
inline ProcessResult run_cqlindex(const std::string& args, const std::string& prefix = "") {
  return cqlindex::test::run_process(prefix + " " + shell_quote(CQLINDEX_BINARY) + " " + args + " 2>&1");
}

// True if `text` contains `part`.
inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A few short games, one with a mate, one with an illegal move and one with an error inside a variation.
inline std::string small_pgn() {
  return "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
         "[Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 2. Ke3 *\n\n"
         "[Event \"c\"]\n[Result \"*\"]\n\n1. c4 (1. Nf3 Nxe4) 1... c5 *\n\n"
         "[Event \"d\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";
}

}  // namespace faults_test
