// `similarposition` inside larger queries, against CQL 6.2's own runs (expected-output/similarposition-composite):
// every output file byte-identical and the same match line, with --no-index, through the index and on two
// threads; the query CQL 6.2 refuses (a transform applied to similarposition) refused the same way. Then the
// planner: the indexed answer equals the scan under and/or/not/find/line/sort, and `explain` names the rule.
//
// The goldens were made in a folder holding `repo.pgn` and `subs.pgn` (CQL's comments name the submissions file
// as the query gives it), so each run here happens in a scratch folder laid out the same way.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

#include "support/file_bytes.h"
#include "support/process.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using cqlindex::test::file_bytes;
using cqlindex::test::run_process;
using cqlindex::test::shell_quote;

namespace {

fs::path data_dir() { return cqlindex::test::shared_data(""); }
fs::path composite_dir() { return cqlindex::test::shared_data("cql-examples/expected-output/similarposition-composite"); }

// A scratch folder holding repo.pgn (cql-sample) and subs.pgn (lichess studies 1), as the goldens' README says.
struct Workspace {
  fs::path dir;
  explicit Workspace(const std::string& tag) {
    INFO("the shared data folder " << data_dir() << " (../shared/data beside the repository) is needed");
    REQUIRE(fs::is_directory(composite_dir()));
    dir = fs::temp_directory_path() / ("cqlindex-simcomp-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(data_dir() / "studies" / "cql-sample.pgn", dir / "repo.pgn");
    fs::copy_file(data_dir() / "studies" / "lichess-beautiful-chess-studies-1.pgn", dir / "subs.pgn");
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  // Runs `cqlindex ARGS` here; stdout in .out, stderr in the file stderr.txt.
  cqlindex::test::ProcessResult run(const std::string& args) const {
    return run_process("cd " + shell_quote(dir.string()) + " && " + shell_quote(CQLINDEX_BINARY) + " " + args +
                       " 2>stderr.txt");
  }
  std::string stderr_text() const { return file_bytes(dir / "stderr.txt"); }
};

// The golden queries, by name (q01-btm, ...).
std::vector<std::string> golden_queries() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(composite_dir()))
    if (e.path().extension() == ".cql") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Returns "N matches of M games" from `text`, or "".
std::string match_line(const std::string& text) {
  std::smatch m;
  return std::regex_search(text, m, std::regex(R"((\d+) matches of (\d+) games)")) ? m[0].str() : "";
}

// Runs the golden query `name` with `flags` and checks it against CQL 6.2's output and log.
void check_golden(const Workspace& w, const std::string& name, const std::string& flags) {
  INFO(name << " with '" << flags << "'");
  fs::copy_file(composite_dir() / (name + ".cql"), w.dir / (name + ".cql"), fs::copy_options::overwrite_existing);
  fs::remove(w.dir / (name + ".pgn"));
  auto r = w.run("run " + flags + " -i repo.pgn -o " + name + ".pgn " + name + ".cql");
  INFO("stdout: " << r.out << "\nstderr: " << w.stderr_text());
  const std::string log = file_bytes(composite_dir() / (name + ".log"));
  if (!fs::exists(composite_dir() / (name + ".pgn"))) {  // refused by CQL 6.2: refused here, at the filter
    CHECK(r.exit_code == 1);
    CHECK(!fs::exists(w.dir / (name + ".pgn")));
    CHECK(w.stderr_text().find(name + ".cql:2:") != std::string::npos);
    if (log.find("Attempt to apply a transform to anticipate node") != std::string::npos)
      CHECK(w.stderr_text().find("This operation is not supported at this time") != std::string::npos);
    return;
  }
  REQUIRE(r.exit_code == 0);
  CHECK(match_line(r.out) == match_line(log));
  CHECK(r.out.find("Db: read 64 games from submission file: subs.pgn\n") == 0);  // CQL's line, first
  const std::string want = file_bytes(composite_dir() / (name + ".pgn"));
  const std::string got = file_bytes(w.dir / (name + ".pgn"));
  CHECK(got.size() == want.size());
  CHECK(got == want);
}

}  // namespace

TEST_CASE("similarposition-composite: every golden byte-identical, scanned and indexed", "[eval][golden][similar]") {
  Workspace w("golden");
  const std::vector<std::string> names = golden_queries();
  REQUIRE(names.size() == 5);
  for (const std::string& name : names) check_golden(w, name, "--no-index --threads 1");
  for (const std::string& name : names) check_golden(w, name, "--no-index --threads 2");
  REQUIRE(w.run("build repo.pgn").exit_code == 0);
  for (const std::string& name : names) {
    check_golden(w, name, "--threads 2");
    if (fs::exists(composite_dir() / (name + ".pgn"))) {  // the index bounded the query: fewer games replayed
      std::smatch m;
      const std::string err = w.stderr_text();
      INFO(name << ": " << err);
      REQUIRE(std::regex_search(err, m, std::regex(R"(the index left (\d+) of 253 games)")));
      CHECK(std::stoi(m[1].str()) < 253);
    }
  }
}

TEST_CASE("similarposition: the indexed answer equals the scan, and explain names the rule", "[eval][similar][planner]") {
  Workspace w("plan");
  REQUIRE(w.run("build repo.pgn").exit_code == 0);
  std::vector<std::string> bodies;
  for (const std::string& name : golden_queries())  // those CQL 6.2 answers (q04 is refused whatever the index)
    if (fs::exists(composite_dir() / (name + ".pgn"))) bodies.push_back(file_bytes(composite_dir() / (name + ".cql")));
  for (const char* body : {
           "similarposition \"subs.pgn\"\nwtm",
           "not similarposition \"subs.pgn\"",
           "{similarposition notransform \"subs.pgn\"} or stalemate",
           "find similarposition nosort \"subs.pgn\"\ncheck",
           "line --> check --> similarposition \"subs.pgn\"",
           "sort \"pieces\" #[Aa]\nsimilarposition \"subs.pgn\"",
           "similarposition \"subs.pgn\"\nsimilarposition notransform nosort \"subs.pgn\"",
           "if similarposition \"subs.pgn\" then check else mate",
           "flipcolor notransform similarposition \"subs.pgn\"",
       })
    bodies.push_back(std::string("cql()\n") + body + "\n");
  bodies.push_back("cql(variations)\nsimilarposition \"subs.pgn\" btm\n");
  for (size_t i = 0; i < bodies.size(); ++i) {
    INFO("query:\n" << bodies[i]);
    std::ofstream(w.dir / "q.cql", std::ios::binary) << bodies[i];
    auto scan = w.run("run --no-index -i repo.pgn -o scan.pgn q.cql");
    const std::string scan_err = w.stderr_text();
    auto indexed = w.run("run -i repo.pgn -o indexed.pgn q.cql");
    INFO("scan: " << scan.out << scan_err << "\nindexed: " << indexed.out << w.stderr_text());
    CHECK(scan.exit_code == 0);
    CHECK(indexed.exit_code == 0);
    CHECK(match_line(scan.out) == match_line(indexed.out));
    CHECK(file_bytes(w.dir / "scan.pgn") == file_bytes(w.dir / "indexed.pgn"));
    fs::remove(w.dir / "scan.pgn");
    fs::remove(w.dir / "indexed.pgn");
  }
  // explain: a similarposition under `and` bounds the query by the similar family; under `not`, all games
  std::ofstream(w.dir / "q.cql", std::ios::binary) << "cql()\nsimilarposition \"subs.pgn\" btm\n";
  auto plan = w.run("explain q.cql -i repo.pgn");
  INFO(plan.out << w.stderr_text());
  REQUIRE(plan.exit_code == 0);
  CHECK(plan.out.find("similar positions (") != std::string::npos);
  CHECK(plan.out.find("(similar)") != std::string::npos);
  CHECK(plan.out.find("full scan") == std::string::npos);
  std::ofstream(w.dir / "q.cql", std::ios::binary) << "cql()\nnot similarposition \"subs.pgn\"\n";
  plan = w.run("explain q.cql -i repo.pgn");
  CHECK(plan.out.find("full scan") != std::string::npos);
}

TEST_CASE("similarposition: a submissions file that cannot be read stops the run, naming the filter", "[eval][similar]") {
  Workspace w("missing");
  std::ofstream(w.dir / "q.cql", std::ios::binary) << "cql()\nbtm\nsimilarposition \"nowhere.pgn\" btm\n";
  auto r = w.run("run --no-index -i repo.pgn -o out.pgn q.cql");
  INFO(w.stderr_text());
  CHECK(r.exit_code == 2);
  CHECK(w.stderr_text().find("q.cql:3:1: similarposition: ") != std::string::npos);
  CHECK(w.stderr_text().find("nowhere.pgn") != std::string::npos);
  CHECK(!fs::exists(w.dir / "out.pgn"));
  std::ofstream(w.dir / "empty.pgn", std::ios::binary) << "";
  std::ofstream(w.dir / "q.cql", std::ios::binary) << "cql()\nsimilarposition \"empty.pgn\" btm\n";
  r = w.run("run --no-index -i repo.pgn -o out.pgn q.cql");
  CHECK(r.exit_code == 2);
  CHECK(w.stderr_text().find("Db: unable to read any games from file: empty.pgn") != std::string::npos);
}

// The evaluator's similarposition writes what the judges' search writes (its goldens: lichess studies 1 and 2
// against cql-sample, CQL 6.2's -similarposition): `-gamenumber 1 253` keeps the query off the lone-filter path.
TEST_CASE("similarposition: the evaluator writes the -similarposition goldens", "[eval][golden][similar]") {
  Workspace w("judges");
  const fs::path goldens = data_dir() / "cql-examples" / "expected-output" / "similarposition";
  std::ofstream(w.dir / "submissions.pgn", std::ios::binary)
      << file_bytes(data_dir() / "studies" / "lichess-beautiful-chess-studies-1.pgn")
      << file_bytes(data_dir() / "studies" / "lichess-beautiful-chess-studies-2.pgn");
  for (const std::string mode : {"default", "nosort", "notransform"}) {
    INFO(mode);
    const std::string option = mode == "default" ? "" : mode + " ";
    std::ofstream(w.dir / "q.cql", std::ios::binary) << "cql()\nsimilarposition " + option + "\"submissions.pgn\"\n";
    auto r = w.run("run --no-index -gamenumber 1 253 -i repo.pgn -o out.pgn q.cql");
    INFO(w.stderr_text());
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("Db: read 103 games from submission file: submissions.pgn\n") == 0);
    CHECK(match_line(r.out) == "3 matches of 253 games");
    CHECK(file_bytes(w.dir / "out.pgn") == file_bytes(goldens / ("lichess-studies-vs-cql-sample." + mode + ".pgn")));
  }
}

TEST_CASE("similarposition: a transform from the command line is refused too, naming no place in the query", "[eval][similar]") {
  Workspace w("cmdline");
  std::ofstream(w.dir / "e.cql", std::ios::binary) << "cql()\n";
  auto r = w.run("run --no-index -similarposition subs.pgn -flipcolor -i repo.pgn -o out.pgn e.cql");
  INFO(w.stderr_text());
  CHECK(r.exit_code == 1);
  CHECK(w.stderr_text().find("e.cql: Attempt to apply a transform (flipcolor) to anticipate node") == 0);
  CHECK(!fs::exists(w.dir / "out.pgn"));
}
