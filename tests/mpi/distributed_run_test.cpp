// `mpirun -np K cqlindex run` (issue 18 part 2, exec/distributed_run.h) on this machine's loopback: the studies
// file cut into five at game boundaries, a .cqlrepo list of the parts, and every answer of 1, 2 and 4 ranks
// compared byte for byte with the one-process run over the whole file: the output file, CQL's summary line
// (its seconds left out), standard output and the accounting line; plain, sorted, persistent and -gamenumber
// queries, with and without indexes. A rank killed mid-run ends the job with a non-zero exit and no output
// file; a refusal (a stale index) is said by rank 0 with the one-process exit code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>

#include "multi/multi_test_util.h"
#include "support/file_bytes.h"
#include "support/process.h"

namespace fs = std::filesystem;
using namespace multi_test;

namespace {

// Requires mpirun and cqlindex-mpi: the MPI tests fail (never skip) where Open MPI is missing.
void require_open_mpi() {
  const auto which = run_process("command -v mpirun");
  INFO("mpirun is missing: scripts/setup installs Open MPI (openmpi-bin, libopenmpi-dev)");
  REQUIRE(which.exit_code == 0);
  const fs::path mpi_binary = fs::path(CQLINDEX_BINARY).parent_path() / "cqlindex-mpi";
  INFO("cqlindex-mpi was not built: scripts/setup installs libopenmpi-dev, then rebuild");
  REQUIRE(fs::exists(mpi_binary));
}

// Chunks of at most 200 bytes (a test hook of exec/distributed_games.h): about a chunk a game, many of them sent
// while rank 0 still scans its own share, each written in its turn.
const std::string kSmallChunks = "CQLINDEX_TEST_CHUNK_BYTES=200";

// Rank 0 slowed after each of its pieces (a test hook of exec/distributed_run.cpp): the others, done with their own
// shares, are given the back of its share (exec/distributed_steal.h).
const std::string kSlowRank0 = "CQLINDEX_TEST_RANK0_PAUSE_MS=40";

// The game count slowed (a test hook of exec/distributed_share.cpp): rank 0 scans its first files while the others
// count, before their sum is in.
const std::string kSlowCount = "CQLINDEX_TEST_COUNT_PAUSE_MS=400";

// Returns how many files rank 0 scanned while the others counted, from its merge line on stderr (0 without).
int files_scanned_early(const std::string& err) {
  static const std::regex line("; it scanned ([0-9]+) files while the others counted");
  std::smatch m;
  return std::regex_search(err, m, line) ? std::stoi(m.str(1)) : 0;
}

// Returns how many of rank 0's pieces the other ranks scanned, from its merge line on stderr (-1 without one).
int pieces_given(const std::string& err) {
  static const std::regex line("\\(([0-9]+) of its [0-9]+ pieces scanned by the others\\)");
  std::smatch m;
  return std::regex_search(err, m, line) ? std::stoi(m.str(1)) : -1;
}

// Runs `cqlindex run` as run_in does.
Answer run(const fs::path& dir, int ranks, const std::string& args, const std::string& query,
           const std::string& env = "") {
  return run_in(dir, ranks, args, query, env);
}

// Checks a run whose rank was killed: mpirun ended the job, non-zero, with no output file and no success line.
void check_ended(const Answer& killed) {
  INFO(killed.err);
  CHECK(killed.exit_code != 0);
  CHECK_FALSE(killed.output_exists);
  CHECK(killed.out.find(" matches of ") == std::string::npos);
}

// Returns the accounting line of a run's standard error, else "".
std::string accounting(const std::string& err) {
  static const std::regex line("cqlindex run: [0-9]+ games, [^\n]*");
  std::smatch m;
  return std::regex_search(err, m, line) ? m.str(0) : "";
}

// Compares `query` (with `extra` flags) over `repository` (the parts' list, or the whole file itself) under
// 1, 2 and 4 ranks (with `env` set) with one process over the whole file.
void check_same(const fs::path& dir, const std::string& query, const std::string& extra,
                const std::vector<int>& ranks = {2, 4}, const std::string& repository = "parts.cqlrepo",
                const std::string& env = "") {
  INFO("query " << query << " " << extra);
  const Answer whole = run(dir, 0, extra + " -i whole.pgn", query);
  REQUIRE(whole.exit_code == 0);
  REQUIRE(whole.out.find(" matches of ") != std::string::npos);
  for (int k : ranks) {
    INFO(k << " ranks");
    const Answer many = run(dir, k, extra + " -i " + repository, query, env);
    INFO(many.err);
    CHECK(many.exit_code == 0);
    CHECK(without_timing(many.out) == without_timing(whole.out));
    CHECK_FALSE(accounting(whole.err).empty());
    CHECK(accounting(many.err) == accounting(whole.err));
    CHECK(many.output.size() == whole.output.size());
    CHECK(many.output == whole.output);
  }
}

// The studies cut into five parts (one of a single game) and listed in parts.cqlrepo; returns the parts.
std::vector<std::string> studies_in_parts(const fs::path& dir) {
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {61, 62, 151, 191});
  std::string list;
  for (const std::string& p : parts) list += fs::path(p).filename().string() + "\n";
  write(dir / "parts.cqlrepo", list);
  return parts;
}

