// The other commands over a repository (issue 18): `build` of several files (each its own index, --append to the
// last), `similar` (output byte for byte the run over the concatenation, with and without indexes, sorted and
// not), `run` with a lone -similarposition, `explain` (a plan per file, the candidates summed), `info` (the
// files' global game numbers) and `yacpdb` (the entries of every file, in order).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

#include "multi/multi_test_util.h"
#include "support/file_bytes.h"
#include "support/process.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using cqlindex::test::file_bytes;
using cqlindex::test::run_process;
using cqlindex::test::shell_quote;
using multi_test::inputs;
using multi_test::shared_data;
using multi_test::exalpha;
using multi_test::scratch;
using multi_test::without_timing;
using multi_test::write;

namespace {


// The parts of multi_test::split by file name (the commands run inside `dir`).
std::vector<std::string> split(const fs::path& dir, const std::string& text, const std::vector<uint64_t>& cuts) {
  std::vector<std::string> names;
  for (const std::string& part : multi_test::split(dir, text, cuts)) names.push_back(fs::path(part).filename().string());
  return names;
}

// Runs `cqlindex ARGS` in `dir`; standard output only (standard error to dir/stderr.txt).
cqlindex::test::ProcessResult cqlindex_in(const fs::path& dir, const std::string& args) {
  return run_process("cd " + shell_quote(dir.string()) + " && " + shell_quote(CQLINDEX_BINARY) + " " + args + " 2>" +
                     shell_quote((dir / "stderr.txt").string()));
}

}  // namespace

TEST_CASE("build indexes each file of a repository, --append extends the last one only", "[multi][build]") {
  const fs::path dir = scratch("build");
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {100, 200});
  write(dir / "all.cqlrepo", "part1.pgn\npart2.pgn\npart3.pgn\n");
  auto built = cqlindex_in(dir, "build all.cqlrepo");
  INFO(built.out << file_bytes(dir / "stderr.txt"));
  REQUIRE(built.exit_code == 0);
  CHECK(built.out.find("part1.pgn: 99 games") != std::string::npos);
  CHECK(built.out.find("part2.pgn: 100 games") != std::string::npos);
  CHECK(built.out.find("part3.pgn: 54 games") != std::string::npos);
  for (const std::string& p : parts) CHECK(fs::exists(dir / (p + ".cqlidx")));
  CHECK(cqlindex_in(dir, "build part1.pgn part2.pgn --index one.cqlidx").exit_code == 1);

  // games appended to the last file: --append over the repository extends its index only
  const std::string studies = file_bytes(shared_data("studies/lichess-beautiful-chess-studies-2.pgn"));
  write(dir / "part3.pgn", file_bytes(dir / "part3.pgn") + "\n" + studies);
  auto appended = cqlindex_in(dir, "build --append all.cqlrepo");
  INFO(appended.out << file_bytes(dir / "stderr.txt"));
  CHECK(appended.exit_code == 0);
  CHECK(appended.out.find("part3.pgn: ") != std::string::npos);
  CHECK(appended.out.find("part1.pgn") == std::string::npos);
  // the whole repository is fresh again: an indexed run reads all of it
  auto run = cqlindex_in(dir, "run -i all.cqlrepo -o out.pgn " + shell_quote(exalpha("smotheredmate.cql")));
  CHECK(run.exit_code == 0);

  // a file before the last that changed is named, not appended to
  write(dir / "part1.pgn", file_bytes(dir / "part1.pgn") + "\n" + studies);
  auto refused = cqlindex_in(dir, "build --append all.cqlrepo");
  CHECK(refused.exit_code == 2);
  CHECK(file_bytes(dir / "stderr.txt").find("part1.pgn: its index is not up to date") != std::string::npos);
}

// Returns the answers a repository's indexes give: an indexed run's output and summary, a similar search's
// output, and `verify` of each file (0: every byte read back and checked).
std::string indexed_answers(const fs::path& dir, const std::vector<std::string>& parts) {
  std::string answers;
  auto run = cqlindex_in(dir, "run -i all.cqlrepo -o out.pgn " + shell_quote(exalpha("smotheredmate.cql")));
  answers += without_timing(run.out) + file_bytes(dir / "out.pgn") + file_bytes(dir / "stderr.txt");
  auto similar = cqlindex_in(dir, "similar submission.pgn -i all.cqlrepo -o similar.pgn");
  answers += without_timing(similar.out) + file_bytes(dir / "similar.pgn") + file_bytes(dir / "stderr.txt");
  for (const std::string& p : parts) answers += " " + std::to_string(cqlindex_in(dir, "verify " + p).exit_code);
  return answers;
}

