// The worst a command can do (issue 15, "Faults and bad input"): destroy a file it was not asked to write, or
// report success when its output did not reach the disk. Run through the binary, as a user would.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/file.h>
#include <unistd.h>

#include "support/process.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using cqlindex::test::run_process;
using cqlindex::test::shell_quote;

namespace {

std::string book_pgn() { return cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn"); }
std::string olive_file() { return cqlindex::test::shared_data("problems/yacpdb-olive/Broodings-50.olv"); }

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("cqlindex-safety-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Runs `cqlindex ARGS` in `dir`, standard error joined to what the test reads (also when ARGS redirect the
// standard output).
cqlindex::test::ProcessResult cqlindex_in(const TempDir& dir, const std::string& args) {
  return run_process("cd " + shell_quote(dir.path.string()) + " && " + shell_quote(CQLINDEX_BINARY) + " 2>&1 " + args);
}

// The names in `dir` that contain `part`.
int entries_with(const fs::path& dir, const std::string& part) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().find(part) != std::string::npos) ++n;
  return n;
}

}  // namespace

TEST_CASE("build never deletes a folder or file that is not an index (exit 1 for --index, 2 by default)",
          "[cli][safety]") {
  TempDir tmp;
  fs::create_directories(tmp / "sub");
  fs::copy_file(book_pgn(), tmp / "g.pgn");
  fs::copy_file(book_pgn(), tmp / "sub/g.pgn");
  fs::create_directories(tmp / "mywork");
  write_file(tmp / "mywork/thesis.tex", "years of work");

  auto r = cqlindex_in(tmp, "build g.pgn --index mywork");
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("not an index built by cqlindex") != std::string::npos);
  CHECK(read_file(tmp / "mywork/thesis.tex") == "years of work");
  r = cqlindex_in(tmp, "build g.pgn --index g.pgn");
  CHECK(r.exit_code == 1);
  CHECK(read_file(tmp / "g.pgn") == read_file(book_pgn()));
  r = cqlindex_in(tmp, "build sub/g.pgn --index sub");
  CHECK(r.exit_code == 1);
  CHECK(read_file(tmp / "sub/g.pgn") == read_file(book_pgn()));
  r = cqlindex_in(tmp, "build g.pgn --index .");
  CHECK(r.exit_code == 1);
  CHECK(fs::exists(tmp / "g.pgn"));
  fs::create_directories(tmp / "g.pgn.cqlidx");  // the default place, taken by a folder of the user's
  write_file(tmp / "g.pgn.cqlidx/notes", "mine");
  r = cqlindex_in(tmp, "build g.pgn");
  CHECK(r.exit_code == 2);
  CHECK(read_file(tmp / "g.pgn.cqlidx/notes") == "mine");

  // A query naming that folder is not told to build into it.
  write_file(tmp / "q.cql", "cql() check\n");
  r = cqlindex_in(tmp, "run q.cql -i g.pgn -o out.pgn --index mywork");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("not an index built by cqlindex") != std::string::npos);
  CHECK(r.out.find("cqlindex build") == std::string::npos);

  // A real index is rebuilt in place, by name.
  CHECK(cqlindex_in(tmp, "build g.pgn --index idx").exit_code == 0);
  CHECK(cqlindex_in(tmp, "build g.pgn --index idx").exit_code == 0);
  CHECK(cqlindex_in(tmp, "run q.cql -i g.pgn -o out.pgn --index idx").exit_code == 0);
}