// The studies cut into ten parts of 25 games or so, listed in parts.cqlrepo: rank 0's share holds several files,
// its first ones at most half of it under 2 and 4 ranks (those it scans while the others count).
void studies_in_ten(const fs::path& dir) {
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")),
                           {25, 50, 75, 100, 125, 150, 175, 200, 225});
  std::string list;
  for (const std::string& p : parts) list += fs::path(p).filename().string() + "\n";
  write(dir / "parts.cqlrepo", list);
}

}  // namespace

TEST_CASE("mpirun over the studies cut into five equals one process over the whole file", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-studies");
  const auto parts = studies_in_parts(dir);
  REQUIRE(parts.size() == 5);
  SECTION("without indexes") {
    check_same(dir, exalpha("passers.cql"), "-threads 2", {1, 2, 4});
    check_same(dir, exalpha("staircase-sort.cql"), "-threads 2", {4});  // sorted: merged on rank 0
    check_same(dir, exalpha("persistent.cql"), "-threads 2", {2});      // cross-game state: rank 0 alone
    check_same(dir, exalpha("passers.cql"), "-threads 2 -gamenumber 50 200", {2});
    check_same(dir, exalpha("passers.cql"), "-threads 2 -gamenumber 60 60", {4});  // ends inside a share
    // shared by bytes: a rank's files after its first numbered on by its scan, ranges ending in them
    check_same(dir, exalpha("passers.cql"), "-threads 1 -gamenumber 100 170", {2, 4});
    check_same(dir, exalpha("staircase-sort.cql"), "-threads 1 -gamenumber 62 200", {2});
  }
  SECTION("with some files indexed: the others counted, the files shared by bytes") {
    build({parts[1], parts[3]});
    check_same(dir, exalpha("passers.cql"), "-threads 1", {2, 4});  // the indexes cannot narrow it
    check_same(dir, exalpha("passers.cql"), "-threads 1 -gamenumber 63 190", {2, 4});
    check_same(dir, exalpha("passers.cql"), "-threads 1 -gamenumber 152 152", {4});
  }
  SECTION("with indexes") {
    build(parts);
    build({(dir / "whole.pgn").string()});
    check_same(dir, exalpha("smotheredmate.cql"), "-threads 2", {2, 4});
    check_same(dir, exalpha("staircase-sort.cql"), "-threads 1 -gamenumber 100 240", {2});
    check_same(dir, exalpha("smotheredmate.cql"), "-threads 2 -gamenumber 61 61", {4});
  }
}

