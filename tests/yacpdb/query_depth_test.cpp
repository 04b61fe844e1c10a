// The YACPDB query parser's nesting limit (NOT and parentheses) and its linear cost on long queries.
#include <catch2/catch.hpp>

#include "engine/yacpdb/query_parser.h"

using namespace cqlindex::yacpdb;

TEST_CASE("yacpdb query: NOT and '(' nest at most 200 deep, the error at the one too many", "[yacpdb][query][depth]") {
  CHECK_NOTHROW(parse_query(std::string(200, '(') + "Fairy" + std::string(200, ')')));
  for (const std::string& q : {std::string(201, '(') + "Fairy" + std::string(201, ')'),
                               std::string(20000, '(') + "Fairy" + std::string(20000, ')')}) {
    try {
      parse_query(q);
      FAIL("parsed");
    } catch (const QueryError& e) {
      CHECK(e.column() == 201);
      CHECK(e.message().find("nested more than 200 deep") != std::string::npos);
    }
  }
  std::string nots;
  for (int i = 0; i < 20000; ++i) nots += "NOT ";
  try {
    parse_query(nots + "Fairy");
    FAIL("parsed");
  } catch (const QueryError& e) {
    CHECK(e.column() == 801);  // the 201st NOT
  }
}

TEST_CASE("yacpdb query: 100,000 ANDs parse in linear time (each column was counted from the start)",
          "[yacpdb][query][depth]") {
  std::string q = "Fairy";
  for (int i = 0; i < 100000; ++i) q += " AND Fairy";
  q += " AND Fairy(";  // an error at the end: its column is right
  try {
    parse_query(q);
    FAIL("parsed");
  } catch (const QueryError& e) {
    CHECK(e.column() > int(q.size()) - 2);
  }
}