TEST_CASE("run, similar and yacpdb refuse an output that is an input, under any name (exit 1)", "[cli][safety]") {
  TempDir tmp;
  fs::copy_file(book_pgn(), tmp / "g.pgn");
  fs::create_directories(tmp / "sub");
  fs::create_symlink(tmp / "g.pgn", tmp / "link.pgn");
  fs::create_hard_link(tmp / "g.pgn", tmp / "hard.pgn");
  write_file(tmp / "q.cql", "cql() check\n");
  write_file(tmp / "both.cql", "cql(input g.pgn output g.pgn) check\n");
  const std::string original = read_file(book_pgn());
  for (const char* args : {"run q.cql -i g.pgn -o g.pgn", "run q.cql -i g.pgn -o ./sub/../g.pgn",
                                  "run q.cql -i g.pgn -o link.pgn", "run q.cql -i link.pgn -o g.pgn",
                                  "run q.cql -i g.pgn -o hard.pgn", "run q.cql -i g.pgn -o q.cql", "run both.cql",
                                  "similar g.pgn -i g.pgn -o g.pgn --no-index",
                                  "similar q.cql -i g.pgn -o link.pgn --no-index"}) {
    INFO(args);
    auto r = cqlindex_in(tmp, args);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("is the input") != std::string::npos);
    CHECK(r.out.find(" matches of ") == std::string::npos);
    CHECK(read_file(tmp / "g.pgn") == original);
  }
  CHECK(read_file(tmp / "q.cql") == "cql() check\n");
  fs::copy_file(olive_file(), tmp / "p.olv");
  const std::string problems = read_file(olive_file());
  auto r = cqlindex_in(tmp, "yacpdb 'Stip(\"h#2\")' -i p.olv -o p.olv --no-index");
  CHECK(r.exit_code == 1);
  CHECK(read_file(tmp / "p.olv") == problems);
}

TEST_CASE("a failed write of the output is an error: no success line, non-zero exit, no truncated file",
          "[cli][safety]") {
  TempDir tmp;
  fs::copy_file(book_pgn(), tmp / "g.pgn");
  fs::copy_file(olive_file(), tmp / "p.olv");
  write_file(tmp / "q.cql", "cql() check\n");
  const std::string book = read_file(book_pgn());
  write_file(tmp / "sub.pgn", book.substr(0, book.find("[Event ", 10)));
  for (const char* args : {"run q.cql -i g.pgn -o /dev/full --no-index", "run q.cql -i g.pgn -o /dev/full",
                                  "similar sub.pgn -i g.pgn -o /dev/full --no-index",
                                  "yacpdb 'Stip(\"h#2\")' -i p.olv -o /dev/full --no-index",
                                  "yacpdb 'Stip(\"h#2\")' -i p.olv --no-index > /dev/full",
                                  "check g.pgn --fen > /dev/full", "check g.pgn > /dev/full"}) {
    INFO(args);
    auto r = cqlindex_in(tmp, args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("No space left on device") != std::string::npos);
    CHECK(r.out.find(" matches of ") == std::string::npos);
  }
  // A file system that fills up: a file size limit (EFBIG) stands for it without root. The old output stays.
  write_file(tmp / "out.pgn", "OLD");
  auto r = run_process("cd " + shell_quote(tmp.path.string()) + " && trap '' XFSZ && ulimit -f 16 && " +
                       shell_quote(CQLINDEX_BINARY) + " run q.cql -i g.pgn -o out.pgn --no-index 2>&1");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("cannot write out.pgn: File too large") != std::string::npos);
  CHECK(r.out.find(" matches of ") == std::string::npos);
  CHECK(read_file(tmp / "out.pgn") == "OLD");
  CHECK(entries_with(tmp.path, "cqlindex-tmp") == 0);
  // The same output written whole when there is room, with the permissions the old file had.
  fs::permissions(tmp / "out.pgn", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  r = cqlindex_in(tmp, "run q.cql -i g.pgn -o out.pgn --no-index");
  CHECK(r.exit_code == 0);
  CHECK(read_file(tmp / "out.pgn").size() > 10000);
  CHECK(fs::status(tmp / "out.pgn").permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  // A symlinked output stays a link; its target gets the output.
  write_file(tmp / "target.pgn", "OLD");
  fs::create_symlink(tmp / "target.pgn", tmp / "out-link.pgn");
  CHECK(cqlindex_in(tmp, "run q.cql -i g.pgn -o out-link.pgn --no-index").exit_code == 0);
  CHECK(fs::is_symlink(tmp / "out-link.pgn"));
  CHECK(read_file(tmp / "target.pgn") == read_file(tmp / "out.pgn"));
  // Standard output named as the output file: written there directly.
  r = run_process("cd " + shell_quote(tmp.path.string()) + " && " + shell_quote(CQLINDEX_BINARY) +
                  " run q.cql -i g.pgn -o /dev/stdout --no-index 2>/dev/null");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("[Event ") != std::string::npos);
  CHECK(r.out.find(" matches of ") != std::string::npos);
}

