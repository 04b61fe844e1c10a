// `similar` in a small address space (ulimit -v): memory that runs out on any thread (a worker of the search or
// of the output, or the calling thread while workers run) ends the command with "out of memory" and exit 2,
// never an abort, and leaves neither the output nor its temporary file behind.
#include <set>

#include "faults_support.h"

using namespace faults_test;

namespace {

// `games` copies of one 40-ply game, each its own Event: every game matches the submission `1. e4`, so the
// candidates, the matched games and the output all grow with `games`.
std::string repeated_games(int games) {
  const std::string moves =
      "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 "
      "11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5 "
      "20. Bg5 Be7 1/2-1/2";
  std::string pgn;
  for (int i = 0; i < games; ++i)
    pgn += "[Event \"g" + std::to_string(i) + "\"]\n[Result \"1/2-1/2\"]\n\n" + moves + "\n\n";
  return pgn;
}

// The names of the folder's entries.
std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

}  // namespace

TEST_CASE("similar out of memory says so, exits 2 and leaves no output or temporary file", "[faults][memory]") {
  Scratch dir("similar-memory");
  const std::string repo = dir.write("repo.pgn", repeated_games(20000));
  const std::string submissions = dir.write("sub.pgn", "[Event \"s\"]\n\n1. e4 *\n");
  auto built = run_cqlindex("build " + shell_quote(repo));
  REQUIRE(built.exit_code == 0);
  const std::set<std::string> inputs = entries(dir.path);
  const std::string output = dir.file("out.pgn");
  for (const std::string threads : {"1", "2"})
    for (const std::string index : {"", " --no-index"}) {
      bool ran_out = false;
      // From too little to start the search to enough for some runs: memory runs out in every step on the way
      // (the look-ups, the scan, the matched games, the output's games written by the workers).
      for (const std::string limit : {"40000", "50000", "60000"}) {
        auto r = run_cqlindex("similar " + shell_quote(submissions) + " -i " + shell_quote(repo) + " -o " +
                                  shell_quote(output) + " --threads " + threads + index,
                              "ulimit -v " + limit + ";");
        INFO("ulimit -v " << limit << ", --threads " << threads << index << "\n" << r.out.substr(0, 3000));
        CHECK((r.exit_code == 0 || r.exit_code == 2));
        CHECK_FALSE(has(r.out, "terminate"));
        CHECK_FALSE(has(r.out, "internal error"));
        if (r.exit_code == 2) {
          // a scan's repository mapped in no address space left is read instead, and refused as too large
          CHECK((has(r.out, "cqlindex similar: out of memory") || has(r.out, "too large to hold in memory")));
          ran_out = ran_out || has(r.out, "cqlindex similar: out of memory");
          CHECK(entries(dir.path) == inputs);  // neither out.pgn nor its temporary file
        } else {
          CHECK(has(r.out, "20000 matches of 20000 games"));
          fs::remove(output);
        }
      }
      INFO("--threads " << threads << index);
      CHECK(ran_out);
    }
}