TEST_CASE("mpirun without -threads gives each rank its share of the node's cores", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-threads");
  studies_in_parts(dir);
  // Unbound ranks (mpirun binds 2 ranks to a core each): each may run on every core this test may.
  const std::string unbound = "OMPI_MCA_hwloc_base_binding_policy=none";
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) cores = std::min(cores, unsigned(std::max(1, CPU_COUNT(&set))));
  const Answer whole = run(dir, 0, "-threads 1 -i whole.pgn", exalpha("passers.cql"));
  REQUIRE(whole.exit_code == 0);
  static const std::regex threads_used("using ([0-9]+) threads? to");
  for (unsigned ranks : {2u, 4u}) {
    INFO(ranks << " ranks");
    const Answer many = run(dir, int(ranks), "-i parts.cqlrepo", exalpha("passers.cql"), unbound);
    INFO(many.err);
    REQUIRE(many.exit_code == 0);
    std::smatch m;
    REQUIRE(std::regex_search(many.out, m, threads_used));
    CHECK(std::stoul(m[1].str()) == std::max(1u, std::min(cores, std::thread::hardware_concurrency() / ranks)));
    CHECK(many.output == whole.output);
  }
}

TEST_CASE("mpirun over one file cuts it between the ranks at game starts and equals one process", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-one-file");
  write(dir / "whole.pgn", file_bytes(shared_data("studies/cql-sample.pgn")));
  write(dir / "one.cqlrepo", "whole.pgn\n");
  SECTION("without an index: the cuts found by the game splitter") {
    check_same(dir, exalpha("passers.cql"), "-threads 1", {2, 4}, "whole.pgn");
    check_same(dir, exalpha("staircase-sort.cql"), "-threads 1", {2, 4}, "one.cqlrepo");  // merged sorted
    check_same(dir, exalpha("passers.cql"), "-threads 1 -gamenumber 40 130", {2, 4}, "whole.pgn");
    check_same(dir, exalpha("passers.cql"), "-threads 1 -gamenumber 127 127", {2}, "whole.pgn");  // a cut's game
  }
  SECTION("with an index: the cuts from its game records") {
    build({(dir / "whole.pgn").string()});
    check_same(dir, exalpha("smotheredmate.cql"), "-threads 1", {2, 4}, "whole.pgn");
    check_same(dir, exalpha("passers.cql"), "-threads 1", {4}, "one.cqlrepo");  // the index cannot narrow it
    check_same(dir, exalpha("staircase-sort.cql"), "-threads 1 -gamenumber 100 240", {2, 4}, "whole.pgn");
    check_same(dir, exalpha("smotheredmate.cql"), "-threads 1 -gamenumber 1 126", {2}, "whole.pgn");
  }
}

// The line a run says once, before the first game of an indexed file that the index cannot narrow.
const std::string kCannotNarrow = "cqlindex run: the index cannot narrow this query: every game is replayed";

// Returns what a run says on stderr about its input files (named `prefix`...), in the order said: their PGN
// messages (FILE:LINE:COL: game N: ...) and kCannotNarrow. Other lines are left out (the ranks' merge line).
std::vector<std::string> said_about(const std::string& err, const std::string& prefix) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < err.size();) {
    size_t end = err.find('\n', at);
    if (end == std::string::npos) end = err.size();
    const std::string line = err.substr(at, end - at);
    if (line.rfind(prefix, 0) == 0 || line == kCannotNarrow) lines.push_back(line);
    at = end + 1;
  }
  return lines;
}

// Returns six PGN edge cases one after the other: 84 PGN messages (errors, skipped variants) over 88 games.
std::string dirty_games() {
  std::string dirty;
  for (const char* name : {"badpgn.pgn", "annotated.pgn", "bilbao.pgn", "a.pgn", "zh.pgn", "fenSetup.pgn"})
    dirty += file_bytes(shared_data(std::string("pgn-edge-cases/pychess/") + name)) + "\n";
  return dirty;
}

