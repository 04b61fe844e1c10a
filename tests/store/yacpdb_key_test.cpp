// The yacpdb family's key layout (store/keys/yacpdb_key.h): instances by name and arguments, and the
// prefixed keys of entries, texts and "not analysed" lists. The bytes are pinned.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "store/keys/yacpdb_key.h"

using namespace cqlindex::store::keys;

TEST_CASE("yacpdb keys: an instance is its predicate's name and arguments joined by '|'", "[store][keys]") {
  CHECK(yacpdb_instance_key("ArealCycle", {"wR", "4", "true"}) == "ArealCycle|wR|4|true");
  CHECK(yacpdb_instance_key("Twins", {}) == "Twins");
  CHECK(yacpdb_instance_key("PW", {"2"}) == "PW|2");
  CHECK(yacpdb_instance_args("ArealCycle|wR|4|true") == std::vector<std::string>{"wR", "4", "true"});
  CHECK(yacpdb_instance_args("Twins").empty());
  CHECK(yacpdb_instance_args("X||") == std::vector<std::string>{"", ""});
}

TEST_CASE("yacpdb keys: an instance of PW is not one of PWPiece", "[store][keys]") {
  CHECK(is_yacpdb_instance_of("PW", "PW|2"));
  CHECK(is_yacpdb_instance_of("Twins", "Twins"));
  CHECK_FALSE(is_yacpdb_instance_of("PW", "PWPiece|wK"));
  CHECK_FALSE(is_yacpdb_instance_of("PWPiece", "PW|2"));
}

TEST_CASE("yacpdb keys: entries, texts and not-analysed lists", "[store][keys]") {
  CHECK(yacpdb_entry_key(0) == std::string("\x02\x00\x00\x00\x00", 5));
  CHECK(yacpdb_entry_key(0x01020304) == std::string("\x02\x01\x02\x03\x04", 5));
  CHECK(yacpdb_text_key(258) == std::string("\x03\x00\x00\x01\x02", 5));
  CHECK(yacpdb_not_analysed_key("ArealCycle") == "\x01" "ArealCycle");
  CHECK(yacpdb_entry_of(yacpdb_entry_key(70000)) == 70000u);
  CHECK(yacpdb_entry_of(yacpdb_text_key(7)) == 7u);
  CHECK_FALSE(yacpdb_entry_of(std::string("\x02\x00\x00\x00", 4)));
  CHECK_FALSE(yacpdb_entry_of("PW|2x"));
  // The prefixed keys sort before every instance key (predicate names start with a letter).
  CHECK(yacpdb_text_key(0xffffffff) < yacpdb_instance_key("A", {}));
}