TEST_CASE("a full file system (a small tmpfs, as root) fails the output cleanly", "[cli][safety]") {
  TempDir tmp;
  const std::string mount = tmp / "small";
  fs::create_directories(mount);
  if (::geteuid() != 0 || run_process("mount -t tmpfs -o size=64k tmpfs " + shell_quote(mount) + " 2>&1").exit_code) {
    WARN("skipped: mounting a small tmpfs needs root (and the right to mount)");
    return;
  }
  fs::copy_file(book_pgn(), tmp / "g.pgn");
  write_file(tmp / "q.cql", "cql() check\n");
  write_file(mount + "/out.pgn", "OLD");
  auto r = cqlindex_in(tmp, "run q.cql -i g.pgn -o small/out.pgn --no-index");
  const std::string old = read_file(mount + "/out.pgn");
  const int leftovers = entries_with(mount, "cqlindex-tmp");
  run_process("umount " + shell_quote(mount));
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("No space left on device") != std::string::npos);
  CHECK(r.out.find(" matches of ") == std::string::npos);
  CHECK(old == "OLD");
  CHECK(leftovers == 0);
}

TEST_CASE("an interrupted build removes its temporary folder, a killed one's is removed by the next build",
          "[cli][safety]") {
  TempDir tmp;
  {
    std::ofstream big(tmp / "big.pgn", std::ios::binary);
    const std::string book = read_file(book_pgn());
    for (int i = 0; i < 10; ++i) big << book;
  }
  // Starts a build, waits for its temporary folder, sends the signal, waits for the end; prints the exit status
  // and the temporary folders left.
  auto interrupt = [&](const std::string& signal) {
    return run_process("cd " + shell_quote(tmp.path.string()) + " && (" + shell_quote(CQLINDEX_BINARY) +
                       " build big.pgn --threads 1 >/dev/null 2>&1 & p=$!; i=0; "
                       "while [ $i -lt 400 ] && ! ls -d big.pgn.cqlidx.cqlindex-build-*/index >/dev/null 2>&1; "
                       "do sleep 0.02; i=$((i+1)); done; kill -" + signal + " $p; wait $p; echo status=$?; "
                       "ls -d big.pgn.cqlidx.cqlindex-build-* 2>/dev/null | wc -l)");
  };
  // (Not SIGINT: a shell without job control starts background commands with SIGINT ignored.)
  for (const std::string signal : {"TERM", "HUP"}) {
    INFO(signal);
    auto r = interrupt(signal);
    CHECK(r.out.find(signal == "TERM" ? "status=143" : "status=129") != std::string::npos);
    CHECK(r.out.substr(r.out.find('\n') + 1) == "0\n");
  }
  auto r = interrupt("KILL");
  CHECK(r.out.find("status=137") != std::string::npos);
  CHECK(r.out.substr(r.out.find('\n') + 1) == "1\n");
  CHECK(cqlindex_in(tmp, "build big.pgn --threads 2").exit_code == 0);
  CHECK(entries_with(tmp.path, ".cqlindex-build-") == 0);
}

