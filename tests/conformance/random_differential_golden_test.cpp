// CQL 6.2's answers to random and mutated queries (expected-output/random-differential): for every kept run of
// set-A and every repro case, `cqlindex run --no-index` must answer as CQL 6.2 did, compared as the README's
// "How to compare" says: the exit class (refusal or run), the "N matches of M games" line and the output file
// byte for byte (a missing golden file is an empty output). The same run with the input's index must write the
// same bytes as --no-index. A named known difference (known_differences.tsv) must still differ, and answer
// exactly as recorded there; one that now agrees is reported as stale. A repro-2 case still open (open_cases.tsv:
// a defect being worked on, not an accepted difference) must still differ, and equal its indexed run. A repro-2
// case also compares the lines the run prints (CQL 6.2 prints its messages on stdout) with CQL's, but for its
// banner, notes and timings.
//
// By default the set-A cases run the even-numbered queries (a fixed half, about 600 runs x 2 paths); with
// CQLINDEX_LONG_TESTS=1 all of them. The repro cases always run in full.
#include <algorithm>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "golden_set.h"
#include "support/cqlindex_run.h"
#include "support/parallel_runs.h"

using namespace conformance;
using cqlindex::test::RunOutcome;

namespace {

// A folder removed at exit.
struct WorkDir {
  fs::path path;
  explicit WorkDir(const std::string& tag)
      : path(fs::temp_directory_path() / ("cqlindex-conformance-" + tag + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~WorkDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Returns the index folder of `input`, built into `work`.
fs::path build_index(const fs::path& input, const fs::path& work) {
  const fs::path dir = work / (input.filename().string() + ".idx");
  auto r = cqlindex::test::run_process(cqlindex::test::shell_quote(CQLINDEX_BINARY) + " build " +
                                       cqlindex::test::shell_quote(input.string()) + " --index " +
                                       cqlindex::test::shell_quote(dir.string()) + " 2>&1");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return dir;
}

// Returns the first line of `text`.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// Returns the lines of a run's standard output that both CQL 6.2 and cqlindex print alike: all but the blank
// ones, the match line (compared on its own), CQL's banner, and the lines of cqlindex's own (its accounting
// line, its warnings on stderr).
std::vector<std::string> printed_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.rfind("CQL version ", 0) == 0 || line.rfind("cqlindex", 0) == 0 ||
        !cqlindex::test::find_match_line(line).empty())
      continue;
    lines.push_back(line);
  }
  return lines;
}

// Returns "" when `ours` printed the lines CQL 6.2 printed in `g` (repro-2), else the first that differs.
std::string compare_printed_lines(const GoldenRun& g, const RunOutcome& ours) {
  const auto want = printed_lines(g.cql_stdout), got = printed_lines(ours.messages);
  for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    const std::string w = i < want.size() ? want[i] : "(nothing)", o = i < got.size() ? got[i] : "(nothing)";
    if (w != o) return "printed line " + std::to_string(i + 1) + " differs: CQL '" + w + "' ours '" + o + "'";
  }
  return "";
}

// Returns "" when `ours` answers as CQL 6.2 did in `g`, else what differs.
std::string compare_with_golden(const GoldenRun& g, const RunOutcome& ours) {
  const std::string cql = "CQL 6.2: exit " + std::to_string(g.exit_code) +
                          (g.match_line.empty() ? "" : ", '" + g.match_line + "'");
  if (ours.timed_out()) return "over 30 s of CPU (exit " + std::to_string(ours.exit_code) + "); " + cql;
  if (g.rejected()) {
    if (ours.rejected()) return "";
    return cql + " (" + g.message + "); we run: " + ours.summary();
  }
  if (ours.rejected()) return cql + "; we reject: " + ours.summary() + ": " + first_line(ours.messages);
  if (ours.match_line != g.match_line) return cql + "; we answer " + ours.summary();
  bool ok = true;
  const std::string want = g.output.empty() ? "" : cqlindex::test::golden_bytes(g.output, &ok);
  if (!ok) return "cannot read the golden output " + g.output.string();
  if (want == ours.output) return g.cql_stdout.empty() ? "" : compare_printed_lines(g, ours);
  const size_t at = size_t(std::mismatch(want.begin(), want.begin() + std::min(want.size(), ours.output.size()),
                                         ours.output.begin()).first - want.begin());
  const size_t line = size_t(std::count(want.begin(), want.begin() + at, '\n')) + 1;
  const size_t begin = want.rfind('\n', at == 0 ? 0 : at - 1);
  const size_t from = begin == std::string::npos ? 0 : begin + 1;
  return "same match line, output differs at byte " + std::to_string(at) + " (line " + std::to_string(line) +
         "; ours " + std::to_string(ours.output.size()) + " bytes, CQL " + std::to_string(want.size()) +
         "): CQL '" + first_line(want.substr(from, 160)) + "' ours '" + first_line(ours.output.substr(from, 160)) + "'";
}