// Rank 0 writes the other ranks' PGN messages in game order: mpirun forwards each rank's stderr in reads of 4 KiB,
// so a rank writing its own could have a line cut by another rank's (here 26 KB of them over 2 or 4 ranks).
// With rank 0 slowed the others scan pieces of its share too, each piece saying kCannotNarrow where one process
// would: rank 0 says it once.
TEST_CASE("mpirun over a dirty file cut between ranks says each PGN message at its line, once", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-dirty");
  const std::string dirty = dirty_games();
  write(dir / "dirty.pgn", dirty + dirty + dirty + dirty);
  // two files, the second alone indexed: its note comes from a rank after rank 0 (or a piece given away)
  write(dir / "dirty-a.pgn", dirty + dirty + dirty);
  write(dir / "dirty-b.pgn", dirty);
  write(dir / "dirty.cqlrepo", "dirty-a.pgn\ndirty-b.pgn\n");
  // (`cut`: rank 0's share is unindexed, cut into pieces at the game count's checkpoints; an indexed one is one)
  auto check = [&](const std::string& input, long notes, bool cut) {
    INFO(input);
    const Answer one = run(dir, 0, "-threads 1 -i " + input, exalpha("passers.cql"));
    REQUIRE(one.exit_code == 0);
    const auto said = said_about(one.err, "dirty");
    REQUIRE(said.size() > 300);
    CHECK(std::count(said.begin(), said.end(), kCannotNarrow) == notes);
    for (const std::string& env : {std::string(), kSlowRank0})
      for (int ranks : {2, 4}) {
        INFO(ranks << " ranks " << env);
        const Answer many = run(dir, ranks, "-threads 1 -i " + input, exalpha("passers.cql"), env);
        INFO(many.err);
        CHECK(many.exit_code == 0);
        CHECK(without_timing(many.out) == without_timing(one.out));
        CHECK(accounting(many.err) == accounting(one.err));
        CHECK(said_about(many.err, "dirty") == said);
        CHECK(many.output == one.output);
        if (!env.empty() && cut) CHECK(pieces_given(many.err) > 0);
      }
  };
  check("dirty.pgn", 0, true);
  build({(dir / "dirty.pgn").string()});
  check("dirty.pgn", 1, false);
  build({(dir / "dirty-b.pgn").string()});
  check("dirty.cqlrepo", 1, true);
}

TEST_CASE("mpirun over two files and four ranks cuts both files", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-two-files");
  const auto parts = split(dir, file_bytes(shared_data("studies/cql-sample.pgn")), {200});
  write(dir / "parts.cqlrepo", "part1.pgn\npart2.pgn\n");
  check_same(dir, exalpha("passers.cql"), "-threads 1", {4});
  build(parts);
  check_same(dir, exalpha("staircase-sort.cql"), "-threads 1", {4});
}

TEST_CASE("build under mpirun builds each rank's share of the files, the same indexes as one process", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-build");
  const auto parts = studies_in_parts(dir);
  const Answer unindexed = run(dir, 0, "-threads 1 -i parts.cqlrepo", exalpha("smotheredmate.cql"));
  REQUIRE(unindexed.exit_code == 0);
  auto built = run_process("cd " + shell_quote(dir.string()) + " && " + mpirun(4) + shell_quote(CQLINDEX_BINARY) +
                           " build --threads 1 -i parts.cqlrepo 2>&1");
  INFO(built.out);
  REQUIRE(built.exit_code == 0);
  for (const std::string& p : parts) {
    CHECK(built.out.find(fs::path(p).filename().string() + ": ") != std::string::npos);  // each built once
    CHECK(built.out.find(fs::path(p).filename().string() + ": ") ==
          built.out.rfind(fs::path(p).filename().string() + ": "));
    CHECK(run_process(shell_quote(CQLINDEX_BINARY) + " verify " + shell_quote(p) + " >/dev/null 2>&1").exit_code == 0);
  }
  const Answer indexed = run(dir, 0, "-threads 1 -i parts.cqlrepo", exalpha("smotheredmate.cql"));
  INFO(indexed.err);
  CHECK(indexed.exit_code == 0);
  CHECK(indexed.err.find("the index left") != std::string::npos);  // the indexes were used
  CHECK(without_timing(indexed.out) == without_timing(unindexed.out));
  CHECK(indexed.output == unindexed.output);
}

