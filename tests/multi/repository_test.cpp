// exec::Repository (issue 18): the files of repeated -i and of .cqlrepo lists, in order; a list's paths relative
// to its folder; its comments and blank lines skipped; a bad line refused with the list's file:line:col.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "exec/repository.h"
#include "multi/multi_test_util.h"

namespace fs = std::filesystem;
using cqlindex::exec::Repository;
using multi_test::scratch;
using multi_test::write;

TEST_CASE("a repository keeps the files of -i and of lists in order", "[multi][repository]") {
  const fs::path dir = scratch("order");
  fs::create_directories(dir / "sub");
  for (const char* name : {"a.pgn", "b.pgn", "sub/c.pgn", "sub/d.pgn"}) write(dir / name, "1. e4 *\n");
  write(dir / "sub" / "two.cqlrepo", "# the sub folder's files\n\nc.pgn\n   \n  d.pgn  \r\n# end\n");
  std::string error;
  const auto repo = Repository::resolve(
      {(dir / "a.pgn").string(), (dir / "sub" / "two.cqlrepo").string(), (dir / "b.pgn").string()}, &error);
  REQUIRE(repo);
  CHECK(error.empty());
  REQUIRE(repo->files().size() == 4);
  CHECK(repo->files()[0] == (dir / "a.pgn").string());
  CHECK(fs::equivalent(repo->files()[1], dir / "sub" / "c.pgn"));
  CHECK(fs::equivalent(repo->files()[2], dir / "sub" / "d.pgn"));
  CHECK(repo->files()[3] == (dir / "b.pgn").string());
  CHECK_FALSE(repo->single());

  const auto one = Repository::resolve({(dir / "a.pgn").string()}, &error);
  REQUIRE(one);
  CHECK(one->single());
  // a PGN named directly is left for the command to open (it names the file in its own words)
  const auto missing = Repository::resolve({(dir / "nothing.pgn").string()}, &error);
  REQUIRE(missing);
  CHECK(missing->files().size() == 1);
}

TEST_CASE("a repository list with a bad line is refused with its file:line:col", "[multi][repository]") {
  const fs::path dir = scratch("bad");
  write(dir / "a.pgn", "1. e4 *\n");
  fs::create_directories(dir / "folder.pgn");
  std::string error;

  write(dir / "missing.cqlrepo", "a.pgn\n\n# two lines on\n\tb.pgn\n");
  CHECK_FALSE(Repository::resolve({(dir / "missing.cqlrepo").string()}, &error));
  CHECK(error.rfind((dir / "missing.cqlrepo").string() + ":4:2: cannot read '" + (dir / "b.pgn").string() + "'", 0) ==
        0);

  write(dir / "folder.cqlrepo", "folder.pgn\n");
  CHECK_FALSE(Repository::resolve({(dir / "folder.cqlrepo").string()}, &error));
  CHECK(error.find("folder.cqlrepo:1:1: cannot read") != std::string::npos);
  CHECK(error.find("it is a folder") != std::string::npos);

  write(dir / "nested.cqlrepo", "a.pgn\nmissing.cqlrepo\n");
  CHECK_FALSE(Repository::resolve({(dir / "nested.cqlrepo").string()}, &error));
  CHECK(error.find("nested.cqlrepo:2:1: 'missing.cqlrepo' is a repository list") != std::string::npos);

  CHECK_FALSE(Repository::resolve({(dir / "absent.cqlrepo").string()}, &error));
  CHECK(error.find("cannot read the repository list '" + (dir / "absent.cqlrepo").string() + "'") !=
        std::string::npos);

  // an empty list is a repository without files (the commands refuse it in their words)
  write(dir / "empty.cqlrepo", "# nothing yet\n");
  const auto empty = Repository::resolve({(dir / "empty.cqlrepo").string()}, &error);
  REQUIRE(empty);
  CHECK(empty->files().empty());
}
