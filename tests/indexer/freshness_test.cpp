// Freshness in constant time (issue 20): stat facts and sampled blocks on every open, the whole indexed prefix
// when the time stamp or the file changed; what the cheap check misses and `verify` / `build --append` catch.
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "indexer/index_builder.h"
#include "indexer/index_location.h"
#include "store/content_fingerprint.h"
#include "store/index_store.h"
#include "support/process.h"
#include "support/shared_data.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

// Returns the path of gnuchess-book/book_1.02.small-1005.pgn (a test fails, naming it, when it is missing).
std::string sample_pgn() { return cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn"); }

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("cqlindex-fresh-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Overwrites byte `offset` of `path` in place (same inode, same size; the mtime moves on).
void poke(const std::string& path, uint64_t offset, char c) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(std::streamoff(offset));
  f.put(c);
}

// Sets the mtime of `path` (nanoseconds since the epoch), as `touch -d` or `touch -r` would.
void set_mtime(const std::string& path, int64_t ns) {
  timespec times[2] = {{0, UTIME_OMIT}, {time_t(ns / 1'000'000'000), long(ns % 1'000'000'000)}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

// Returns a byte offset of the PGN (of `size` bytes) that no sampled block covers, on a move's letter.
uint64_t unsampled_offset(const std::string& text) {
  const auto ranges = store::sampled_ranges(text.size());
  for (uint64_t at = text.size() / 3;; ++at) {
    bool sampled = false;
    for (const auto& [offset, length] : ranges) sampled |= at >= offset && at < offset + length;
    if (!sampled && text[at] == 'e' && text[at - 1] == ' ') return at;  // "e4": the pawn move becomes "d4"
  }
}

store::IndexMeta build_and_read_meta(const std::string& pgn) {
  std::string error;
  indexer::BuildOptions options;
  options.threads = 2;
  INFO(error);
  REQUIRE(indexer::build_index(pgn, options, nullptr, &error));
  auto store = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  REQUIRE(store);
  return store->meta();
}

}  // namespace

TEST_CASE("the sampled blocks: first and last 64 KiB and 14 inner pages, inside the prefix", "[indexer][fresh]") {
  for (uint64_t size : {0ull, 1ull, 5000ull, 200'000ull, 6'000'000'000ull}) {
    INFO(size);
    const auto ranges = store::sampled_ranges(size);
    REQUIRE(ranges.size() == 16);
    uint64_t bytes = 0;
    for (const auto& [offset, length] : ranges) {
      CHECK(offset + length <= size);
      bytes += length;
    }
    CHECK(bytes <= 184 * 1024);
    CHECK(ranges.front() == std::make_pair(uint64_t(0), std::min<uint64_t>(size, 65536)));
    CHECK(ranges.back().first + ranges.back().second == size);
  }
}

TEST_CASE("an untouched PGN is fresh from its identity and samples, without reading it whole", "[indexer][fresh]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  fs::copy_file(sample_pgn(), pgn);
  const store::IndexMeta meta = build_and_read_meta(pgn);
  CHECK(meta.pgn_size == fs::file_size(pgn));
  CHECK(meta.pgn_inode != 0);
  std::string error;
  indexer::FreshnessEvidence evidence{};
  CHECK(indexer::check_freshness(meta, pgn, &error, &evidence) == indexer::Freshness::Fresh);
  CHECK(evidence == indexer::FreshnessEvidence::Identity);

  SECTION("touched: the same bytes under another time stamp are read whole, and fresh") {
    set_mtime(pgn, meta.pgn_mtime_ns + 5'000'000'000);
    CHECK(indexer::check_freshness(meta, pgn, &error, &evidence) == indexer::Freshness::Fresh);
    CHECK(evidence == indexer::FreshnessEvidence::WholeRead);
  }
  SECTION("copied over (another inode, the time stamp kept): read whole, and fresh") {
    const std::string copy = (tmp.path / "copy.pgn").string();
    fs::copy_file(pgn, copy);
    fs::rename(copy, pgn);
    set_mtime(pgn, meta.pgn_mtime_ns);
    CHECK(indexer::check_freshness(meta, pgn, &error, &evidence) == indexer::Freshness::Fresh);
    CHECK(evidence == indexer::FreshnessEvidence::WholeRead);
  }
  SECTION("a same-size edit between the samples (the time stamp moves on): stale") {
    const std::string text = read_file(pgn);
    poke(pgn, unsampled_offset(text), 'd');
    CHECK(indexer::check_freshness(meta, pgn, &error, &evidence) == indexer::Freshness::Stale);
  }
  SECTION("a same-size edit in a sampled block, even with the time stamp restored: stale") {
    poke(pgn, 100, read_file(pgn)[100] == 'a' ? 'b' : 'a');
    set_mtime(pgn, meta.pgn_mtime_ns);
    CHECK(indexer::check_freshness(meta, pgn, &error, &evidence) == indexer::Freshness::Stale);
    CHECK(evidence == indexer::FreshnessEvidence::Refused);
  }
  SECTION("what the cheap check misses (same size, time stamp restored, between the samples), verify catches") {
    const std::string text = read_file(pgn);
    poke(pgn, unsampled_offset(text), 'd');
    set_mtime(pgn, meta.pgn_mtime_ns);
    // Documented in store/README.md ("Freshness"): constant time cannot see this edit.
    CHECK(indexer::check_freshness(meta, pgn, &error, &evidence) == indexer::Freshness::Fresh);
    CHECK(indexer::check_freshness_in_full(meta, pgn, &error) == indexer::Freshness::Stale);
    auto r = test::run_process(test::shell_quote(CQLINDEX_BINARY) + " verify " + test::shell_quote(pgn) + " 2>&1");
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("has changed since it was indexed") != std::string::npos);
  }
  SECTION("shorter: stale") {
    fs::resize_file(pgn, meta.pgn_size - 1);
    CHECK(indexer::check_freshness(meta, pgn, &error) == indexer::Freshness::Stale);
  }
}

TEST_CASE("appended: the samples of the indexed prefix agree, and build --append checks that prefix whole", "[indexer][fresh]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  fs::copy_file(sample_pgn(), pgn);
  const store::IndexMeta meta = build_and_read_meta(pgn);
  const std::string text = read_file(pgn);
  std::ofstream(pgn, std::ios::app | std::ios::binary) << "\n[Event \"appended\"]\n[Result \"*\"]\n\n1.e4 *\n";
  std::string error;
  CHECK(indexer::check_freshness(meta, pgn, &error) == indexer::Freshness::Appended);
  CHECK(indexer::check_freshness_in_full(meta, pgn, &error) == indexer::Freshness::Appended);

  // An edit of the indexed prefix between the samples: a query still calls it appended (it refuses the index
  // either way), but build --append reads the prefix whole and refuses to extend it.
  poke(pgn, unsampled_offset(text), 'd');
  CHECK(indexer::check_freshness(meta, pgn, &error) == indexer::Freshness::Appended);
  CHECK(indexer::check_freshness_in_full(meta, pgn, &error) == indexer::Freshness::Stale);
  indexer::BuildOptions options;
  options.append = true;
  REQUIRE_FALSE(indexer::build_index(pgn, options, nullptr, &error));
  CHECK(error.find("has changed, not only grown") != std::string::npos);
}

TEST_CASE("build --append with nothing appended records a new time stamp: opens are constant again", "[indexer][fresh]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  fs::copy_file(sample_pgn(), pgn);
  const store::IndexMeta before = build_and_read_meta(pgn);
  set_mtime(pgn, before.pgn_mtime_ns - 7'000'000'000);
  std::string error;
  indexer::FreshnessEvidence evidence{};
  CHECK(indexer::check_freshness(before, pgn, &error, &evidence) == indexer::Freshness::Fresh);
  CHECK(evidence == indexer::FreshnessEvidence::WholeRead);
  // A query says so, and how to make it constant again.
  const std::string query = (tmp.path / "q.cql").string();
  std::ofstream(query) << "cql() mate\n";
  auto r = test::run_process(test::shell_quote(CQLINDEX_BINARY) + " run " + test::shell_quote(query) + " -i " +
                             test::shell_quote(pgn) + " -o " + test::shell_quote((tmp.path / "out.pgn").string()) +
                             " 2>&1");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("note: " + pgn + " was touched") != std::string::npos);
  CHECK(r.out.find("cqlindex build --append " + pgn) != std::string::npos);

  indexer::BuildOptions options;
  options.append = true;
  indexer::BuildSummary summary;
  REQUIRE(indexer::build_index(pgn, options, &summary, &error));
  CHECK(summary.new_games == 0);
  auto store = store::IndexStore::open_for_reading(indexer::default_index_dir(pgn), &error);
  REQUIRE(store);
  CHECK(store->meta().pgn_mtime_ns == before.pgn_mtime_ns - 7'000'000'000);
  CHECK(store->meta().game_count == before.game_count);
  CHECK(indexer::check_freshness(store->meta(), pgn, &error, &evidence) == indexer::Freshness::Fresh);
  CHECK(evidence == indexer::FreshnessEvidence::Identity);
}

TEST_CASE("a PGN rewritten right after its build gets another time stamp: the build waits out the clock's tick",
          "[indexer][fresh]") {
  TempDir tmp;
  const std::string pgn = (tmp.path / "games.pgn").string();
  std::string text = read_file(sample_pgn());
  std::ofstream(pgn, std::ios::binary) << text;  // written, then indexed at once
  const store::IndexMeta meta = build_and_read_meta(pgn);
  poke(pgn, unsampled_offset(text), 'd');  // and edited in place at once
  std::string error;
  CHECK(indexer::check_freshness(meta, pgn, &error) == indexer::Freshness::Stale);
}
