// planner::may_contain compares a value and a text squeezed (spaces, tabs and dots left out) in place, without
// copies: it must answer as the squeezed copies did, on every pair of short strings of a small alphabet.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "planner/tag_values.h"

namespace {

// The squeezed copy may_contain compared before (the reference).
std::string squeezed(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '.') out += c;
  return out;
}

bool reference(std::string_view raw, std::string_view text) {
  return raw.find(text) != std::string_view::npos || squeezed(raw).find(squeezed(text)) != std::string::npos;
}

}  // namespace

TEST_CASE("tag values: a player test's squeezed comparison answers as squeezed copies do", "[planner][tags]") {
  CHECK(cqlindex::planner::may_contain("White", "Barden, Leonard W", "Barden, Leonard W"));
  CHECK(cqlindex::planner::may_contain("White", "Barden,L.W.", "Barden, L W"));
  CHECK(cqlindex::planner::may_contain("White", "Barden, Leonard W", " . "));
  CHECK(cqlindex::planner::may_contain("White", "", ""));
  CHECK_FALSE(cqlindex::planner::may_contain("White", "Barden, Leonard W", "barden"));
  CHECK_FALSE(cqlindex::planner::may_contain("White", "Bard en", "Barden,"));
  CHECK_FALSE(cqlindex::planner::may_contain("White", "", "x"));
  std::mt19937 random(19);
  const std::string alphabet = "ab ,.\t";
  auto any = [&](size_t longest) {
    std::string s(random() % (longest + 1), ' ');
    for (char& c : s) c = alphabet[random() % alphabet.size()];
    return s;
  };
  for (int i = 0; i < 200000; ++i) {
    const std::string raw = any(9), text = any(5);
    INFO('"' << raw << "\" \"" << text << '"');
    REQUIRE(cqlindex::planner::may_contain("White", raw, text) == reference(raw, text));
  }
}
