// `cqlindex check`: summary line, error lines, --fen output and exit codes, run as a process.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>

#include "pgn_test_util.h"

namespace {

struct Run {
  int code = -1;
  std::string out, err;
};

// Runs `cqlindex ARGS` with stdout and stderr captured.
Run run(const std::string& args, const std::string& pipe_from = "") {
  char err_path[] = "/tmp/cqlindex-check-err-XXXXXX";
  int fd = mkstemp(err_path);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string cmd = (pipe_from.empty() ? "" : "cat '" + pipe_from + "' | ") + std::string(CQLINDEX_BINARY) + " " +
                          args + " 2>" + err_path;
  Run r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[1 << 16];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, k);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = pgntest::slurp(err_path);
  unlink(err_path);
  return r;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string temp_pgn(const std::string& content) {
  char path[] = "/tmp/cqlindex-check-XXXXXX.pgn";
  int fd = mkstemps(path, 4);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, content.data(), content.size()) == ssize_t(content.size()));
  close(fd);
  return path;
}

size_t count_lines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("check: summary of a clean file", "[pgn][cli]") {
  const std::string f = pgntest::data_path("gnuchess-book/book_1.02.small-1005.pgn");
  Run r = run("check " + quote(f));
  CHECK(r.code == 0);
  CHECK(r.out == f + ": 1005 games, 0 errors, 0 warnings, 0 skipped, 74874 plies\n");
  CHECK(r.err.empty());
}

TEST_CASE("check --fen: one line per mainline position, identical for any thread count", "[pgn][cli]") {
  const std::string f = pgntest::data_path("gnuchess-book/book_1.02.small-1005.pgn");
  Run one = run("check --fen --threads 1 " + quote(f));
  Run two = run("check " + quote(f) + " --fen --threads 2");
  CHECK(one.code == 0);
  CHECK(count_lines(one.out) == 1005 + 74874);
  CHECK(one.out.rfind("1\t0\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                      "1\t1\trnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
                      0) == 0);
  CHECK(one.out == two.out);
  CHECK(one.err == f + ": 1005 games, 0 errors, 0 warnings, 0 skipped, 74874 plies\n");
  CHECK(one.out.find("\n1005\t0\t") != std::string::npos);
}

TEST_CASE("check --fen: en-passant square only when the capture is legal", "[pgn][cli]") {
  const std::string f = temp_pgn("[Event \"ep\"]\n\n1. e4 d5 2. e5 f5 3. h3 *\n");
  Run r = run("check --fen " + quote(f));
  CHECK(r.code == 0);
  CHECK(r.out ==
        "1\t0\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        "1\t1\trnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
        "1\t2\trnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n"
        "1\t3\trnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2\n"
        "1\t4\trnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3\n"
        "1\t5\trnbqkbnr/ppp1p1pp/8/3pPp2/8/7P/PPPP1PP1/RNBQKBNR b KQkq - 0 3\n");
  unlink(f.c_str());
}

TEST_CASE("check: errors on stderr, games kept to their last legal move, variants without positions",
          "[pgn][cli]") {
  const std::string f = pgntest::data_path("pgn-edge-cases/kokopu/pgns/semantic-error/database.pgn");
  Run r = run("check --fen " + quote(f));
  CHECK(r.code == 0);
  CHECK(r.err ==
        f + ":3:4: game 1: illegal move 'e5' at 1.\n" +
        f + ":8:7: game 2: illegal move 'Nf3' at 1...\n" +
        f + ":13:1: game 3: invalid FEN tag: bad character 'S' in FEN board\n" +
        f + ":19:1: game 4: skipped: chess variant 'Something invalid' is not supported\n" +
        f + ":37:4: game 6: illegal move 'O-O' at 1.\n" +
        f + ":42:18: game 7: illegal move '--' at 2...\n" +
        f + ": 7 games, 5 errors, 0 warnings, 1 skipped, 4 plies\n");
  // Game 1: the start only; game 2: start and 1. e4; game 3 (bad FEN) and 4 (variant): nothing.
  CHECK(r.out.rfind("1\t0\t", 0) == 0);
  CHECK(r.out.find("\n2\t1\trnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n") != std::string::npos);
  CHECK(r.out.find("\n3\t") == std::string::npos);
  CHECK(r.out.find("\n4\t") == std::string::npos);
  CHECK(r.out.find("\n7\t3\t") != std::string::npos);
  CHECK(r.out.find("\n7\t4\t") == std::string::npos);
}

TEST_CASE("check: the unescaped quotes of mate_in_3.pgn are warnings", "[pgn][cli]") {
  const std::string f = pgntest::data_path("problems/mate-in-n-from-games/mate_in_3.pgn");
  Run r = run("check " + quote(f));
  CHECK(r.code == 0);
  CHECK(r.out == f + ": 375 games, 0 errors, 3 warnings, 0 skipped, 1875 plies\n");
  CHECK(r.err.rfind(f + ":2861:9: game 205: warning: unescaped '\"' in the value of tag White", 0) == 0);
  CHECK(count_lines(r.err) == 3);
}

TEST_CASE("check: exit codes", "[pgn][cli]") {
  CHECK(run("check /nonexistent/file.pgn").code == 2);
  CHECK(run("check " + quote(pgntest::data_path("pgn-edge-cases/kokopu/pgns/syntactic-error-2/database.pgn"))).code ==
        2);
  CHECK(run("check " + quote(pgntest::data_path("pgn-edge-cases/pychess/badpgn.pgn"))).code == 2);
  Run empty = run("check " + quote(pgntest::data_path("pgn-edge-cases/kokopu/pgns/empty/database.pgn")));
  CHECK(empty.code == 0);
  CHECK(empty.out.find(": 0 games, 0 errors, 0 warnings, 0 skipped, 0 plies\n") != std::string::npos);
  CHECK(run("check").code == 1);
  CHECK(run("check --no-such-flag x.pgn").code == 1);
  CHECK(run("check --help").code == 0);
  // Bad games do not make the file unreadable.
  CHECK(run("check " + quote(pgntest::data_path("pgn-edge-cases/kokopu/pgns/syntactic-error-1/database.pgn"))).code ==
        0);
}

TEST_CASE("check: reads from a pipe", "[pgn][cli]") {
  Run r = run("check /dev/stdin", pgntest::data_path("pgn-edge-cases/pychess/mate.pgn"));
  CHECK(r.code == 0);
  CHECK(r.out == "/dev/stdin: 1 games, 0 errors, 0 warnings, 0 skipped, 4 plies\n");
  Run dash = run("check -", pgntest::data_path("pgn-edge-cases/pychess/mate.pgn"));
  CHECK(dash.code == 0);
  CHECK(dash.out == "-: 1 games, 0 errors, 0 warnings, 0 skipped, 4 plies\n");
}