TEST_CASE("mpirun with a rank killed mid-run exits non-zero and leaves no output file", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-killed");
  studies_in_parts(dir);
  // rank 1 raises SIGKILL after its first file (the test hook of exec/distributed_run.cpp)
  const Answer killed = run(dir, 2, "-threads 1 -i parts.cqlrepo", exalpha("passers.cql"),
                            "CQLINDEX_TEST_KILL_RANK=1");
  check_ended(killed);
  // the next run writes the output (and removes the killed run's temporary file)
  const Answer next = run(dir, 2, "-threads 1 -i parts.cqlrepo", exalpha("passers.cql"));
  CHECK(next.exit_code == 0);
  CHECK(next.output_exists);
  for (const auto& entry : fs::directory_iterator(dir))
    CHECK(entry.path().filename().string().find("cqlindex-tmp") == std::string::npos);
}

TEST_CASE("mpirun streams the ranks' games to rank 0 in many small chunks and equals one process", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-chunks");
  studies_in_parts(dir);
  check_same(dir, exalpha("passers.cql"), "-threads 1", {2, 4}, "parts.cqlrepo", kSmallChunks);
  check_same(dir, exalpha("passers.cql"), "-threads 2 -gamenumber 50 200", {4}, "parts.cqlrepo", kSmallChunks);
  check_same(dir, exalpha("passers.cql"), "-threads 1", {4}, "whole.pgn", kSmallChunks);  // one file cut
  check_same(dir, exalpha("staircase-sort.cql"), "-threads 1", {2}, "parts.cqlrepo", kSmallChunks);  // sorted
}

TEST_CASE("mpirun gives the back of rank 0's share to the ranks done with theirs and equals one process", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-given");
  studies_in_parts(dir);
  const std::string passers = exalpha("passers.cql"), sorted = exalpha("staircase-sort.cql");
  // unindexed files: rank 0's cut at the game count's checkpoints, numbered, each piece read from its first game
  check_same(dir, passers, "-threads 1", {2, 4}, "parts.cqlrepo", kSlowRank0);
  check_same(dir, sorted, "-threads 1", {2, 4}, "parts.cqlrepo", kSlowRank0);  // the given pieces' kept games
  check_same(dir, passers, "-threads 2 -gamenumber 50 200", {2, 4}, "parts.cqlrepo", kSlowRank0);
  check_same(dir, passers, "-threads 1 -gamenumber 20 30", {2}, "parts.cqlrepo", kSlowRank0);  // inside a piece
  check_same(dir, sorted, "-threads 1 -gamenumber 10 120", {2}, "parts.cqlrepo", kSlowRank0);
  check_same(dir, passers, "-threads 1", {2, 4}, "whole.pgn", kSlowRank0 + " " + kSmallChunks);  // one file cut
  for (int ranks : {2, 4}) {  // and pieces were given
    INFO(ranks << " ranks");
    const Answer given = run(dir, ranks, "-threads 1 -i parts.cqlrepo", passers, kSlowRank0);
    INFO(given.err);
    CHECK(given.exit_code == 0);
    CHECK(pieces_given(given.err) > 0);
  }
  const Answer alone = run(dir, 2, "-threads 1 -i parts.cqlrepo", passers);  // the line says 0 or more
  CHECK(pieces_given(alone.err) >= 0);
  SECTION("a rank that fails in a given piece: rank 0 drains, exits with its status, no output") {
    const Answer failed = run(dir, 2, "-threads 1 -i parts.cqlrepo", passers,
                              kSlowRank0 + " " + kSmallChunks + " CQLINDEX_TEST_FAIL_GIVEN_RANK=1");
    INFO(failed.err);
    CHECK(failed.exit_code == 2);
    CHECK_FALSE(failed.output_exists);
    CHECK(failed.err.find("rank 1 fails after its first given piece") != std::string::npos);
  }
  SECTION("a rank killed in a given piece: mpirun ends the job, no output") {
    const Answer killed = run(dir, 2, "-threads 1 -i parts.cqlrepo", passers,
                              kSlowRank0 + " CQLINDEX_TEST_KILL_GIVEN_RANK=1");
    check_ended(killed);
  }
}

