// `cqlindex similar` against CQL 6.2's own similarposition runs (shared/data/.../similarposition/), byte for
// byte, through the index and with --no-index; the judges' extras; a stale index refused.
//
// The goldens were made in a folder holding `submissions.pgn` and `repository.pgn` (CQL's comments name the
// submissions file as given), so each run here happens in a scratch folder laid out the same way.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "indexer/index_location.h"
#include "similar/similar_test_util.h"

using namespace cqlindex;
using namespace cqlindex::test;

namespace {

// Sets up the lichess-studies-vs-cql-sample run: submissions = the two lichess files concatenated (in that
// order), repository = cql-sample.pgn.
void lichess_vs_cql_sample(const fs::path& dir) {
  spit(dir / "submissions.pgn", slurp(data_dir() / "studies" / "lichess-beautiful-chess-studies-1.pgn") +
                                    slurp(data_dir() / "studies" / "lichess-beautiful-chess-studies-2.pgn"));
  spit(dir / "repository.pgn", slurp(data_dir() / "studies" / "cql-sample.pgn"));
}

// Runs `similar` with `flags` and checks the output file against `golden` and the two stdout lines.
void check_run(const fs::path& dir, const std::string& flags, const fs::path& golden, const std::string& db_line,
               const std::string& matches_of) {
  INFO("cqlindex similar " << flags);
  fs::remove(dir / "out.pgn");
  ProcessResult r = cqlindex_in(dir, "similar submissions.pgn -i repository.pgn -o out.pgn " + flags);
  INFO("stderr: " << stderr_of(dir));
  REQUIRE(r.exit_code == 0);
  std::string want = slurp(golden);
  std::string got = slurp(dir / "out.pgn");
  CHECK(got.size() == want.size());
  CHECK(got == want);
  // stdout: CQL's lines (CQL's banner and progress dots aside).
  std::regex lines(db_line + "\n" + matches_of + " games in [0-9.e+-]+ seconds using 1 thread to out\\.pgn\n");
  CHECK(std::regex_match(r.out, lines));
}

}  // namespace

TEST_CASE("similar: the three lichess-studies-vs-cql-sample goldens, indexed and --no-index", "[similar][golden]") {
  ScratchDir dir("lichess");
  lichess_vs_cql_sample(dir.path());
  const std::string db = "Db: read 103 games from submission file: submissions\\.pgn";
  const std::string matches = "3 matches of 253";

  // No index yet: a full scan, said so on stderr.
  check_run(dir.path(), "--threads 1", goldens_dir() / "lichess-studies-vs-cql-sample.default.pgn", db, matches);
  CHECK(stderr_of(dir.path()).find("repository.pgn is not indexed") != std::string::npos);

  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  for (const char* mode : {"default", "nosort", "notransform"}) {
    std::string flag = std::string(mode) == "default" ? "" : std::string("--") + mode;
    fs::path golden = goldens_dir() / ("lichess-studies-vs-cql-sample." + std::string(mode) + ".pgn");
    check_run(dir.path(), flag + " --threads 1", golden, db, matches);
    CHECK(stderr_of(dir.path()).find("candidate games of 253") != std::string::npos);
    check_run(dir.path(), flag + " --threads 1 --no-index", golden, db, matches);
    // Two threads write the same bytes.
    REQUIRE(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out2.pgn --threads 2 " + flag)
                .exit_code == 0);
    CHECK(slurp(dir.path() / "out2.pgn") == slurp(golden));
  }
}

