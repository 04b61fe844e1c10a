// The submission databases of a run (engine/cql/similar/submission_files.h): each file read once per filter
// kind, its positions kept for the planner, CQL 6.2's refusal of a file without games.
#include <catch2/catch.hpp>

#include <unistd.h>

#include "engine/cql/similar/submission_files.h"
#include "similar/similar_test_util.h"

using namespace cqlindex;
using namespace cqlindex::test;
using cql::similar::SubmissionFiles;

TEST_CASE("submission files: read once, one database per (file, notransform), positions kept", "[similar]") {
  ScratchDir dir("files");
  const std::string path = (dir.path() / "s.pgn").string();
  spit(path, "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"]\n\n1. Qg7# *\n\n[Event \"b\"]\n\n1. e4 *\n");
  SubmissionFiles files;
  std::string error;
  const auto* db = files.load(path, false, &error);
  REQUIRE(db);
  CHECK(db->games() == 2);
  REQUIRE(db->positions() == 4);
  CHECK(db->board(1).side_to_move() == chess::BLACK);
  CHECK(db->board(2).pieces() == chess::Position::start().pieces());
  CHECK(files.load(path, false, &error) == db);  // the same database, not a second read
  fs::remove(path);
  CHECK(files.load(path, false, &error) == db);
  CHECK(files.find(path, false) == db);
  CHECK(files.find(path, true) == nullptr);
  CHECK(files.load(path, true, &error) == nullptr);  // notransform is another database: the file is gone
  CHECK(!error.empty());
  CHECK(files.files().size() == 1);
  CHECK(files.files().front()->path == path);
}

TEST_CASE("submission files: a file without games is refused in CQL 6.2's words", "[similar]") {
  ScratchDir dir("nogames");
  const std::string path = (dir.path() / "empty.pgn").string();
  spit(path, "\n");
  SubmissionFiles files;
  std::string error;
  CHECK(files.load(path, false, &error) == nullptr);
  CHECK(error == "Db: unable to read any games from file: " + path);
  CHECK(files.files().empty());
}