TEST_CASE("mpirun with a rank that fails or dies after sending games exits non-zero and leaves no output", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-chunks-failed");
  studies_in_parts(dir);
  const std::string query = exalpha("passers.cql");
  SECTION("a rank reports a failure: rank 0 drains every rank's chunks and exits with its status") {
    // rank 1 of 2 fails; of 4, rank 2 (rank 1 has none of the five files: a file goes to the rank its first game
    // falls to), whose chunks rank 0 has begun to write, and rank 3's, which follow, are only drained
    for (const auto& [ranks, failing] : {std::pair{2, 1}, std::pair{4, 2}}) {
      INFO(ranks << " ranks");
      const std::string rank = std::to_string(failing);
      const Answer failed = run(dir, ranks, "-threads 1 -i parts.cqlrepo", query,
                                kSmallChunks + " CQLINDEX_TEST_FAIL_RANK=" + rank);
      INFO(failed.err);
      CHECK(failed.exit_code == 2);
      CHECK_FALSE(failed.output_exists);
      CHECK(failed.out.find(" matches of ") == std::string::npos);
      CHECK(failed.err.find("rank " + rank + " fails after its first piece") != std::string::npos);
    }
  }
  SECTION("a rank is killed: mpirun ends the job") {
    const Answer killed = run(dir, 2, "-threads 1 -i parts.cqlrepo", query,
                              kSmallChunks + " CQLINDEX_TEST_KILL_RANK=1");
    check_ended(killed);
  }
  // the next run writes the output
  const Answer next = run(dir, 2, "-threads 1 -i parts.cqlrepo", query, kSmallChunks);
  CHECK(next.exit_code == 0);
  CHECK(next.output_exists);
}

TEST_CASE("mpirun refuses a stale index once, with the one-process exit code and no output", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-stale");
  const auto parts = studies_in_parts(dir);
  build(parts);
  write(parts[2], file_bytes(parts[2]) + "\n[Event \"added\"]\n\n1. e4 *\n");  // the middle file changed
  const Answer one = run(dir, 0, "-i parts.cqlrepo", exalpha("passers.cql"));
  const Answer many = run(dir, 4, "-i parts.cqlrepo", exalpha("passers.cql"));
  INFO(many.err);
  CHECK(one.exit_code == 2);
  CHECK(many.exit_code == one.exit_code);
  CHECK_FALSE(many.output_exists);
  const std::string named = fs::path(parts[2]).filename().string() + ".cqlidx";
  REQUIRE(one.err.find(named) != std::string::npos);
  CHECK(many.err.find(named) != std::string::npos);
  CHECK(many.err.find(named) == many.err.rfind(named));  // said once, by rank 0
}

// Returns the standard error of a similar search without the lines of each file's (or part's) look-ups, which
// every rank says for its own share, and rank 0's merge time: what is left (the judges' reports) is rank 0's.
std::string without_lookups(const std::string& err) {
  static const std::regex lines(
      "cqlindex similar: ([0-9]+ distinct positions looked up|[0-9]+ ranks; rank 0 spent)[^\n]*\n");
  return std::regex_replace(err, lines, "");
}

