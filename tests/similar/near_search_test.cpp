// `cqlindex similar --near K` (issue 17) end to end on the shared data: through the index as the --no-index
// scan (an independent brute force: near_images.h) finds, CQL's output file untouched, common positions warned
// about and skipped, K >= 2 by scanning, bad options refused.
#include <catch2/catch.hpp>

#include "cli/exit_codes.h"
#include "similar/near_test_util.h"

using namespace cqlindex;
using namespace cqlindex::test;

namespace {

const fs::path kSmall = data_dir() / "gnuchess-book" / "book_1.02.small-1005.pgn";

}  // namespace

TEST_CASE("similar --near 1: through the index as the --no-index scan finds, on the shared data", "[similar][near]") {
  ScratchDir dir("near");
  const std::string repository = slurp(kSmall);
  REQUIRE(!repository.empty());
  spit(dir.path() / "repository.pgn", repository);
  std::vector<Planted> planted;
  spit(dir.path() / "subs.pgn", studies_and_planted(repository, planted));
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);

  REQUIRE(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn -o exact.pgn").exit_code == 0);
  REQUIRE(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn -o near.pgn --near 1 --report index.html")
              .exit_code == 0);
  const std::string indexed = stderr_of(dir.path());
  REQUIRE(
      cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn -o scan.pgn --near 1 --no-index --report scan.html")
          .exit_code == 0);
  const std::string scanned = stderr_of(dir.path());
  INFO(indexed);

  // CQL's output stays what it is without --near.
  CHECK(slurp(dir.path() / "near.pgn") == slurp(dir.path() / "exact.pgn"));
  CHECK(slurp(dir.path() / "scan.pgn") == slurp(dir.path() / "exact.pgn"));
  // The index answered (keys looked up, candidates replayed), and agrees with the scan line for line.
  CHECK(indexed.find("distinct neighbour keys looked up in the index") != std::string::npos);
  const auto near_indexed = lines_starting(indexed, "near:"), near_scanned = lines_starting(scanned, "near:");
  CHECK(near_indexed == near_scanned);
  CHECK(slurp(dir.path() / "index.html") == slurp(dir.path() / "scan.html"));
  // Keyed 700 positions at a time (the bound on memory): the same answer.
  REQUIRE(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn -o batched.pgn --near 1").exit_code == 0);
  const std::string whole = stderr_of(dir.path());
  REQUIRE(run_process("cd " + shell_quote(dir.path().string()) + " && CQLINDEX_NEAR_BATCH_POSITIONS=700 " +
                      shell_quote(CQLINDEX_BINARY) +
                      " similar subs.pgn -i repository.pgn -o batched.pgn --near 1 2>stderr.txt")
              .exit_code == 0);
  CHECK(lines_starting(stderr_of(dir.path()), "near:") == lines_starting(whole, "near:"));
  // The planted positions are found at distance 1, in the game they came from (submission games 253-255).
  for (size_t i = 0; i < planted.size(); ++i) {
    const std::string wanted = "near: submission game " + std::to_string(253 + i) + " move 1 ";
    const std::string game = ": repository game " + std::to_string(planted[i].game) + " ply ";
    bool found = false;
    for (const std::string& line : near_indexed)
      found |= line.rfind(wanted, 0) == 0 && line.find(game) != std::string::npos &&
               line.find("distance 1, shifted") == std::string::npos &&
               line.find("distance 1, mirrored left-right") != std::string::npos;
    INFO(wanted << "..." << game);
    CHECK(found);
  }
  // The demo's exact matches (distance 0) are what CQL's similarposition finds.
  CHECK(std::regex_search(near_indexed.back(),
                          std::regex("within distance 1 \\([0-9]+ at distance 0, [1-9][0-9]* at distance 1\\)")));
}

TEST_CASE("similar --near 1 over the 116,573-game train file: index and scan agree (40 pairs, 5 exact)",
          "[similar][near][train]") {
  ScratchDir dir("near-train");
  std::string repository = xz_decompress(data_dir() / "gnuchess-book" / "book_1.02.train-116573.pgn.xz");
  REQUIRE(!repository.empty());  // needs xz
  spit(dir.path() / "repository.pgn", repository);
  repository.clear();
  spit(dir.path() / "submissions.pgn", studies_with_fen());
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  REQUIRE(cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o out.pgn --near 1").exit_code == 0);
  const std::string indexed = stderr_of(dir.path());
  CHECK(slurp(dir.path() / "out.pgn") == slurp(goldens_dir() / "cql-sample-fen-vs-gnuchess-train.default.pgn"));
  REQUIRE(
      cqlindex_in(dir.path(), "similar submissions.pgn -i repository.pgn -o scan.pgn --near 1 --no-index").exit_code ==
      0);
  const std::string scanned = stderr_of(dir.path());
  const auto near_indexed = lines_starting(indexed, "near:");
  CHECK(near_indexed == lines_starting(scanned, "near:"));
  REQUIRE(!near_indexed.empty());
  CHECK(near_indexed.back() ==
        "near: 40 pairs of a submission game and a repository game within distance 1 (5 at distance 0, 35 at distance "
        "1)");
}

TEST_CASE("similar --near: a position near every game is warned about, and skipped with --ignore-common",
          "[similar][near]") {
  ScratchDir dir("near-common");
  const std::string repository = slurp(kSmall);
  spit(dir.path() / "repository.pgn", repository);
  // The initial position without White's e-pawn: one square from every game's first position.
  const Planted near10 = plant(repository, 10, 40);
  spit(dir.path() / "subs.pgn", setup_game("no e-pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1") +
                                    setup_game("planted", near10.fen));
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);

  REQUIRE(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn -o out.pgn --near 1").exit_code == 0);
  std::string err = stderr_of(dir.path());
  INFO(err);
  CHECK(std::regex_search(
      err, std::regex("cqlindex similar: warning: submission game 1 at move 1 wtm \\(rnbqkbnr/pppppppp/8/8/8/8/"
                      "PPPP1PPP/RNBQKBNR w KQkq - 0 1\\) is within distance 1 of positions of [0-9]+ of "
                      "the 1005 repository games \\((9[0-9]|100)\\.[0-9]%\\); --ignore-common")));
  CHECK(lines_starting(err, "near: submission game 1 ").size() > 900);

  REQUIRE(
      cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn -o out.pgn --near 1 --ignore-common 50").exit_code ==
      0);
  err = stderr_of(dir.path());
  CHECK(err.find("cqlindex similar: skipped: submission game 1 at move 1 wtm") != std::string::npos);
  CHECK(lines_starting(err, "near: submission game 1 ").empty());
  CHECK(lines_starting(err, "near: submission game 2 ").size() >= 1);  // the rest stays
}

TEST_CASE("similar --near 2: answered by a scan, a superset of distance 1", "[similar][near]") {
  ScratchDir dir("near-2");
  const std::string repository = slurp(kSmall);
  spit(dir.path() / "repository.pgn", repository);
  std::string subs;
  for (auto [game, ply] : {std::pair<uint64_t, uint32_t>{10, 40}, {200, 61}})
    subs += setup_game("p", plant(repository, game, ply).fen);
  subs += slurp(fs::path(CQLINDEX_SOURCE_DIR) / "data" / "demo-submissions.pgn");
  spit(dir.path() / "subs.pgn", subs);
  REQUIRE(cqlindex_in(dir.path(), "build repository.pgn").exit_code == 0);
  REQUIRE(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn -o out.pgn --near 1").exit_code == 0);
  auto one = lines_starting(stderr_of(dir.path()), "near: submission");
  REQUIRE(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn -o out.pgn --near 2").exit_code == 0);
  const std::string err = stderr_of(dir.path());
  CHECK(err.find("--near 2 is answered by scanning every game") != std::string::npos);
  auto two = lines_starting(err, "near: submission");
  REQUIRE(!one.empty());
  // Every pair within 1 is within 2, and at the same place (the closest position, earliest among equals).
  for (const std::string& line : one) CHECK(std::find(two.begin(), two.end(), line) != two.end());
  CHECK(two.size() >= one.size());
}

TEST_CASE("similar --near and --report: bad options are refused before any work", "[similar][near]") {
  ScratchDir dir("near-usage");
  spit(dir.path() / "repository.pgn", slurp(kSmall));
  spit(dir.path() / "subs.pgn", setup_game("x", "8/8/8/4k3/8/8/8/4K2R w - - 0 1"));
  CHECK(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn --near -1").exit_code == cli::kExitUsage);
  CHECK(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn --near x").exit_code == cli::kExitUsage);
  // The report may not overwrite an input.
  CHECK(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn --report subs.pgn").exit_code == cli::kExitUsage);
  CHECK(slurp(dir.path() / "subs.pgn") == setup_game("x", "8/8/8/4k3/8/8/8/4K2R w - - 0 1"));
  // A report that cannot be written: exit 2, nothing left behind.
  CHECK(cqlindex_in(dir.path(), "similar subs.pgn -i repository.pgn --report no-such-dir/r.html").exit_code ==
        cli::kExitInput);
}
