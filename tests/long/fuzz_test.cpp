// Long test (CQLINDEX_LONG_TESTS=1): 60 seconds of libFuzzer on each fuzz target (clang, ASan + UBSan).
#include <string>

#include <catch2/catch.hpp>

#include "support/process.h"

namespace {

void fuzz_for_a_minute(const std::string& target) {
  const std::string cmd = std::string(CQLINDEX_SOURCE_DIR) + "/scripts/fuzz " + target + " 60 2>&1";
  auto result = cqlindex::test::run_process(cmd);
  INFO(result.out);
  REQUIRE(result.exit_code == 0);
  REQUIRE(result.out.find("Done ") != std::string::npos);
}

}  // namespace

TEST_CASE("fuzzing the PGN reader and writer for 60 seconds finds nothing", "[long][fuzz]") {
  fuzz_for_a_minute("pgn_reader_fuzz");
}

TEST_CASE("fuzzing the index's value layouts for 60 seconds finds nothing", "[long][fuzz]") {
  fuzz_for_a_minute("store_values_fuzz");
}