TEST_CASE("similar under mpirun splits the search between the ranks and equals one process", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-similar");
  const auto parts = studies_in_parts(dir);
  write(dir / "submission.pgn", file_bytes(parts[1]) + file_bytes(parts[3]).substr(0, 30000));
  write(dir / "similar.cql", "cql()\nsimilarposition \"submission.pgn\"\n");
  auto similar = [&](int ranks, const std::string& args) {
    fs::remove(dir / "out.pgn");
    auto r = run_process("cd " + shell_quote(dir.string()) + " && " + mpirun(ranks) + shell_quote(CQLINDEX_BINARY) +
                         " similar submission.pgn --threads 1 -o out.pgn " + args + " 2>stderr.txt");
    return Answer{r.exit_code, r.out, file_bytes(dir / "out.pgn"), file_bytes(dir / "stderr.txt"),
                  fs::exists(dir / "out.pgn")};
  };
  auto check_similar = [&](const std::string& args) {
    const Answer one = similar(0, "-i whole.pgn " + args);
    REQUIRE(one.exit_code == 0);
    REQUIRE(one.out.find(" matches of 253 games") != std::string::npos);
    CHECK(one.output.size() > 10000);
    for (const auto& [repository, ranks] : std::vector<std::pair<std::string, int>>{
             {"whole.pgn", 2}, {"whole.pgn", 4}, {"parts.cqlrepo", 1}, {"parts.cqlrepo", 4}}) {
        INFO(ranks << " ranks over " << repository << " " << args);
        const Answer many = similar(ranks, "-i " + repository + " " + args);
        INFO(many.err);
        CHECK(many.exit_code == 0);
        CHECK(without_timing(many.out) == without_timing(one.out));  // said once, by rank 0
        CHECK(many.output == one.output);
        CHECK(without_lookups(many.err) == without_lookups(one.err));  // the judges' reports, from every rank's hits
    }
  };
  SECTION("without indexes") {
    check_similar("--no-index");
    check_similar("--no-index --nosort");
  }
  SECTION("with indexes") {
    build(parts);
    build({(dir / "whole.pgn").string()});
    check_similar("");
    check_similar("--ignore-common 4");  // one file: the skipped positions' games counted part by part
  }
  SECTION("run with a lone similarposition") {
    // (-threads 1 for all: without it a rank takes its share of the cores, one process all of them)
    const Answer run_one = run(dir, 0, "-threads 1 -i whole.pgn", (dir / "similar.cql").string());
    REQUIRE(run_one.exit_code == 0);
    build(parts);
    build({(dir / "whole.pgn").string()});
    for (const std::string repository : {"whole.pgn", "parts.cqlrepo"}) {
      const Answer run_two = run(dir, 2, "-threads 1 -i " + repository, (dir / "similar.cql").string());
      INFO(run_two.err);
      CHECK(run_two.exit_code == 0);
      CHECK(without_timing(run_two.out) == without_timing(run_one.out));
      CHECK(run_two.output == run_one.output);
      const Answer run_four = run(dir, 4, "-threads 1 --no-index -i " + repository, (dir / "similar.cql").string());
      CHECK(run_four.exit_code == 0);
      CHECK(without_timing(run_four.out) == without_timing(run_one.out));
      CHECK(run_four.output == run_one.output);
    }
  }
}

// The other ranks' PGN messages of a similar search written by rank 0 in game order, whole (as a run's, above).
TEST_CASE("similar under mpirun over a dirty file says each PGN message at its line, once", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-similar-dirty");
  const std::string dirty = dirty_games();
  write(dir / "dirty.pgn", dirty + dirty + dirty + dirty);
  write(dir / "submission.pgn", file_bytes(shared_data("studies/cql-sample.pgn")).substr(0, 20000));
  auto similar = [&](int ranks) {
    auto r = run_process("cd " + shell_quote(dir.string()) + " && " + mpirun(ranks) + shell_quote(CQLINDEX_BINARY) +
                         " similar submission.pgn --threads 1 --no-index -i dirty.pgn -o out.pgn 2>stderr.txt");
    return Answer{r.exit_code, r.out, file_bytes(dir / "out.pgn"), file_bytes(dir / "stderr.txt"), true};
  };
  const Answer one = similar(0);
  REQUIRE(one.exit_code == 0);
  const auto said = said_about(one.err, "dirty");
  REQUIRE(said.size() > 300);
  for (int ranks : {2, 4}) {
    INFO(ranks << " ranks");
    const Answer many = similar(ranks);
    INFO(many.err);
    CHECK(many.exit_code == 0);
    CHECK(without_timing(many.out) == without_timing(one.out));
    CHECK(said_about(many.err, "dirty") == said);
    CHECK(many.output == one.output);
  }
}

