// Issue 15, fault injection: builds killed (SIGKILL) at random points, and a full file system. After each fault
// the next query uses the old index or the new one and answers as --no-index does, or refuses with a message;
// never a crash, a wrong answer or a half-written index. The next build removes what a killed one left.
// 12 kills of `build` and 12 of `build --append` by default; 60 of each with CQLINDEX_LONG_TESTS=1.
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <sys/mount.h>

#include "faults_support.h"
#include "support/parallel_runs.h"
#include "support/shared_data.h"

using namespace faults_test;

namespace {

std::string sample_pgn() { return cqlindex::test::shared_data("studies/cql-sample.pgn"); }

// The bytes of the file at `path` ("" if it cannot be read).
std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The "N matches of M games" part of a run's output, or "" when there is none.
std::string match_line(const std::string& out) {
  const size_t at = out.find(" matches of ");
  if (at == std::string::npos) return "";
  const size_t begin = out.rfind('\n', at) == std::string::npos ? 0 : out.rfind('\n', at) + 1;
  return out.substr(begin, out.find(" games", at) - begin);
}

// The folders a build of `index` left beside it (its workspaces).
std::vector<std::string> leftovers(const fs::path& folder) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().filename().string().find(".cqlindex-build-") != std::string::npos)
      found.push_back(e.path().filename().string());
  return found;
}

// Sets the time of every workspace left in `folder` (and of its files) two minutes back: a killed build's
// half-made workspace (no lock file yet) is removed once a minute old, the time it takes a running build
// to get past that state many times over.
void age_leftovers(const fs::path& folder) {
  const auto past = fs::file_time_type::clock::now() - std::chrono::minutes(2);
  for (const std::string& name : leftovers(folder)) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder / name, ec)) fs::last_write_time(e.path(), past, ec);
    fs::last_write_time(folder / name, past, ec);
  }
}

// The names in `names`, one a line.
std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += n + "\n";
  return s;
}

// How a run after a fault ended: the same answer as the scan, or a clean refusal (exit 2 with a message).
struct Outcome {
  int answered = 0, refused = 0;
};

// Runs `query` on `pgn` with whatever index is there and checks it against `scan` (the --no-index answer and
// output bytes); counts the outcome.
void check_query(const Scratch& dir, const std::string& query, const std::string& pgn,
                 const std::pair<std::string, std::string>& scan, Outcome& outcome, const std::string& context) {
  const std::string out = dir.file("indexed-out.pgn");
  auto r = run_cqlindex("run " + shell_quote(query) + " -i " + shell_quote(pgn) + " -o " + shell_quote(out));
  INFO(context << "\n" << r.out.substr(0, 2000));
  if (r.exit_code == 0) {
    ++outcome.answered;
    CHECK(match_line(r.out) == scan.first);
    CHECK(read_all(out) == scan.second);
  } else {
    ++outcome.refused;
    CHECK(r.exit_code == 2);
    CHECK(has(r.out, "cqlindex run: "));
  }
  CHECK_FALSE(has(r.out, "terminate"));
  CHECK_FALSE(has(r.out, "internal error"));
}

// The answer and output bytes of `query` on `pgn` by a scan.
std::pair<std::string, std::string> scan_answer(const Scratch& dir, const std::string& query, const std::string& pgn) {
  const std::string out = dir.file("scan-out.pgn");
  auto r = run_cqlindex("run " + shell_quote(query) + " -i " + shell_quote(pgn) + " --no-index -o " + shell_quote(out));
  REQUIRE(r.exit_code == 0);
  return {match_line(r.out), read_all(out)};
}

// Starts `cqlindex ARGS` and kills it with SIGKILL after `delay_ms` (it may have finished by then).
void run_killed(const std::string& args, int delay_ms) {
  char delay[32];
  std::snprintf(delay, sizeof delay, "%d.%03d", delay_ms / 1000, delay_ms % 1000);
  cqlindex::test::run_process("( " + shell_quote(CQLINDEX_BINARY) + " " + args + " >/dev/null 2>&1 & p=$!; sleep " +
                              delay + "; kill -9 $p 2>/dev/null; wait $p ) 2>/dev/null");
}

// Milliseconds a whole `cqlindex ARGS` takes here (the range the kills are spread over).
int duration_ms(const std::string& args) {
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(run_cqlindex(args).exit_code == 0);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  return std::max(50, int(ms.count()));
}

}  // namespace

TEST_CASE("a build killed at a random point leaves the old index or none, and the next query answers as a scan",
          "[faults][injection]") {
  Scratch dir("kill-build");
  const std::string pgn = dir.file("g.pgn");
  fs::copy_file(sample_pgn(), pgn);
  const std::string query = dir.write("q.cql", "cql()\nmate\n");
  const auto scan = scan_answer(dir, query, pgn);
  const int rounds = cqlindex::test::long_tests_enabled() ? 60 : 12;
  const int span = duration_ms("build " + shell_quote(pgn));
  std::mt19937 random(15);
  Outcome outcome;
  for (int i = 0; i < rounds; ++i) {
    // every other round from no index at all (the first build), the others replacing a whole one
    if (i % 2 == 0) fs::remove_all(dir.file("g.pgn.cqlidx"));
    const int delay = std::uniform_int_distribution<int>(0, span * 6 / 5)(random);
    run_killed("build " + shell_quote(pgn), delay);
    check_query(dir, query, pgn, scan, outcome, "killed after " + std::to_string(delay) + " ms of " +
                                                     std::to_string(span));
  }
  INFO("left by the killed builds:\n" << listed(leftovers(dir.path)));
  age_leftovers(dir.path);
  auto rebuilt = run_cqlindex("build " + shell_quote(pgn));
  INFO(rebuilt.out);
  CHECK(rebuilt.exit_code == 0);
  CHECK(leftovers(dir.path).empty());
  Outcome last;
  check_query(dir, query, pgn, scan, last, "after a whole build");
  CHECK(last.answered == 1);
  WARN("build killed " << rounds << " times: " << outcome.answered << " queries answered as the scan, "
                       << outcome.refused << " refused cleanly");
}

