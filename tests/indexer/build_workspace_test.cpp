// What a build may replace or remove: only index folders it built and its own stale temporary folders; and a
// rebuild swaps the index so that a reader opening it meanwhile sees one whole generation.
#include <atomic>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "indexer/build_workspace.h"
#include "indexer/index_builder.h"
#include "indexer/index_location.h"
#include "store/index_store.h"
#include "support/shared_data.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

// Returns the path of gnuchess-book/book_1.02.small-1005.pgn (a test fails, naming it, when it is missing).
std::string book_pgn() { return cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn"); }

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("cqlindex-workspace-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool build(const std::string& pgn, const std::string& dir, std::string* error) {
  indexer::BuildOptions options;
  options.threads = 1;
  options.index_dir = dir;
  return indexer::build_index(pgn, options, nullptr, error);
}

}  // namespace

TEST_CASE("build never replaces a folder or file that is not an index it built", "[indexer][safety]") {
  TempDir tmp;
  const fs::path sub = tmp.path / "sub";
  fs::create_directories(sub);
  const fs::path pgn = sub / "g.pgn";
  fs::copy_file(book_pgn(), pgn);
  const fs::path work = tmp.path / "mywork";
  fs::create_directories(work);
  write_file(work / "thesis.txt", "years of work");
  std::string error;

  // a folder of the user's
  CHECK_FALSE(build(pgn.string(), work.string(), &error));
  CHECK(error.find("not an index built by cqlindex") != std::string::npos);
  CHECK(read_file(work / "thesis.txt") == "years of work");
  // the PGN itself
  CHECK_FALSE(build(pgn.string(), pgn.string(), &error));
  CHECK(error.find("not a folder") != std::string::npos);
  CHECK(fs::file_size(pgn) == fs::file_size(book_pgn()));
  // the PGN's folder (with and without a trailing slash)
  CHECK_FALSE(build(pgn.string(), sub.string(), &error));
  CHECK_FALSE(build(pgn.string(), sub.string() + "/", &error));
  CHECK(fs::file_size(pgn) == fs::file_size(book_pgn()));
  // the default place taken by a file
  write_file(indexer::default_index_dir(pgn.string()), "not an index");
  CHECK_FALSE(build(pgn.string(), "", &error));
  CHECK(read_file(indexer::default_index_dir(pgn.string())) == "not an index");
  fs::remove(indexer::default_index_dir(pgn.string()));

  // an index it built is replaced, and is recognised by its marker
  const fs::path index = tmp.path / "index";
  REQUIRE(build(pgn.string(), index.string(), &error));
  CHECK(fs::exists(index / indexer::kIndexMarkerName));
  CHECK(indexer::is_index_folder(index.string()));
  REQUIRE(build(pgn.string(), index.string(), &error));
  // but not when the PGN is inside it
  fs::copy_file(book_pgn(), index / "inside.pgn");
  CHECK_FALSE(build((index / "inside.pgn").string(), index.string(), &error));
  CHECK(error.find("holds") != std::string::npos);
  CHECK(fs::exists(index / "inside.pgn"));
  // nothing left behind by the refusals
  for (const auto& entry : fs::directory_iterator(tmp.path))
    CHECK(entry.path().filename().string().find(".cqlindex-build-") == std::string::npos);
}

TEST_CASE("build removes the stale temporary folders of killed builds, and only those", "[indexer][safety]") {
  TempDir tmp;
  const fs::path pgn = tmp.path / "g.pgn";
  fs::copy_file(book_pgn(), pgn);
  const std::string dir = indexer::default_index_dir(pgn.string());
  // a killed build's workspace: our name, our lock file, nobody holds the lock
  const fs::path stale = dir + ".cqlindex-build-AAAAAA";
  fs::create_directories(stale / "index");
  write_file(stale / "CQLINDEX-BUILD-LOCK", "");
  write_file(stale / "index" / "000001.sst", std::string(100000, 'x'));
  // a running build's workspace: its lock is held
  const fs::path live = dir + ".cqlindex-build-BBBBBB";
  fs::create_directories(live);
  write_file(live / "CQLINDEX-BUILD-LOCK", "");
  const int fd = ::open((live / "CQLINDEX-BUILD-LOCK").c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);
  // a folder of the user's that only looks like one (no lock file)
  const fs::path foreign = dir + ".cqlindex-build-CCCCCC";
  fs::create_directories(foreign);
  write_file(foreign / "notes.txt", "mine");

  std::string error;
  REQUIRE(build(pgn.string(), "", &error));
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(live / "CQLINDEX-BUILD-LOCK"));
  CHECK(read_file(foreign / "notes.txt") == "mine");
  ::close(fd);  // the "running" build ends without cleaning up: the next build removes its folder
  REQUIRE(build(pgn.string(), "", &error));
  CHECK_FALSE(fs::exists(live));
  CHECK(fs::exists(foreign));
}

TEST_CASE("a reader opening the index while it is rebuilt again and again always sees a whole index",
          "[indexer][safety]") {
  TempDir tmp;
  const fs::path pgn = tmp.path / "g.pgn";
  const std::string text = read_file(book_pgn());
  write_file(pgn, text.substr(0, text.find("[Event ", text.size() / 8)));
  const std::string dir = indexer::default_index_dir(pgn.string());
  std::string error;
  REQUIRE(build(pgn.string(), "", &error));
  auto first = store::IndexStore::open_for_reading(dir, &error);
  REQUIRE(first);
  const uint32_t games = first->meta().game_count;
  first.reset();

  std::atomic<bool> done{false};
  std::atomic<int> builds{0}, build_failures{0};
  std::thread builder([&] {
    std::string why;
    for (int i = 0; i < 12; ++i) {
      if (build(pgn.string(), "", &why)) ++builds;
      else ++build_failures;
    }
    done = true;
  });
  int opens = 0, failures = 0;
  std::string failure;
  while (!done) {
    std::string why;
    auto index = indexer::open_index_for_reading(dir, &why);
    ++opens;
    if (!index || index->meta().game_count != games || !index->game(games - 1, &why)) {
      ++failures;
      failure = why;
    }
  }
  builder.join();
  INFO(opens << " opens, the last failure: " << failure);
  CHECK(builds == 12);
  CHECK(build_failures == 0);
  CHECK(opens > 12);
  CHECK(failures == 0);
  for (const auto& entry : fs::directory_iterator(tmp.path))
    CHECK(entry.path().filename().string().find(".cqlindex-build-") == std::string::npos);
}