TEST_CASE("queries running while the index is rebuilt again and again never find it damaged or missing",
          "[cli][safety]") {
  TempDir tmp;
  const std::string book = read_file(book_pgn());
  write_file(tmp / "g.pgn", book.substr(0, book.find("[Event ", book.size() / 4)));
  write_file(tmp / "q.cql", "cql() check\n");
  REQUIRE(cqlindex_in(tmp, "build g.pgn").exit_code == 0);
  // A builder rebuilds 8 times; meanwhile queries run back to back, each printing its status when it fails.
  const std::string bin = shell_quote(CQLINDEX_BINARY);
  auto r = run_process("cd " + shell_quote(tmp.path.string()) + " || exit 1; (for i in 1 2 3 4 5 6 7 8; do " + bin +
                       " build g.pgn --threads 1 >/dev/null 2>&1 || echo build-failed; done; touch built) & "
                       "n=0; while [ ! -e " + shell_quote((tmp.path / "built").string()) + " ]; do " + bin +
                       " run q.cql -i g.pgn -o o.pgn --threads 1 >/dev/null 2>err.txt || { echo query-failed; "
                       "cat err.txt; }; n=$((n+1)); done; wait; echo queries=$n");
  INFO(r.out);
  CHECK(r.out.find("failed") == std::string::npos);
  CHECK(r.out.find("queries=") != std::string::npos);
  CHECK(entries_with(tmp.path, ".cqlindex-build-") == 0);
}

TEST_CASE("build --append after the PGN ended inside a tag section answers as --no-index (issue 15 repro)",
          "[cli][safety]") {
  TempDir tmp;
  fs::copy_file(book_pgn(), tmp / "g.pgn");
  write_file(tmp / "q.cql", "cql() check\n");
  auto r = run_process("cd " + shell_quote(tmp.path.string()) + " || exit 1; B=" + shell_quote(CQLINDEX_BINARY) +
                       "; L=$(grep -n '^\\[Event ' g.pgn | sed -n 2p | cut -d: -f1); L=$((L+2)); "
                       "head -n $L g.pgn > p.pgn; $B build p.pgn >/dev/null 2>&1; tail -n +$((L+1)) g.pgn >> p.pgn; "
                       "$B build p.pgn --append 2>&1 >/dev/null; echo append=$?; "
                       "$B run q.cql -i p.pgn -o indexed.pgn 2>/dev/null; $B run q.cql -i p.pgn -o scanned.pgn "
                       "--no-index 2>/dev/null");
  INFO(r.out);
  CHECK(r.out.find("append=0") != std::string::npos);
  CHECK(r.out.find("the whole index is rebuilt") != std::string::npos);
  CHECK(r.out.find("808 matches of 1005 games") != std::string::npos);
  CHECK(r.out.find("of 1006 games") == std::string::npos);
  CHECK(read_file(tmp / "indexed.pgn") == read_file(tmp / "scanned.pgn"));
}

TEST_CASE("a killed command's temporary output is removed by the next command writing that output, a live one's not",
          "[cli][safety]") {
  TempDir tmp;
  fs::copy_file(book_pgn(), tmp / "g.pgn");
  write_file(tmp / "q.cql", "cql() check\n");
  write_file(tmp / ".out.pgn.cqlindex-tmp-AAAAAA", "half an output");  // no lock held: its command is gone
  write_file(tmp / ".out.pgn.cqlindex-tmp-BBBBBB", "being written");
  const int fd = ::open((tmp / ".out.pgn.cqlindex-tmp-BBBBBB").c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);  // a command still writing it
  write_file(tmp / ".other.pgn.cqlindex-tmp-CCCCCC", "another output's");
  CHECK(cqlindex_in(tmp, "run q.cql -i g.pgn -o out.pgn --no-index").exit_code == 0);
  CHECK_FALSE(fs::exists(tmp / ".out.pgn.cqlindex-tmp-AAAAAA"));
  CHECK(fs::exists(tmp / ".out.pgn.cqlindex-tmp-BBBBBB"));
  CHECK(fs::exists(tmp / ".other.pgn.cqlindex-tmp-CCCCCC"));
  ::close(fd);
}
