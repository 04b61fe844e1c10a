// Files a careless or hostile user names on the command line:
// an output that is a repository list or lies in an index folder, two outputs that are one file, a file-size
// limit, an interrupted or failed run's temporary output, a named pipe or a broken symbolic link where the index
// goes, and `verify` short of file descriptors. Each must end with a message and an exit code, destroying nothing.
#include <fstream>
#include <sys/stat.h>

#include "faults_support.h"
#include "support/file_bytes.h"
#include "support/shared_data.h"

using namespace faults_test;

namespace {

std::string book_pgn() { return cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn"); }
std::string olive_file() { return cqlindex::test::shared_data("problems/yacpdb-olive/Broodings-50.olv"); }

// Runs `cqlindex ARGS` in `dir` (stderr joined), after `prefix` (a ulimit).
ProcessResult run_in(const Scratch& dir, const std::string& args, const std::string& prefix = "") {
  return cqlindex::test::run_process("cd " + shell_quote(dir.path.string()) + " && " + prefix + " " +
                                     shell_quote(CQLINDEX_BINARY) + " " + args + " 2>&1");
}

// The names in `dir` that contain `part`.
int entries_with(const fs::path& dir, const std::string& part) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().find(part) != std::string::npos) ++n;
  return n;
}

// Writes `copies` copies of the book to `name` in `dir`: a scan long enough to interrupt.
void write_big(const Scratch& dir, const std::string& name, int copies) {
  std::ofstream big(dir.file(name), std::ios::binary);
  const std::string book = cqlindex::test::file_bytes(book_pgn());
  for (int i = 0; i < copies; ++i) big << book;
}

}  // namespace

TEST_CASE("an output that is the repository list, or in an index folder, is refused and the file is intact",
          "[faults][files]") {
  Scratch dir("lists");
  fs::copy_file(book_pgn(), dir.file("g.pgn"));
  const std::string list = dir.write("r.cqlrepo", "g.pgn\n");
  dir.write("q.cql", "cql() check\n");
  for (const std::string args : {"run q.cql -i r.cqlrepo -o r.cqlrepo --no-index",
                                 "run q.cql -i r.cqlrepo -o ./r.cqlrepo --no-index",
                                 "similar g.pgn -i r.cqlrepo -o r.cqlrepo --no-index"}) {
    INFO(args);
    const auto r = run_in(dir, args);
    INFO(r.out);
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "is the input r.cqlrepo"));
    CHECK(!has(r.out, " matches of "));
    CHECK(cqlindex::test::file_bytes(list) == "g.pgn\n");
  }
  fs::copy_file(olive_file(), dir.file("p.olv"));
  dir.write("p.cqlrepo", "p.olv\n");
  auto r = run_in(dir, "yacpdb 'Stip(\"h#2\")' -i p.cqlrepo -o p.cqlrepo --no-index");
  INFO(r.out);
  CHECK(r.exit_code == 1);
  CHECK(cqlindex::test::file_bytes(dir.file("p.cqlrepo")) == "p.olv\n");

  // The index a run has just used: neither its files nor a new file among them.
  REQUIRE(run_in(dir, "build g.pgn").exit_code == 0);
  const std::string current = cqlindex::test::file_bytes(dir.file("g.pgn.cqlidx/CURRENT"));
  for (const std::string out : {"g.pgn.cqlidx/CURRENT", "g.pgn.cqlidx/new.pgn", "./g.pgn.cqlidx/../g.pgn.cqlidx/x"}) {
    INFO(out);
    r = run_in(dir, "run q.cql -i r.cqlrepo -o " + out);
    INFO(r.out);
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "inside the index folder"));
    CHECK(!fs::exists(dir.file("g.pgn.cqlidx/new.pgn")));
    CHECK(!fs::exists(dir.file("g.pgn.cqlidx/x")));
  }
  CHECK(cqlindex::test::file_bytes(dir.file("g.pgn.cqlidx/CURRENT")) == current);
  r = run_in(dir, "verify g.pgn");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  r = run_in(dir, "similar g.pgn -i g.pgn -o g.pgn.cqlidx/CURRENT");
  CHECK(r.exit_code == 1);
  CHECK(cqlindex::test::file_bytes(dir.file("g.pgn.cqlidx/CURRENT")) == current);
}

TEST_CASE("similar with its output and its report one file is refused, and neither is written", "[faults][files]") {
  Scratch dir("report");
  fs::copy_file(book_pgn(), dir.file("g.pgn"));
  fs::create_directories(dir.file("sub"));
  for (const std::string args : {"-o x.html --report x.html", "-o x.html --report sub/../x.html"}) {
    INFO(args);
    const auto r = run_in(dir, "similar g.pgn -i g.pgn --no-index " + args);
    INFO(r.out);
    CHECK(r.exit_code == 1);
    CHECK(has(r.out, "the report"));
    CHECK(has(r.out, "is the output"));
    CHECK(!fs::exists(dir.file("x.html")));
    CHECK(entries_with(dir.path, "cqlindex-tmp") == 0);
  }
}

TEST_CASE("past the file-size limit, run -o and build fail with a message, exit 2, and leave no temporary file",
          "[faults][files]") {
  Scratch dir("fsize");
  write_big(dir, "g.pgn", 4);  // 2.3 MB: its output and its index pass 1,000 KiB
  dir.write("q.cql", "cql() true\n");
  auto r = run_in(dir, "run q.cql -i g.pgn -o out.pgn --no-index", "ulimit -f 1000;");
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(has(r.out, "cannot write out.pgn: File too large"));
  CHECK(!fs::exists(dir.file("out.pgn")));
  CHECK(entries_with(dir.path, "cqlindex-tmp") == 0);

  r = run_in(dir, "build g.pgn", "ulimit -f 200;");
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(has(r.out, "File too large"));
  CHECK(!fs::exists(dir.file("g.pgn.cqlidx")));
  CHECK(entries_with(dir.path, ".cqlindex-build-") == 0);
}

