// The tags family's key layout (store/keys/tag_key.h): tag name, kind byte, value; pinned, and read back.
#include <string>

#include <catch2/catch.hpp>

#include "store/keys/tag_key.h"

using namespace cqlindex;
using store::keys::TagKeyKind;

TEST_CASE("tag keys: name, kind byte, value", "[store][keys]") {
  CHECK(store::keys::tag_key("White", "Kasparov, Garry") == std::string("White\0Kasparov, Garry", 21));
  CHECK(store::keys::tag_key("Site", TagKeyKind::Missing) == std::string("Site\2", 5));
  CHECK(store::keys::tag_key("Result", TagKeyKind::Marker, "1-0") == std::string("Result\3" "1-0", 10));
  CHECK(store::keys::tag_key("Event", "") == std::string("Event\0", 6));
}

TEST_CASE("tag keys: a value longer than 200 bytes is kept truncated", "[store][keys]") {
  const std::string long_value(300, 'x');
  CHECK(store::keys::tag_key("Event", long_value) == "Event" + std::string(1, '\1') + std::string(200, 'x'));
  CHECK(store::keys::tag_key("Event", std::string(200, 'x')) == "Event" + std::string(1, '\0') + std::string(200, 'x'));
}

TEST_CASE("tag keys: read back under the tag name, a longer tag name is another tag", "[store][keys]") {
  // The parts view the key: it must outlive them.
  const std::string whole_key = store::keys::tag_key("White", "Carlsen,M.");
  const std::string marker_key = store::keys::tag_key("Result", TagKeyKind::Marker, "*");
  const std::string missing_key = store::keys::tag_key("Date", TagKeyKind::Missing);
  auto whole = store::keys::read_tag_key("White", whole_key);
  REQUIRE(whole);
  CHECK(whole->kind == TagKeyKind::Whole);
  CHECK(whole->text == "Carlsen,M.");
  auto marker = store::keys::read_tag_key("Result", marker_key);
  REQUIRE(marker);
  CHECK(marker->kind == TagKeyKind::Marker);
  CHECK(marker->text == "*");
  auto missing = store::keys::read_tag_key("Date", missing_key);
  REQUIRE(missing);
  CHECK(missing->kind == TagKeyKind::Missing);
  CHECK(missing->text.empty());
  CHECK_FALSE(store::keys::read_tag_key("White", store::keys::tag_key("WhiteElo", "2700")));
  CHECK_FALSE(store::keys::read_tag_key("White", "White"));
  CHECK_FALSE(store::keys::read_tag_key("White", store::keys::tag_key("Black", "White")));
}
