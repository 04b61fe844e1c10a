// Long test (CQLINDEX_LONG_TESTS=1): `check --fen` against chess.js on all 116,573 games of the gnuchess
// train file. The file is decompressed once into the build folder and cut into four parts at game
// boundaries (every game there starts with `[Event` after a blank line), so ctest can run the parts in parallel.
#include <fstream>
#include <sstream>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "support/fen_differential.h"
#include "support/process.h"
#include "support/shared_data.h"

namespace {

constexpr int kParts = 4;

// Returns the path of part `index` (0-based) of the decompressed train file, making the parts on first use.
std::string train_part(int index) {
  const std::string dir = "long-test-data";
  const std::string part = dir + "/train-part" + std::to_string(index) + ".pgn";
  REQUIRE(cqlindex::test::run_process("mkdir -p " + dir).exit_code == 0);
  // ctest runs the parts in parallel: one process makes the files while the others wait.
  int lock = open((dir + "/lock").c_str(), O_CREAT | O_RDWR, 0644);
  REQUIRE(lock >= 0);
  flock(lock, LOCK_EX);
  struct Unlock {
    int fd;
    ~Unlock() { close(fd); }
  } unlock{lock};
  if (std::ifstream(part).good()) return part;
  const std::string xz =
      cqlindex::test::shared_data("gnuchess-book/book_1.02.train-116573.pgn.xz");
  const std::string whole = dir + "/train.pgn";
  std::string cmd = "xz -dc " + cqlindex::test::shell_quote(xz) + " > " + whole + ".tmp";
  REQUIRE(cqlindex::test::run_process(cmd).exit_code == 0);
  std::ifstream in(whole + ".tmp", std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const std::string boundary = "\n\n[Event ";
  size_t begin = 0;
  for (int p = 0; p < kParts; ++p) {
    size_t end = text.size();
    if (p + 1 < kParts) {
      end = text.find(boundary, text.size() * (p + 1) / kParts);
      REQUIRE(end != std::string::npos);
      end += 2;  // the blank line stays with the earlier part
    }
    std::ofstream(dir + "/train-part" + std::to_string(p) + ".pgn.tmp", std::ios::binary)
        << text.substr(begin, end - begin);
    std::rename((dir + "/train-part" + std::to_string(p) + ".pgn.tmp").c_str(),
                (dir + "/train-part" + std::to_string(p) + ".pgn").c_str());
    begin = end;
  }
  return part;
}

}  // namespace

TEST_CASE("check --fen equals chess.js on the 116,573-game train file, part 1 of 4", "[long]") {
  cqlindex::test::require_same_fens_as_chessjs(train_part(0));
}
TEST_CASE("check --fen equals chess.js on the 116,573-game train file, part 2 of 4", "[long]") {
  cqlindex::test::require_same_fens_as_chessjs(train_part(1));
}
TEST_CASE("check --fen equals chess.js on the 116,573-game train file, part 3 of 4", "[long]") {
  cqlindex::test::require_same_fens_as_chessjs(train_part(2));
}
TEST_CASE("check --fen equals chess.js on the 116,573-game train file, part 4 of 4", "[long]") {
  cqlindex::test::require_same_fens_as_chessjs(train_part(3));
}