TEST_CASE("build of several files at once gives the indexes of a build one file after the other", "[multi][build]") {
  const fs::path dir = scratch("build-parallel");
  // a big file (more than half the bytes: built alone with every thread) and four small ones (built at once)
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {20, 40, 60, 80});
  write(dir / "all.cqlrepo", "part1.pgn\npart2.pgn\npart3.pgn\npart4.pgn\npart5.pgn\n");
  write(dir / "submission.pgn", file_bytes(dir / "part2.pgn"));
  auto one_by_one = cqlindex_in(dir, "build --threads 1 all.cqlrepo");
  REQUIRE(one_by_one.exit_code == 0);
  const std::string sequential = indexed_answers(dir, parts);
  CHECK(sequential.find("the index left") != std::string::npos);  // the indexes were used
  CHECK(sequential.find(" matches of 253 games") != std::string::npos);
  CHECK(sequential.find(" 0 0 0 0 0") != std::string::npos);
  for (const std::string args :
       {"--threads 2 -i all.cqlrepo", "--threads 4 part1.pgn part2.pgn part3.pgn part4.pgn part5.pgn"}) {
    INFO(args);
    for (const std::string& p : parts) fs::remove_all(dir / (p + ".cqlidx"));
    auto at_once = cqlindex_in(dir, std::string("build ") + args);
    INFO(file_bytes(dir / "stderr.txt"));
    REQUIRE(at_once.exit_code == 0);
    // the summary lines in list order, as one after the other
    size_t last = 0;
    for (const std::string& p : parts) {
      const size_t at = at_once.out.find(p + ": ");
      CHECK(at != std::string::npos);
      CHECK(at >= last);
      last = at;
    }
    CHECK(indexed_answers(dir, parts) == sequential);
  }
}

TEST_CASE("similar over a repository equals similar over the concatenated files", "[multi][similar]") {
  const fs::path dir = scratch("similar");
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {70, 71, 200});
  write(dir / "submissions.pgn", file_bytes(shared_data("studies/lichess-beautiful-chess-studies-1.pgn")) +
                                     file_bytes(shared_data("studies/lichess-beautiful-chess-studies-2.pgn")));
  // (both runs write out.pgn: CQL's summary line names the output)
  auto compare = [&](const std::string& flags) {
    INFO("flags " << flags);
    auto whole = cqlindex_in(dir, "similar submissions.pgn -i whole.pgn -o out.pgn " + flags);
    const std::string whole_bytes = file_bytes(dir / "out.pgn");
    auto repo = cqlindex_in(dir, "similar submissions.pgn" + inputs(parts) + " -o out.pgn " + flags);
    REQUIRE(whole.exit_code == 0);
    CHECK(whole.out.find(" matches of 253 games") != std::string::npos);
    CHECK_FALSE(whole_bytes.empty());
    CHECK(repo.exit_code == 0);
    CHECK(without_timing(repo.out) == without_timing(whole.out));
    CHECK(file_bytes(dir / "out.pgn") == whole_bytes);
  };
  SECTION("without indexes") {
    compare("");
    compare("--nosort");
    compare("--notransform");
  }
  SECTION("with indexes") {
    REQUIRE(cqlindex_in(dir, "build whole.pgn" + std::string(" ") + parts[0] + " " + parts[1] + " " + parts[2] + " " +
                                 parts[3]).exit_code == 0);
    compare("");
    compare("--nosort");
    compare("--ignore-common 1");
    // run's lone -similarposition goes the same way
    write(dir / "empty.cql", "cql()\n");
    auto whole = cqlindex_in(dir, "run -similarposition submissions.pgn -i whole.pgn -o run-out.pgn empty.cql");
    const std::string whole_bytes = file_bytes(dir / "run-out.pgn");
    auto repo = cqlindex_in(dir, "run -similarposition submissions.pgn" + inputs(parts) + " -o run-out.pgn empty.cql");
    CHECK(repo.exit_code == 0);
    CHECK(without_timing(repo.out) == without_timing(whole.out));
    CHECK(file_bytes(dir / "run-out.pgn") == whole_bytes);
  }
  SECTION("--near reads one file") {
    auto near = cqlindex_in(dir, "similar submissions.pgn --near 1" + inputs(parts) + " -o near.pgn");
    CHECK(near.exit_code == 1);
    CHECK(file_bytes(dir / "stderr.txt").find("--near and --report search one repository file") != std::string::npos);
  }
}