// Returns the problems of one golden run ("" when none): the golden comparison (or the known difference's
// check), and indexed vs --no-index.
std::string check_run(const GoldenRun& g, const fs::path& work_root, const fs::path& index, size_t slot,
                      const std::map<std::string, KnownDifference>& known, const std::map<std::string, OpenCase>& open) {
  std::string input = g.input_path().string();
  const std::string tag = std::to_string(slot);
  const fs::path work = work_root / tag;  // a folder of its own, as CQL 6.2 had (a query may write files)
  fs::create_directories(work);
  if (!g.inputs_dir.empty()) {  // the input and the files a query reads, under their names, as CQL 6.2 had them
    for (const auto& file : fs::directory_iterator(g.inputs_dir))
      fs::create_symlink(file.path(), work / file.path().filename());
    input = g.input;
  }
  const RunOutcome scan = cqlindex::test::run_cqlindex(work, tag + "s", "--no-index", input, g.query.string(), 30);
  const RunOutcome indexed = cqlindex::test::run_cqlindex(
      work, tag + "i", "--index " + cqlindex::test::shell_quote(index.string()), input, g.query.string(), 30);
  std::string problems;
  const std::string golden = compare_with_golden(g, scan);
  auto k = known.find(g.id + " " + g.input);
  if (open.count(g.id + " " + g.input)) {
    if (golden.empty()) problems += "\n    open case now agrees with CQL 6.2: remove it from open_cases.tsv";
  } else if (k == known.end()) {
    if (!golden.empty()) problems += "\n    " + golden;
  } else if (golden.empty()) {
    problems += "\n    stale known difference (" + k->second.difference_class + "): now agrees with CQL 6.2";
  } else if (scan.exit_code != k->second.our_exit || scan.match_line != k->second.our_match_line) {
    problems += "\n    known difference (" + k->second.difference_class + ") no longer answers as recorded (exit " +
                std::to_string(k->second.our_exit) + ", '" + k->second.our_match_line + "'): " + golden;
  }
  const std::string paths = cqlindex::test::same_answer(scan, indexed);
  if (!paths.empty()) problems += "\n    indexed != --no-index: " + paths;
  std::error_code ec;
  fs::remove_all(work, ec);
  return problems;
}

// Runs `runs` (2 at a time) and fails with every disagreement, each named by its query id.
void check_runs(const std::string& what, const std::vector<GoldenRun>& runs) {
  REQUIRE(!runs.empty());
  WorkDir work(what);
  const auto known = known_differences();
  const auto open = open_cases();
  std::map<std::string, fs::path> indexes;
  for (const GoldenRun& g : runs)
    if (!indexes.count(g.input)) indexes[g.input] = build_index(g.input_path(), work.path);
  std::vector<std::string> problems(runs.size());
  cqlindex::test::parallel_for(runs.size(), 2, [&](size_t i) {
    problems[i] = check_run(runs[i], work.path, indexes.at(runs[i].input), i, known, open);
  });
  std::string report;
  size_t failed = 0;
  for (size_t i = 0; i < runs.size(); ++i)
    if (!problems[i].empty()) {
      ++failed;
      report += "\n  " + runs[i].id + " on " + runs[i].input + ":" + problems[i];
    }
  size_t still_open = 0;
  for (const GoldenRun& g : runs) still_open += open.count(g.id + " " + g.input);
  std::cout << what << ": " << runs.size() - failed - still_open << " of " << runs.size() << " runs agree, "
            << still_open << " open (open_cases.tsv)\n";
  INFO(what << ": " << failed << " of " << runs.size() << " runs disagree:" << report);
  CHECK(failed == 0);
}

