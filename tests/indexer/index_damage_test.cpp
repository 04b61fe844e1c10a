// A damaged index at query time (issue 20): no open hashes every file any more, so damage inside a table's data
// blocks is met by the read that needs the block. The query that meets it stops (exit 2, a message naming the
// file); a query that does not read it answers as --no-index does; `cqlindex verify` names the file.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/table_properties.h>

#include "indexer/index_builder.h"
#include "indexer/index_location.h"
#include "support/process.h"
#include "support/shared_data.h"

using namespace cqlindex;
using test::shell_quote;
namespace fs = std::filesystem;

namespace {

// Returns the path of gnuchess-book/book_1.02.small-1005.pgn (a test fails, naming it, when it is missing).
std::string sample_pgn() { return cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn"); }

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("cqlindex-damage-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Flips a byte every 64 bytes of the data blocks (which come first in an SST file) of every table of `family`;
// returns the files damaged.
std::vector<fs::path> damage_family(const fs::path& index_dir, const std::string& family) {
  std::vector<fs::path> damaged;
  for (const auto& entry : fs::directory_iterator(index_dir)) {
    if (entry.path().extension() != ".sst") continue;
    rocksdb::Options options;
    rocksdb::SstFileReader reader(options);
    REQUIRE(reader.Open(entry.path().string()).ok());
    auto props = reader.GetTableProperties();
    if (props->column_family_name != family) continue;
    std::string bytes = read_file(entry.path());
    for (uint64_t at = 0; at < props->data_size; at += 64) bytes[at] = char(bytes[at] ^ 0x20);
    std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << bytes;  // same size
    damaged.push_back(entry.path());
  }
  return damaged;
}

struct Run {
  int exit_code;
  std::string out, err;
};

// Runs cqlindex with `args` in `dir`.
Run run_cqlindex(const fs::path& dir, const std::string& args) {
  const fs::path err = dir / "stderr.txt";
  auto r = test::run_process("cd " + shell_quote(dir.string()) + " && " + shell_quote(CQLINDEX_BINARY) + " " + args +
                             " 2>" + shell_quote(err.string()));
  return {r.exit_code, r.out, read_file(err)};
}

}  // namespace

TEST_CASE("damaged data blocks: the query reading them stops, the others answer right, verify names the file",
          "[indexer][damage]") {
  TempDir tmp;
  fs::copy_file(sample_pgn(), tmp.path / "games.pgn");
  std::ofstream(tmp.path / "player.cql") << "cql() player \"Timman\"\n";
  std::ofstream(tmp.path / "mate.cql") << "cql() mate\n";
  REQUIRE(run_cqlindex(tmp.path, "build games.pgn").exit_code == 0);
  for (const char* q : {"player", "mate"}) {
    INFO(q);
    const std::string query = std::string(q) + ".cql -i games.pgn -o ";
    REQUIRE(run_cqlindex(tmp.path, "run " + query + q + "-scan.pgn --no-index").exit_code == 0);
    REQUIRE(run_cqlindex(tmp.path, "run " + query + q + "-indexed.pgn").exit_code == 0);
    REQUIRE(read_file(tmp.path / (std::string(q) + "-scan.pgn")) == read_file(tmp.path / (std::string(q) + "-indexed.pgn")));
  }
  Run clean = run_cqlindex(tmp.path, "verify games.pgn");
  CHECK(clean.exit_code == 0);
  CHECK(clean.err.empty());
  CHECK(clean.out.find("checked: ") != std::string::npos);
  CHECK(clean.out.find("VerifyFileChecksums") != std::string::npos);
  CHECK(clean.out.find("VerifyChecksum)") != std::string::npos);
  CHECK(clean.out.find("games.pgn: XXH3-64 of its ") != std::string::npos);
  CHECK(clean.out.find("verified: ") != std::string::npos);

  // The tags family: `player` reads it (the planner's tag rule), `mate` does not (flags and games).
  const auto damaged = damage_family(tmp.path / "games.pgn.cqlidx", "tags");
  REQUIRE(!damaged.empty());

  Run player = run_cqlindex(tmp.path, "run player.cql -i games.pgn -o player-damaged.pgn");
  CHECK(player.exit_code == 2);
  CHECK(player.err.find("cqlindex run: index games.pgn.cqlidx is damaged: ") == 0);
  bool named = false;  // the read names the table it met
  for (const fs::path& file : damaged) named |= player.err.find(file.filename().string()) != std::string::npos;
  CHECK(named);
  CHECK(player.err.find("cqlindex verify games.pgn") != std::string::npos);

  Run mate = run_cqlindex(tmp.path, "run mate.cql -i games.pgn -o mate-damaged.pgn");
  CHECK(mate.exit_code == 0);
  CHECK(read_file(tmp.path / "mate-damaged.pgn") == read_file(tmp.path / "mate-scan.pgn"));

  Run verify = run_cqlindex(tmp.path, "verify games.pgn");
  CHECK(verify.exit_code == 2);
  for (const fs::path& file : damaged) CHECK(verify.err.find(file.filename().string()) != std::string::npos);
  CHECK(verify.err.find("is damaged; rebuild it with 'cqlindex build games.pgn'") != std::string::npos);
  CHECK(verify.out.find("verified: ") == std::string::npos);

  // --no-index still answers; a rebuild replaces the damaged index.
  CHECK(run_cqlindex(tmp.path, "run player.cql -i games.pgn -o p.pgn --no-index").exit_code == 0);
  REQUIRE(run_cqlindex(tmp.path, "build games.pgn").exit_code == 0);
  CHECK(run_cqlindex(tmp.path, "verify games.pgn").exit_code == 0);
}

TEST_CASE("damaged similar-family blocks: similar stops with exit 2 and a message, verify names the file",
          "[indexer][damage]") {
  TempDir tmp;
  std::ofstream(tmp.path / "repo.pgn", std::ios::binary) << read_file(sample_pgn());
  // One submission: the first game of the repository, whose positions the repository holds.
  const std::string sample = read_file(sample_pgn());
  std::ofstream(tmp.path / "sub.pgn", std::ios::binary) << sample.substr(0, sample.find("\n[Event ", 10) + 1);
  REQUIRE(run_cqlindex(tmp.path, "build repo.pgn").exit_code == 0);
  Run ok = run_cqlindex(tmp.path, "similar sub.pgn -i repo.pgn -o out.pgn");
  REQUIRE(ok.exit_code == 0);
  const auto damaged = damage_family(tmp.path / "repo.pgn.cqlidx", "similar");
  REQUIRE(!damaged.empty());
  Run similar = run_cqlindex(tmp.path, "similar sub.pgn -i repo.pgn -o out2.pgn");
  CHECK(similar.exit_code == 2);
  CHECK(similar.err.find("is damaged") != std::string::npos);
  bool named = false;  // the family has a table per key range: the search names the one it met
  for (const fs::path& file : damaged) named |= similar.err.find(file.filename().string()) != std::string::npos;
  CHECK(named);
  Run verify = run_cqlindex(tmp.path, "verify repo.pgn");
  CHECK(verify.exit_code == 2);
  for (const fs::path& file : damaged) CHECK(verify.err.find(file.filename().string()) != std::string::npos);
}