TEST_CASE("explain and info over a repository: a plan per file, each file's game numbers", "[multi][explain]") {
  const fs::path dir = scratch("explain");
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {100, 200});
  write(dir / "all.cqlrepo", "part1.pgn\npart2.pgn\npart3.pgn\n");
  REQUIRE(cqlindex_in(dir, "build all.cqlrepo whole.pgn").exit_code == 0);
  const std::string query = shell_quote(exalpha("smotheredmate.cql"));
  auto whole = cqlindex_in(dir, "explain " + query + " -i whole.pgn");
  auto repo = cqlindex_in(dir, "explain " + query + " -i all.cqlrepo");
  REQUIRE(whole.exit_code == 0);
  REQUIRE(repo.exit_code == 0);
  CHECK(repo.out.find("over a repository of 3 files") != std::string::npos);
  CHECK(repo.out.find("file part2.pgn (games 100-199):") != std::string::npos);
  // the candidates of the files add up to the candidates over the whole file
  std::smatch m;
  REQUIRE(std::regex_search(whole.out, m, std::regex("candidates: ([0-9]+) of 253 games")));
  CHECK(repo.out.find("repository: " + m.str(1) + " candidates of 253 games in 3 files") != std::string::npos);
  // the header's gamenumber range is planned in each file's own numbers
  write(dir / "range.cql", "cql(gamenumber 150 160)\nmate\n");
  auto ranged = cqlindex_in(dir, "explain range.cql -i all.cqlrepo");
  CHECK(ranged.out.find("repository: ") != std::string::npos);
  CHECK(std::regex_search(ranged.out, m, std::regex("repository: ([0-9]+) candidates")));
  CHECK(std::stoi(m.str(1)) <= 11);

  auto info = cqlindex_in(dir, "info all.cqlrepo");
  CHECK(info.exit_code == 0);
  CHECK(info.out.find("repository: 3 files, 253 games") != std::string::npos);
  CHECK(info.out.find("file 2: games 100-199 part2.pgn") != std::string::npos);
  CHECK(info.out.find("file 3: games 200-253 part3.pgn") != std::string::npos);
  // -i as run, similar and explain take it: the list, or its files one by one, say the same
  auto listed = cqlindex_in(dir, "info -i all.cqlrepo");
  CHECK(listed.exit_code == 0);
  CHECK(listed.out == info.out);
  auto each = cqlindex_in(dir, "info -i part1.pgn -i part2.pgn -i part3.pgn");
  CHECK(each.exit_code == 0);
  CHECK(each.out == info.out);
}

TEST_CASE("yacpdb over a repository answers as over the concatenated problem files", "[multi][yacpdb]") {
  const fs::path dir = scratch("yacpdb");
  const std::string mates = shared_data("problems/mate-in-n-from-games/");
  write(dir / "whole.pgn", file_bytes(mates + "mate_in_2.pgn") + file_bytes(mates + "mate_in_3.pgn"));
  for (const std::string query : {"'NOT Fairy'", "'Stip(\"#2\")'", "'Stip(\"#3\")'"}) {
    INFO(query);
    auto whole = cqlindex_in(dir, "yacpdb " + query + " -i whole.pgn -o whole-out.pgn --no-index");
    auto repo = cqlindex_in(dir, "yacpdb " + query + " -i " + shell_quote(mates + "mate_in_2.pgn") + " -i " +
                                     shell_quote(mates + "mate_in_3.pgn") + " -o repo-out.pgn --no-index");
    REQUIRE(whole.exit_code == 0);
    CHECK(repo.exit_code == 0);
    CHECK(without_timing(repo.out) == without_timing(whole.out));
    CHECK(file_bytes(dir / "repo-out.pgn") == file_bytes(dir / "whole-out.pgn"));
  }
}
