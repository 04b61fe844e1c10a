// OutputFile: what is written comes out whole, through the temporary file and its writeback as it goes, and an
// earlier file at the path stays as it was until the commit.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include "exec/output_file.h"

using namespace cqlindex;
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("output file: 13 MiB written in pieces come out whole; the old file stays until the commit", "[exec]") {
  const fs::path dir = fs::temp_directory_path() / ("cqlindex-output-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / "out.pgn";
  { std::ofstream(path) << "the earlier output\n"; }
  std::string error;
  auto out = exec::OutputFile::open(path.string(), {}, &error);
  REQUIRE(out);
  std::string expected;
  for (int i = 0; expected.size() < 13u << 20; ++i) {  // past three writeback steps of 4 MiB, then a part of one
    std::string piece = "game " + std::to_string(i) + std::string(size_t(i % 997), char('a' + i % 26)) + "\n";
    out->stream() << piece;
    expected += piece;
  }
  CHECK(read_file(path) == "the earlier output\n");
  REQUIRE(out->commit(&error));
  CHECK(read_file(path) == expected);
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) entries += e.is_regular_file();
  CHECK(entries == 1);  // no temporary file left
  fs::remove_all(dir);
}
