// The reader: file mapping, sequential and parallel iteration in file order.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <atomic>
#include <cstdio>
#include <new>
#include <thread>

#include "pgn_test_util.h"
#include "support/shared_data.h"

using namespace cqlindex;

namespace {

struct Seen {
  uint64_t number, offset, length;
  uint32_t plies;
  std::string san;
};

std::vector<Seen> read_parallel(std::string_view text, unsigned threads, size_t batch, bool mainline_only = false) {
  std::vector<Seen> seen;
  std::atomic<unsigned> max_worker{0};
  pgn::ReadOptions opt;
  opt.threads = threads;
  opt.batch_games = batch;
  opt.parse.mainline_only = mainline_only;
  std::function<std::string(const pgn::Game&, unsigned)> work = [&](const pgn::Game& g, unsigned worker) {
    unsigned m = max_worker.load();
    while (worker > m && !max_worker.compare_exchange_weak(m, worker)) {
    }
    return pgntest::mainline_san(g);  // (no Catch assertions on worker threads: Catch is not thread-safe)
  };
  std::function<bool(const pgn::GameInfo&, std::string&&)> deliver = [&](const pgn::GameInfo& info, std::string&& san) {
    seen.push_back({info.number, info.offset, info.length, info.plies, std::move(san)});
    return true;
  };
  pgn::for_each_game<std::string>(text, opt, work, deliver);
  CHECK(max_worker.load() < std::max(1u, threads));
  return seen;
}

}  // namespace

TEST_CASE("reader: parallel reading delivers the same games in file order", "[pgn][reader]") {
  const std::string text = pgntest::slurp(pgntest::data_path("gnuchess-book/book_1.02.small-1005.pgn"));
  auto one = read_parallel(text, 1, 64);
  REQUIRE(one.size() == 1005);
  uint64_t plies = 0;
  for (size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].number == i + 1);
    if (i) CHECK(one[i].offset == one[i - 1].offset + one[i - 1].length);
    plies += one[i].plies;
  }
  CHECK(plies == 74874);  // the SAN tokens of the file, counted by a regex outside this code
  for (unsigned threads : {2u, 3u, 4u})
    for (size_t batch : {1u, 7u, 64u}) {
      CAPTURE(threads, batch);
      auto many = read_parallel(text, threads, batch);
      REQUIRE(many.size() == one.size());
      bool same = true;
      for (size_t i = 0; i < one.size(); ++i)
        same = same && many[i].number == one[i].number && many[i].offset == one[i].offset &&
               many[i].san == one[i].san && many[i].plies == one[i].plies;
      CHECK(same);
    }
}

TEST_CASE("reader: the in-order callback can stop the run", "[pgn][reader]") {
  const std::string text = pgntest::slurp(pgntest::data_path("gnuchess-book/book_1.02.small-1005.pgn"));
  for (unsigned threads : {1u, 2u}) {
    pgn::ReadOptions opt;
    opt.threads = threads;
    opt.batch_games = 5;
    uint64_t last = 0;
    std::function<int(const pgn::Game&, unsigned)> work = [](const pgn::Game&, unsigned) { return 0; };
    std::function<bool(const pgn::GameInfo&, int&&)> deliver = [&](const pgn::GameInfo& info, int&&) {
      last = info.number;
      return info.number < 100;
    };
    auto stats = pgn::for_each_game<int>(text, opt, work, deliver);
    CHECK(last == 100);
    CHECK(stats.games == 100);
  }
}

TEST_CASE("reader: statistics count errors, warnings, skipped games and plies", "[pgn][reader]") {
  std::string text =
      "[Event \"ok\"]\n1. e4 e5 *\n\n[Event \"bad\"]\n1. e4 Ke7 e5 *\n\n[Event \"zh\"]\n[Variant \"crazyhouse\"]\n1. e4 *\n\n"
      "[Event \"warn\"]\n[White \"\"X\"\"]\n1. d4 *\n";
  for (unsigned threads : {1u, 2u}) {
    pgn::ReadOptions opt;
    opt.threads = threads;
    std::function<int(const pgn::Game&, unsigned)> work = [](const pgn::Game&, unsigned) { return 0; };
    std::function<bool(const pgn::GameInfo&, int&&)> deliver = [](const pgn::GameInfo&, int&&) { return true; };
    auto stats = pgn::for_each_game<int>(text, opt, work, deliver);
    CHECK(stats.games == 4);
    CHECK(stats.errors == 1);
    CHECK(stats.warnings == 1);
    CHECK(stats.skipped == 1);
    CHECK(stats.plies == 2 + 1 + 0 + 1);
  }
}