TEST_CASE("a build --append killed at a random point leaves the old index or the new, and queries answer as a scan",
          "[faults][injection]") {
  Scratch dir("kill-append");
  const std::string whole = read_all(sample_pgn());
  // the first half of the games, then the rest appended
  size_t cut = 0;
  for (int games = 0; games < 127; ++games) cut = whole.find("\n[Event ", cut + 1);
  REQUIRE(cut != std::string::npos);
  const std::string pgn = dir.file("g.pgn");
  const std::string query = dir.write("q.cql", "cql()\nmate\n");
  const int rounds = cqlindex::test::long_tests_enabled() ? 60 : 12;
  std::mt19937 random(151);
  Outcome outcome;
  int span = 0;
  std::pair<std::string, std::string> scan;
  for (int i = 0; i < rounds; ++i) {
    dir.write("g.pgn", whole.substr(0, cut + 1));
    REQUIRE(run_cqlindex("build " + shell_quote(pgn)).exit_code == 0);
    std::ofstream(pgn, std::ios::binary | std::ios::app) << whole.substr(cut + 1);
    if (i == 0) {
      scan = scan_answer(dir, query, pgn);
      span = duration_ms("build " + shell_quote(pgn) + " --append");
      dir.write("g.pgn", whole.substr(0, cut + 1));
      REQUIRE(run_cqlindex("build " + shell_quote(pgn)).exit_code == 0);
      std::ofstream(pgn, std::ios::binary | std::ios::app) << whole.substr(cut + 1);
    }
    const int delay = std::uniform_int_distribution<int>(0, span * 6 / 5)(random);
    run_killed("build " + shell_quote(pgn) + " --append", delay);
    const std::string context = "--append killed after " + std::to_string(delay) + " ms of " + std::to_string(span);
    check_query(dir, query, pgn, scan, outcome, context);
    // the old index (refused: the file grew) is brought up to date by the next --append
    INFO("left by the killed build:\n" << listed(leftovers(dir.path)));
    age_leftovers(dir.path);
    auto again = run_cqlindex("build " + shell_quote(pgn) + " --append");
    INFO(context << "\n" << again.out);
    CHECK(again.exit_code == 0);
    CHECK(leftovers(dir.path).empty());
    Outcome after;
    check_query(dir, query, pgn, scan, after, context + ", then --append again");
    CHECK(after.answered == 1);
  }
  WARN("build --append killed " << rounds << " times: " << outcome.answered << " queries answered as the scan, "
                                << outcome.refused << " refused cleanly");
}

TEST_CASE("a full file system: build and run fail with a message and leave no partial index or output",
          "[faults][injection][full]") {
  if (::geteuid() != 0) {
    WARN("skipped: a full file system is a small tmpfs, which only root may mount (running as uid " << ::geteuid()
                                                                                                   << ")");
    return;
  }
  Scratch dir("full-fs");
  const std::string pgn = dir.file("g.pgn");
  fs::copy_file(sample_pgn(), pgn);
  const fs::path mount = dir.path / "small";
  fs::create_directories(mount);
  if (::mount("tmpfs", mount.c_str(), "tmpfs", 0, "size=128k") != 0) {
    WARN("skipped: root may not mount a tmpfs here (" << std::strerror(errno) << ")");
    return;
  }
  struct Unmount {
    std::string path;
    ~Unmount() { ::umount2(path.c_str(), MNT_DETACH); }
  } unmount{mount.string()};

  const std::string index = (mount / "idx").string();
  auto build = run_cqlindex("build " + shell_quote(pgn) + " --index " + shell_quote(index));
  INFO(build.out);
  CHECK(build.exit_code == 2);
  CHECK((has(build.out, "disk full") || has(build.out, "No space left")));
  CHECK_FALSE(fs::exists(index));
  CHECK(leftovers(mount).empty());
  CHECK(read_all(pgn) == read_all(sample_pgn()));

  // an output that does not fit: no success line, no partial file, an earlier output kept as it was
  const std::string query = dir.write("q.cql", "cql()\ncheck\n");
  const std::string out = (mount / "out.pgn").string();
  std::ofstream(out) << "earlier output\n";
  auto run = run_cqlindex("run " + shell_quote(query) + " -i " + shell_quote(pgn) + " -o " + shell_quote(out));
  INFO(run.out);
  CHECK(run.exit_code == 2);
  CHECK_FALSE(has(run.out, " matches of "));
  CHECK(read_all(out) == "earlier output\n");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(mount)) files.push_back(e.path().filename().string());
  CHECK(files == std::vector<std::string>{"out.pgn"});

  // with room again, the build succeeds and answers as a scan
  ::umount2(mount.c_str(), MNT_DETACH);
  REQUIRE(::mount("tmpfs", mount.c_str(), "tmpfs", 0, "size=64m") == 0);
  CHECK(run_cqlindex("build " + shell_quote(pgn) + " --index " + shell_quote(index)).exit_code == 0);
  const auto scan = scan_answer(dir, query, pgn);
  auto indexed = run_cqlindex("run " + shell_quote(query) + " -i " + shell_quote(pgn) + " --index " +
                              shell_quote(index) + " -o " + shell_quote(out));
  CHECK(match_line(indexed.out) == scan.first);
  CHECK(read_all(out) == scan.second);
}