TEST_CASE("an interrupted or failing run -o removes its temporary output", "[faults][files]") {
  Scratch dir("interrupt");
  write_big(dir, "big.pgn", 40);  // 23 MB: a scan of a few seconds on one thread
  dir.write("q.cql", "cql() mate\n");
  // Starts the run, waits for its temporary output, sends the signal, waits for the end; prints the exit status
  // and the temporary files left. SIGINT is set back to its default first: a shell without job control starts
  // background commands with it ignored.
  auto interrupt = [&](const std::string& signal) {
    return cqlindex::test::run_process(
        "cd " + shell_quote(dir.path.string()) + " && (env --default-signal=INT " + shell_quote(CQLINDEX_BINARY) +
        " run q.cql -i big.pgn -o out.pgn --no-index -threads 1 >/dev/null 2>&1 & p=$!; i=0; "
        "while [ $i -lt 2000 ] && ! ls .out.pgn.cqlindex-tmp-* >/dev/null 2>&1; do sleep 0.005; i=$((i+1)); done; "
        "kill -" + signal + " $p; wait $p; echo status=$?; ls -a | grep -c cqlindex-tmp)");
  };
  for (const auto& [signal, status] : {std::pair{"INT", "status=130"}, {"TERM", "status=143"}, {"HUP", "status=129"}}) {
    INFO(signal);
    const auto r = interrupt(signal);
    INFO(r.out);
    CHECK(has(r.out, status));  // ended by the signal, not finished first
    CHECK(r.out.substr(r.out.find('\n') + 1) == "0\n");
    CHECK(!fs::exists(dir.file("out.pgn")));
  }
  // The input truncated while it is read (a test hook shrinks it after its opening): exit 2, no temporary file.
  fs::copy_file(book_pgn(), dir.file("g.pgn"));
  fs::permissions(dir.file("g.pgn"), fs::perms::owner_read | fs::perms::owner_write);
  const auto r = run_in(dir, "run q.cql -i " + shell_quote(dir.file("g.pgn")) + " -o out.pgn --no-index",
                        "CQLINDEX_TEST_SHRINK_AFTER_OPEN=" + shell_quote(dir.file("g.pgn")));
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(has(r.out, "changed while it was read"));
  CHECK(entries_with(dir.path, "cqlindex-tmp") == 0);
}

TEST_CASE("a named pipe, a file or a broken symbolic link where the index goes is named, never opened",
          "[faults][files]") {
  Scratch dir("fifo");
  fs::copy_file(book_pgn(), dir.file("g.pgn"));
  dir.write("q.cql", "cql() check\n");
  REQUIRE(::mkfifo(dir.file("g.pgn.cqlidx").c_str(), 0644) == 0);
  // (a reader of the pipe would wait for a writer for ever: `timeout` ends the test's command if it does)
  for (const std::string args : {"run q.cql -i g.pgn", "explain q.cql -i g.pgn", "info g.pgn", "build g.pgn",
                                 "similar g.pgn -i g.pgn", "verify g.pgn"}) {
    INFO(args);
    const auto r = run_in(dir, args, "timeout 20");
    INFO(r.out);
    CHECK(r.exit_code != 124);  // not stopped by timeout
    CHECK(r.exit_code != 0);
    if (args.rfind("verify", 0) != 0) CHECK(has(r.out, "g.pgn.cqlidx is a named pipe"));
  }
  fs::remove(dir.file("g.pgn.cqlidx"));
  fs::create_symlink("nowhere", dir.file("g.pgn.cqlidx"));
  auto r = run_in(dir, "build g.pgn");
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(has(r.out, "g.pgn.cqlidx is a symbolic link to nowhere that cannot be followed: its target does not exist"));
  fs::remove(dir.file("g.pgn.cqlidx"));
  fs::create_symlink("g.pgn.cqlidx", dir.file("g.pgn.cqlidx"));
  r = run_in(dir, "build g.pgn");
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(has(r.out, "g.pgn.cqlidx is a symbolic link to g.pgn.cqlidx that cannot be followed: the links form a loop"));
  r = run_in(dir, "run q.cql -i g.pgn");
  CHECK(r.exit_code == 2);
  CHECK(has(r.out, "the links form a loop"));
}

TEST_CASE("verify short of file descriptors says what the system refused, never that the index is damaged",
          "[faults][files]") {
  Scratch dir("verify-fds");
  fs::copy_file(book_pgn(), dir.file("g.pgn"));
  REQUIRE(run_in(dir, "build g.pgn").exit_code == 0);
  for (const int limit : {8, 12}) {  // the table files cannot all be opened
    INFO(limit);
    // (the limit set inside the subshell: dash cannot save a descriptor for a redirection under it)
    const auto r = cqlindex::test::run_process("cd " + shell_quote(dir.path.string()) + " && (ulimit -n " +
                                               std::to_string(limit) + "; exec " + shell_quote(CQLINDEX_BINARY) +
                                               " verify g.pgn) 2>&1");
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(has(r.out, "Too many open files"));
    CHECK(has(r.out, "ulimit -n, is " + std::to_string(limit)));
    CHECK(!has(r.out, "damaged"));
    CHECK(!has(r.out, "rebuild"));
  }
  const auto r = run_in(dir, "verify g.pgn");
  CHECK(r.exit_code == 0);
}