TEST_CASE("mpirun: rank 0 scans its first files while the others count, and equals one process", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-early");
  studies_in_ten(dir);
  const std::string passers = exalpha("passers.cql"), sorted = exalpha("staircase-sort.cql");
  for (int ranks : {2, 4}) {  // the path taken: rank 0 scanned files before the count was in
    INFO(ranks << " ranks");
    const Answer early = run(dir, ranks, "-threads 1 -i parts.cqlrepo", passers, kSlowCount);
    INFO(early.err);
    CHECK(early.exit_code == 0);
    CHECK(files_scanned_early(early.err) >= 1);
  }
  check_same(dir, passers, "-threads 1", {2, 4}, "parts.cqlrepo", kSlowCount);
  check_same(dir, sorted, "-threads 1", {2, 4}, "parts.cqlrepo", kSlowCount);
  check_same(dir, passers, "-threads 1 -gamenumber 10 20", {2, 4}, "parts.cqlrepo", kSlowCount);  // in its first file
  check_same(dir, passers, "-threads 1 -gamenumber 1 25", {2, 4}, "parts.cqlrepo", kSlowCount);   // at its end
  check_same(dir, passers, "-threads 2 -gamenumber 30 180", {2, 4}, "parts.cqlrepo", kSlowCount);
  check_same(dir, sorted, "-threads 1 -gamenumber 20 160", {2, 4}, "parts.cqlrepo", kSlowCount);
  // its games streamed in small chunks, and rank 0 slowed: the back of its share given, numbered by the count
  check_same(dir, passers, "-threads 1", {2, 4}, "parts.cqlrepo", kSlowCount + " " + kSmallChunks);
  check_same(dir, passers, "-threads 1", {2, 4}, "parts.cqlrepo", kSlowCount + " " + kSlowRank0);
  for (int ranks : {2, 4}) {
    INFO(ranks << " ranks");
    const Answer given = run(dir, ranks, "-threads 1 -i parts.cqlrepo", passers, kSlowCount + " " + kSlowRank0);
    INFO(given.err);
    CHECK(given.exit_code == 0);
    CHECK(files_scanned_early(given.err) >= 1);
    CHECK(pieces_given(given.err) > 0);
  }
}

TEST_CASE("mpirun with a counting rank killed or failing while rank 0 scans exits non-zero with no output", "[mpi]") {
  require_open_mpi();
  const fs::path dir = scratch("mpi-early-failed");
  studies_in_ten(dir);
  const std::string passers = exalpha("passers.cql");
  for (const auto& [ranks, killed] : {std::pair{2, 1}, std::pair{4, 2}}) {  // mpirun ends the job
    INFO(ranks << " ranks, rank " << killed << " killed");
    check_ended(run(dir, ranks, "-threads 1 -i parts.cqlrepo", passers,
                    kSlowCount + " CQLINDEX_TEST_KILL_COUNTING_RANK=" + std::to_string(killed)));
  }
  for (const auto& [ranks, failing] : {std::pair{2, 1}, std::pair{4, 3}}) {  // every rank stops
    INFO(ranks << " ranks, rank " << failing << " fails");
    const std::string rank = std::to_string(failing);
    const Answer failed = run(dir, ranks, "-threads 1 -i parts.cqlrepo", passers,
                              kSlowCount + " CQLINDEX_TEST_FAIL_COUNTING_RANK=" + rank);
    INFO(failed.err);
    CHECK(failed.exit_code != 0);
    CHECK_FALSE(failed.output_exists);
    CHECK(failed.out.find(" matches of ") == std::string::npos);
    CHECK(failed.err.find("rank " + rank + " fails in the game count") != std::string::npos);
  }
  // the next run writes the output (and removes the failed runs' temporary files)
  const Answer next = run(dir, 2, "-threads 1 -i parts.cqlrepo", passers);
  CHECK(next.exit_code == 0);
  CHECK(next.output_exists);
  for (const auto& entry : fs::directory_iterator(dir))
    CHECK(entry.path().filename().string().find("cqlindex-tmp") == std::string::npos);
}
