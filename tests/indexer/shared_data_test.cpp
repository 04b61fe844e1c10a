// The tests' access to the shared data beside the repository (tests/support/shared_data.h): a missing file
// fails the test that asked for it with a message that names it.
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "support/shared_data.h"

TEST_CASE("shared data: a file that is there is found, a missing one is named", "[support]") {
  CHECK(cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn") ==
        std::string(CQLINDEX_SHARED_DATA) + "/gnuchess-book/book_1.02.small-1005.pgn");
  CHECK_THROWS_WITH(cqlindex::test::shared_data("no-such-folder/x.pgn"),
                    "../shared/data/no-such-folder/x.pgn not found: the tests read the shared data beside the "
                    "repository");
}