// Returns set-A's runs on `input`: the even-numbered queries, or all with CQLINDEX_LONG_TESTS=1.
std::vector<GoldenRun> set_a_on(const std::string& input) {
  const bool all = cqlindex::test::long_tests_enabled();
  std::vector<GoldenRun> runs;
  for (const GoldenRun& g : set_a_runs())
    if (g.input == input && (all || std::stoi(g.id.substr(1)) % 2 == 0)) runs.push_back(g);
  return runs;
}

}  // namespace

TEST_CASE("random-differential set-A agrees with CQL 6.2 on book_1.02.small-1005.first200", "[conformance][golden]") {
  check_runs("set-A book_1.02.small-1005.first200", set_a_on("book_1.02.small-1005.first200"));
}

TEST_CASE("random-differential set-A agrees with CQL 6.2 on world_matches.train.first100", "[conformance][golden]") {
  check_runs("set-A world_matches.train.first100", set_a_on("world_matches.train.first100"));
}

TEST_CASE("random-differential set-A agrees with CQL 6.2 on cql-sample", "[conformance][golden]") {
  check_runs("set-A cql-sample", set_a_on("cql-sample"));
}

TEST_CASE("random-differential repro cases agree with CQL 6.2", "[conformance][golden]") {
  check_runs("repro", repro_runs());
}

// Returns the repro-2 cases whose class starts with one of `classes`.
std::vector<GoldenRun> repro2_classes(const std::string& classes) {
  std::vector<GoldenRun> runs;
  for (const GoldenRun& g : repro2_runs())
    if (classes.find(g.repro_class.at(0)) != std::string::npos) runs.push_back(g);
  return runs;
}

// repro-2 in three parts, so that a class still open elsewhere does not hide the others: A-C (wrong answers,
// standard output, refusals), D (filters cqlindex did not have) and E (the index against the scan).
TEST_CASE("random-differential repro-2 classes A B C agree with CQL 6.2", "[conformance][golden]") {
  check_runs("repro-2 A B C", repro2_classes("ABC"));
}

TEST_CASE("random-differential repro-2 class D agrees with CQL 6.2", "[conformance][golden]") {
  check_runs("repro-2 D", repro2_classes("D"));
}

TEST_CASE("random-differential repro-2 class E agrees with CQL 6.2", "[conformance][golden]") {
  check_runs("repro-2 E", repro2_classes("E"));
}

TEST_CASE("every known difference names a golden run", "[conformance][golden]") {
  std::set<std::string> runs;
  for (const GoldenRun& g : set_a_runs()) runs.insert(g.id + " " + g.input);
  for (const GoldenRun& g : repro_runs()) runs.insert(g.id + " " + g.input);
  for (const GoldenRun& g : repro2_runs()) runs.insert(g.id + " " + g.input);
  CHECK(runs.size() == 1191 + 50 + 44);  // the tables as the README describes them: nothing silently skipped
  for (const auto& [key, k] : known_differences()) {
    INFO(key);
    CHECK(runs.count(key) == 1);
    CHECK(!k.reason.empty());
  }
}

TEST_CASE("every open case names a repro-2 run and is not also a known difference", "[conformance][golden]") {
  std::set<std::string> runs;
  for (const GoldenRun& g : repro2_runs()) runs.insert(g.id + " " + g.input);
  const auto known = known_differences();
  for (const auto& [key, o] : open_cases()) {
    INFO(key);
    CHECK(runs.count(key) == 1);
    CHECK(known.count(key) == 0);
    CHECK(!o.what.empty());
  }
}