TEST_CASE("similar: per-submission summary on stderr", "[similar]") {
  ScratchDir dir("summary");
  lichess_vs_cql_sample(dir.path());
  REQUIRE(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn").exit_code == 0);
  std::string err = stderr_of(dir.path());
  INFO(err);
  // Golden: game 252 through submissions 1 and 65 (the initial position), game 70 through 15 and 102,
  // game 172 through 79.
  CHECK(err.find("submission game 1: similar positions in 1 repository game (first: game 252; earliest dated: game 252, "
                 "1930.02.?\?, Edgar Colle, Nice)\n") != std::string::npos);
  CHECK(err.find("submission game 15: similar positions in 1 repository game (first: game 70; earliest dated: game 70, "
                 "2004.?\?.?\?, Becker=R, 1.p Magyar Sakkvilag)\n") != std::string::npos);
  CHECK(err.find("submission game 79: similar positions in 1 repository game (first: game 172; earliest dated: game 172, "
                 "1967.?\?.?\?, Mitrofanov=L, 1.p Rustaveli MT Vecherni Tbilisi)\n") != std::string::npos);
  CHECK(err.find("submission game 102: similar positions in 1 repository game (first: game 70; ") !=
        std::string::npos);
  CHECK(err.find("submission games with no similar position in the repository (98 of 103): 2-14, 16-64, 66-78, "
                 "80-101, 103\n") != std::string::npos);
  CHECK(err.find("warning:") == std::string::npos);  // the initial position is in 1 of 253 games only
}

TEST_CASE("similar: a submission position common in the repository is warned about, and skipped on request",
          "[similar]") {
  // The lichess intro chapters (submission games 1 and 65) start from the initial position, which every game
  // of the gnuchess book file starts from.
  ScratchDir dir("common");
  spit(dir.path() / "submissions.pgn", slurp(data_dir() / "studies" / "lichess-beautiful-chess-studies-1.pgn") +
                                           slurp(data_dir() / "studies" / "lichess-beautiful-chess-studies-2.pgn"));
  spit(dir.path() / "repository.pgn", slurp(data_dir() / "gnuchess-book" / "book_1.02.small-1005.pgn"));
  const std::string start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

  // Kept by default (CQL's output), with a warning naming the submission position and its reach.
  REQUIRE(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o all.pgn --no-index").exit_code ==
          0);
  std::string err = stderr_of(dir.path());
  INFO(err);
  CHECK(err.find("warning: submission game 1 at move 1 wtm (" + start_fen +
                 ") is similar to positions of 1005 of the 1005 repository games (100.0%)") != std::string::npos);
  CHECK(err.find("warning: submission game 65 at move 1 wtm (" + start_fen + ")") != std::string::npos);
  // The summary names the first game and the earliest dated one (a 1792 game, number 937).
  CHECK(err.find("submission game 1: similar positions in 1005 repository games (first: game 1; earliest dated: "
                 "game 937, 1792.?\?.?\?, Treybal, 04)\n") != std::string::npos);
  std::string all = slurp(dir.path() / "all.pgn");
  CHECK(all.find("{Game number 1005 see submissions.pgn game: 1 at move: 1 wtm  see") != std::string::npos);

  // --ignore-common: those positions are left out, indexed and not, with the same output.
  ProcessResult scan =
      cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o scan.pgn --no-index --ignore-common 20");
  REQUIRE(scan.exit_code == 0);
  std::string scan_err = stderr_of(dir.path());
  CHECK(scan_err.find("skipped: submission game 1 at move 1 wtm (" + start_fen +
                      ") is similar to positions of 1005 of the 1005 repository games (100.0%)") != std::string::npos);
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  ProcessResult indexed =
      cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o indexed.pgn --ignore-common 20");
  REQUIRE(indexed.exit_code == 0);
  std::string indexed_err = stderr_of(dir.path());
  CHECK(indexed_err.find("skipped: submission game 1 at move 1 wtm (" + start_fen + ")") != std::string::npos);
  std::string skipped = slurp(dir.path() / "scan.pgn");
  CHECK(slurp(dir.path() / "indexed.pgn") == skipped);
  CHECK(skipped.find("game: 1 at move: 1 wtm") == std::string::npos);
  CHECK(skipped.find("game: 65 at move: 1 wtm") == std::string::npos);
  CHECK(skipped.size() < all.size());
  // The summary line of each run agrees on the match count.
  auto count = [](const std::string& out) {
    std::string line = out.substr(out.find('\n') + 1);
    return line.substr(0, line.find(" games in"));
  };
  CHECK(count(scan.out) == count(indexed.out));
}

TEST_CASE("similar: a stale index is refused with the message that says how to rebuild it", "[similar]") {
  ScratchDir dir("stale");
  lichess_vs_cql_sample(dir.path());
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  std::string text = slurp(dir.path() / "repository.pgn");
  text[text.size() / 2] = text[text.size() / 2] == 'a' ? 'b' : 'a';  // same size, other bytes
  spit(dir.path() / "repository.pgn", text);
  ProcessResult r = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn");
  CHECK(r.exit_code == 2);
  std::string message = indexer::refusal_message(indexer::Freshness::Stale, "repository.pgn",
                                                 indexer::default_index_dir("repository.pgn"));
  CHECK(stderr_of(dir.path()) == "cqlindex similar: " + message + "\n");
  CHECK(!fs::exists(dir.path() / "out.pgn"));
  // --no-index still answers.
  CHECK(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn --no-index").exit_code == 0);
}

TEST_CASE("similar: games appended since the build make the index refused until build --append", "[similar]") {
  ScratchDir dir("appended");
  lichess_vs_cql_sample(dir.path());
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  std::ofstream(dir.path() / "repository.pgn", std::ios::app | std::ios::binary)
      << "\n[Event \"appended\"]\n[Result \"*\"]\n\n1.e4 *\n";
  ProcessResult r = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn");
  CHECK(r.exit_code == 2);
  CHECK(stderr_of(dir.path()) ==
        "cqlindex similar: " +
            indexer::refusal_message(indexer::Freshness::Appended, "repository.pgn",
                                     indexer::default_index_dir("repository.pgn")) +
            "\n");
  REQUIRE(cqlindex_in(dir.path(), "build --append repository.pgn").exit_code == 0);
  REQUIRE(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn").exit_code == 0);
  // The appended game starts from the initial position: a fourth match (submission game 1), sorted first.
  std::string out = slurp(dir.path() / "out.pgn");
  CHECK(out.find("[Event \"appended\"]") != std::string::npos);
  CHECK(out.find("Game number 254 see submissions.pgn game: 1 at move: 1 wtm") != std::string::npos);
}

TEST_CASE("similar: usage and input errors", "[similar]") {
  ScratchDir dir("usage");
  lichess_vs_cql_sample(dir.path());
  CHECK(cqlindex_in(dir.path(), "similar submissions.pgn").exit_code == 1);
  CHECK(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn --ignore-common 150").exit_code == 1);
  CHECK(cqlindex_in(dir.path(), "similar missing.pgn -i repository.pgn --no-index").exit_code == 2);
  CHECK(cqlindex_in(dir.path(), "similar submissions.pgn -i missing.pgn --no-index").exit_code == 2);
  CHECK(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn --index nowhere").exit_code == 2);
  spit(dir.path() / "empty.pgn", "");
  ProcessResult r = cqlindex_in(dir.path(), "similar empty.pgn -i repository.pgn --no-index");
  CHECK(r.exit_code == 2);
  CHECK(stderr_of(dir.path()).find("Db: unable to read any games from file: empty.pgn") != std::string::npos);
}

TEST_CASE("similar: a broken repository game is reported at the same place, indexed or not", "[similar]") {
  ScratchDir dir("broken");
  spit(dir.path() / "repository.pgn",
       "[Event \"a\"]\n\n1.e4 e5 2.Nf3 *\n\n[Event \"b\"]\n\n1.e4 e5\n2.Ke3 Nc6 *\n\n[Event \"c\"]\n\n1.d4 d5 *\n");
  spit(dir.path() / "submissions.pgn", "[Event \"s\"]\n\n1.e4 e5 *\n");
  REQUIRE(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o scan.pgn --no-index").exit_code == 0);
  std::string scan_err = stderr_of(dir.path());
  CHECK(scan_err.find("repository.pgn:8:3: game 2: illegal move 'Ke3'") != std::string::npos);
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  REQUIRE(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o indexed.pgn").exit_code == 0);
  CHECK(stderr_of(dir.path()).find("repository.pgn:8:3: game 2: illegal move 'Ke3'") != std::string::npos);
  // The broken game is kept up to its last legal move, as CQL keeps it, and matches through 1.e4 e5.
  std::string out = slurp(dir.path() / "indexed.pgn");
  CHECK(out == slurp(dir.path() / "scan.pgn"));
  CHECK(out.find("[Event \"b\"]") != std::string::npos);
}

TEST_CASE("similar: indexed and --no-index write the same bytes in every mode", "[similar]") {
  // 253 studies (one an OTB game from the initial position) as submissions against 1,005 OTB games: every
  // game matches through the opening, which exercises long comment lists, sorting and --ignore-common.
  ScratchDir dir("modes");
  spit(dir.path() / "submissions.pgn", slurp(data_dir() / "studies" / "cql-sample.pgn"));
  spit(dir.path() / "repository.pgn", slurp(data_dir() / "gnuchess-book" / "book_1.02.small-1005.pgn"));
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  for (const char* flags : {"", "--nosort", "--notransform", "--notransform --nosort", "--ignore-common 2",
                            "--notransform --ignore-common 2", "--ignore-common 0"}) {
    INFO("flags: " << flags);
    ProcessResult indexed =
        cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o indexed.pgn " + std::string(flags));
    REQUIRE(indexed.exit_code == 0);
    std::string indexed_err = stderr_of(dir.path());
    ProcessResult scan = cqlindex_in(
        dir.path(), "similar submissions.pgn -i repository.pgn -o scan.pgn --no-index " + std::string(flags));
    REQUIRE(scan.exit_code == 0);
    std::string scan_err = stderr_of(dir.path());
    CHECK(slurp(dir.path() / "indexed.pgn") == slurp(dir.path() / "scan.pgn"));
    // The same judges' report, apart from the line on how the candidates were found.
    auto report = [](std::string err) {
      std::string kept, line;
      std::istringstream in(err);
      while (std::getline(in, line))
        if (line.find("looked up in the index") == std::string::npos) kept += line + "\n";
      return kept;
    };
    CHECK(report(indexed_err) == report(scan_err));
    CHECK(indexed.out.substr(0, indexed.out.find(" games in")) == scan.out.substr(0, scan.out.find(" games in")));
  }
  // With everything common skipped, nothing is left.
  ProcessResult none = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o none.pgn --ignore-common 0");
  CHECK(none.out.find("\n0 matches of 1005 games") != std::string::npos);
}

TEST_CASE("similar: a position listed by thousands of submissions keeps CQL's comment limit", "[similar]") {
  // 3,000 submission games from the initial position: CQL's cumulative comments there would run to gigabytes;
  // only what CQL keeps of a comment (pgn::merge_cql_comment: up to 4,500 bytes) is made.
  ScratchDir dir("crowd");
  std::string submissions;
  for (int i = 0; i < 3000; ++i) submissions += "[Event \"s\"]\n\n1.e4 *\n\n";
  spit(dir.path() / "submissions.pgn", submissions);
  spit(dir.path() / "repository.pgn", "[Event \"r\"]\n\n1.d4 d5 *\n\n[Event \"q\"]\n\n1.e4 c5 *\n");
  REQUIRE(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o scan.pgn --no-index").exit_code == 0);
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  ProcessResult r = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o indexed.pgn");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\n2 matches of 2 games") != std::string::npos);
  std::string out = slurp(dir.path() / "indexed.pgn");
  CHECK(out == slurp(dir.path() / "scan.pgn"));
  CHECK(out.find("[cql truncate]...") != std::string::npos);
  CHECK(out.size() < 30000);
}

TEST_CASE("similar: a damaged index never gives a wrong answer, and verify names the damaged file", "[similar]") {
  // Issue 20 changed this contract: an open no longer hashes every file, so damage in a table the search does
  // not read no longer refuses the whole index. Each table damaged in turn: the search either stops (exit 2,
  // "is damaged", no output) or writes CQL's bytes; `cqlindex verify` names the file either way.
  ScratchDir dir("damaged");
  lichess_vs_cql_sample(dir.path());
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  const std::string golden = slurp(goldens_dir() / "lichess-studies-vs-cql-sample.default.pgn");
  int tables = 0, stopped = 0;
  for (const auto& e : fs::directory_iterator(dir.path() / "repository.pgn.cqlidx")) {
    if (e.path().extension() != ".sst") continue;
    INFO(e.path());
    const std::string intact = slurp(e.path());
    std::string bytes = intact;
    bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0xff);
    spit(e.path(), bytes);
    fs::remove(dir.path() / "out.pgn");
    ProcessResult r = cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn --threads 1");
    if (r.exit_code == 0) {
      CHECK(slurp(dir.path() / "out.pgn") == golden);
    } else {
      ++stopped;
      CHECK(r.exit_code == 2);
      CHECK(stderr_of(dir.path()).find("is damaged") != std::string::npos);
      CHECK(!fs::exists(dir.path() / "out.pgn"));
    }
    ProcessResult verify = cqlindex_in(dir.path(), "verify repository.pgn");
    CHECK(verify.exit_code == 2);
    CHECK(stderr_of(dir.path()).find(e.path().filename().string()) != std::string::npos);
    spit(e.path(), intact);
    ++tables;
  }
  CHECK(tables >= 3);
  CHECK(stopped >= 1);  // the meta family's table, at least, is read by every search
  CHECK(cqlindex_in(dir.path(), "verify repository.pgn").exit_code == 0);
}

TEST_CASE("similar: run -similarposition with an empty query writes CQL's bytes, indexed and not", "[similar][golden]") {
  // What the scoreboard runs: `cqlindex run -similarposition [nosort|notransform] submissions.pgn -i
  // repository.pgn -o OUT empty.cql` with `cql()` as the whole query.
  ScratchDir dir("run");
  lichess_vs_cql_sample(dir.path());
  spit(dir.path() / "empty.cql", "cql()\n");
  for (bool indexed : {false, true}) {
    if (indexed) REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
    for (const char* mode : {"default", "nosort", "notransform"}) {
      std::string flag = std::string(mode) == "default" ? "" : mode;
      INFO(mode << (indexed ? ", indexed" : ", no index"));
      fs::remove(dir.path() / "out.pgn");
      ProcessResult r = cqlindex_in(dir.path(), "run -similarposition " + flag +
                                                    " submissions.pgn -i repository.pgn -o out.pgn empty.cql");
      INFO("stderr: " << stderr_of(dir.path()));
      REQUIRE(r.exit_code == 0);
      CHECK(r.out.find("3 matches of 253 games in ") != std::string::npos);
      CHECK(slurp(dir.path() / "out.pgn") ==
            slurp(goldens_dir() / ("lichess-studies-vs-cql-sample." + std::string(mode) + ".pgn")));
      CHECK((stderr_of(dir.path()).find("candidate games of 253") != std::string::npos) == indexed);
    }
  }
  // Without -similarposition an empty query is still an error, as in CQL.
  ProcessResult bare = cqlindex_in(dir.path(), "run -i repository.pgn empty.cql");
  CHECK(bare.exit_code == 1);
  CHECK(stderr_of(dir.path()).find("empty.cql:2:1:") != std::string::npos);
}
