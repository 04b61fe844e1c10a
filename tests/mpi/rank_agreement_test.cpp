// Ranks that mpirun started unlike: in other folders holding other copies of the repository,
// or with another query or other options (`mpirun -np 1 ... : -np 1 ...`). Their merge would match neither: the
// job stops before any scan, the differing rank names the difference, and no output file is written. Ranks in
// other folders holding the same bytes agree.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "multi/multi_test_util.h"
#include "support/process.h"

namespace fs = std::filesystem;
using namespace multi_test;

namespace {

std::string studies_pgn() { return shared_data("studies/cql-sample.pgn"); }

// A scratch folder with two working folders, a/ and b/, each with the query q.cql and a copy of the studies.
struct TwoFolders {
  fs::path root;
  TwoFolders() {
    static int n = 0;
    root = fs::temp_directory_path() / ("cqlindex-mpi-agree-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(root);
    for (const char* sub : {"a", "b"}) {
      fs::create_directories(root / sub);
      fs::copy_file(studies_pgn(), root / sub / "g.pgn");
      std::ofstream(root / sub / "q.cql") << "cql() check\n";
      std::ofstream(root / sub / "q2.cql") << "cql() mate\n";
    }
  }
  ~TwoFolders() { fs::remove_all(root); }
};

// Runs one rank in a/ with `a_args` and one in b/ with `b_args` (each after the command name), stderr joined.
cqlindex::test::ProcessResult two_ranks(const TwoFolders& dirs, const std::string& a_args, const std::string& b_args) {
  const std::string mpirun = "mpirun --oversubscribe --allow-run-as-root ";
  const std::string binary = cqlindex::test::shell_quote(CQLINDEX_BINARY);
  return cqlindex::test::run_process(mpirun + "-np 1 -wdir " + cqlindex::test::shell_quote((dirs.root / "a").string()) +
                                     " " + binary + " " + a_args + " : -np 1 -wdir " +
                                     cqlindex::test::shell_quote((dirs.root / "b").string()) + " " + binary + " " +
                                     b_args + " 2>&1");
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("mpirun ranks in folders with other copies of the repository stop, naming the file", "[mpi]") {
  TwoFolders dirs;
  const std::string run = "run q.cql -i g.pgn -o out.pgn --no-index";
  // the same bytes in both folders: the ranks agree
  auto r = two_ranks(dirs, run, run);
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(fs::exists(dirs.root / "a" / "out.pgn"));
  fs::remove(dirs.root / "a" / "out.pgn");
  // b's copy lost its last games
  const auto size = fs::file_size(dirs.root / "b" / "g.pgn");
  fs::resize_file(dirs.root / "b" / "g.pgn", size / 2);
  for (const std::string& command : {run, std::string("similar g.pgn -i g.pgn -o out.pgn --no-index")}) {
    INFO(command);
    r = two_ranks(dirs, command, command);
    INFO(r.out);
    CHECK(r.exit_code != 0);
    CHECK(has(r.out, "rank 1: g.pgn is '" + std::to_string(size / 2) + " bytes"));
    CHECK(has(r.out, "but on rank 0 it is '" + std::to_string(size) + " bytes"));
    CHECK(has(r.out, "the ranks were not started alike"));
    CHECK(!has(r.out, " matches of "));
    CHECK(!fs::exists(dirs.root / "a" / "out.pgn"));
  }
  // the same size, other bytes
  fs::copy_file(studies_pgn(), dirs.root / "b" / "g.pgn", fs::copy_options::overwrite_existing);
  {
    std::fstream f(dirs.root / "b" / "g.pgn", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(0);
    f << "[Event \"changed\"]";  // the first line is sampled
  }
  r = two_ranks(dirs, run, run);
  INFO(r.out);
  CHECK(r.exit_code != 0);
  CHECK(has(r.out, "rank 1: g.pgn is '" + std::to_string(size) + " bytes, sampled XXH3-64"));
  CHECK(!fs::exists(dirs.root / "a" / "out.pgn"));
}

TEST_CASE("mpirun ranks started with another query or other options stop, naming the argument", "[mpi]") {
  TwoFolders dirs;
  const std::string run = "run q.cql -i g.pgn -o out.pgn --no-index";
  auto r = two_ranks(dirs, run, "run q2.cql -i g.pgn -o out.pgn --no-index");
  INFO(r.out);
  CHECK(r.exit_code != 0);
  CHECK(has(r.out, "rank 1: the command line is 'run q2.cql -i g.pgn -o out.pgn --no-index', but on rank 0 it is "
                   "'run q.cql -i g.pgn -o out.pgn --no-index'"));
  CHECK(!fs::exists(dirs.root / "a" / "out.pgn"));
  r = two_ranks(dirs, run, run + " -gamenumber 1 10");
  INFO(r.out);
  CHECK(r.exit_code != 0);
  CHECK(has(r.out, "rank 1: the command line is '" + run + " -gamenumber 1 10', but on rank 0 it is '" + run + "'"));
  CHECK(!fs::exists(dirs.root / "a" / "out.pgn"));
  // the same query file name, another query in it
  std::ofstream(dirs.root / "b" / "q.cql") << "cql() mate\n";
  r = two_ranks(dirs, run, run);
  INFO(r.out);
  CHECK(r.exit_code != 0);
  CHECK(has(r.out, "rank 1: q.cql is '11 bytes"));
  CHECK(!fs::exists(dirs.root / "a" / "out.pgn"));
}