TEST_CASE("reader: mainline-only parallel reading gives the same mainlines", "[pgn][reader]") {
  const std::string text = pgntest::slurp(pgntest::data_path("studies/cql-sample.pgn"));
  auto full = read_parallel(text, 1, 64);
  auto fast = read_parallel(text, 2, 16, true);
  REQUIRE(full.size() == fast.size());
  for (size_t i = 0; i < full.size(); ++i) CHECK(full[i].san == fast[i].san);
}

TEST_CASE("reader: PgnFile maps files and reports what cannot be opened", "[pgn][reader]") {
  std::string err;
  auto f = pgn::PgnFile::open(pgntest::data_path("gnuchess-book/book_1.02.small-1005.pgn"), &err);
  REQUIRE(f);
  CHECK(f->text() == pgntest::slurp(pgntest::data_path("gnuchess-book/book_1.02.small-1005.pgn")));

  CHECK_FALSE(pgn::PgnFile::open("/nonexistent/x.pgn", &err));
  CHECK(err.find("/nonexistent/x.pgn") != std::string::npos);
  CHECK_FALSE(pgn::PgnFile::open(cqlindex::test::shared_data(""), &err));

  auto empty = pgn::PgnFile::open(pgntest::data_path("pgn-edge-cases/kokopu/pgns/empty/database.pgn"), &err);
  REQUIRE(empty);
  CHECK(empty->text().empty());
}

TEST_CASE("reader: PgnFile reads a pipe (no mmap)", "[pgn][reader]") {
  char dir[] = "/tmp/cqlindex-fifo-XXXXXX";
  REQUIRE(mkdtemp(dir));
  std::string fifo = std::string(dir) + "/in.pgn";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string content = "[Event \"pipe\"]\n\n1. e4 e5 1-0\n";
  std::thread writer([&] {
    FILE* w = std::fopen(fifo.c_str(), "wb");
    if (w) {
      std::fwrite(content.data(), 1, content.size(), w);
      std::fclose(w);
    }
  });
  std::string err;
  auto f = pgn::PgnFile::open(fifo, &err);
  writer.join();
  REQUIRE(f);
  CHECK(f->text() == content);
  auto games = pgntest::read_all(f->text());
  REQUIRE(games.size() == 1);
  CHECK(games[0].mainline_san == "e4 e5");
  unlink(fifo.c_str());
  rmdir(dir);
}

TEST_CASE("reader: columns of a game that starts mid-line count from the line start", "[pgn][reader]") {
  auto games = pgntest::read_all("1. e4 e5 1-0 1. d4 Kd5 0-1\n[Event \"x\"]\n1. Ke3 *");
  REQUIRE(games.size() == 3);
  REQUIRE(games[1].errors.size() == 1);
  CHECK(games[1].errors[0].line == 1);
  CHECK(games[1].errors[0].col == 20);
  CHECK(games[1].errors[0].game == 2);
  REQUIRE(games[2].errors.size() == 1);
  CHECK(games[2].errors[0].line == 3);
  CHECK(games[2].errors[0].col == 4);
}

TEST_CASE("reader: for_each_game takes lambdas directly", "[pgn][reader]") {
  const std::string text = "[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 d5 *\n";
  pgn::ReadOptions opt;
  opt.threads = 2;
  std::vector<uint32_t> plies;
  auto stats = pgn::for_each_game<uint32_t>(
      text, opt, [](const pgn::Game& g, unsigned) { return g.mainline_plies(); },
      [&](const pgn::GameInfo& info, uint32_t&& n) {
        CHECK(info.plies == n);
        plies.push_back(n);
        return true;
      });
  CHECK(plies == std::vector<uint32_t>{1, 2});
  CHECK(stats.plies == 3);
}

TEST_CASE("reader: an exception of a worker or of the delivery leaves for_each_game after every thread stopped",
          "[pgn][reader]") {
  // (a thread left running while the exception leaves would end the process through std::terminate)
  const std::string text = pgntest::slurp(pgntest::data_path("gnuchess-book/book_1.02.small-1005.pgn"));
  for (unsigned threads : {1u, 2u, 4u})
    for (bool in_worker : {true, false}) {
      CAPTURE(threads, in_worker);
      pgn::ReadOptions opt;
      opt.threads = threads;
      opt.batch_games = 5;
      uint64_t delivered = 0;
      std::function<int(const pgn::Game&, unsigned)> work = [&](const pgn::Game& g, unsigned) {
        if (in_worker && g.number == 300) throw std::bad_alloc();
        return 0;
      };
      std::function<bool(const pgn::GameInfo&, int&&)> deliver = [&](const pgn::GameInfo& info, int&&) {
        if (!in_worker && info.number == 300) throw std::bad_alloc();
        ++delivered;
        return true;
      };
      CHECK_THROWS_AS(pgn::for_each_game<int>(text, opt, work, deliver), std::bad_alloc);
      CHECK(delivered < 300);
    }
}
