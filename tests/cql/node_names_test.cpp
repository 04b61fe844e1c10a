// Child roles and keyword options (node_role.h, node_option.h): one spelling each, read back by option_named,
// and the spelling is what the printers write.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "engine/cql/node.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"

using namespace cqlindex::cql;

TEST_CASE("every role and option has its own spelling", "[cql][names]") {
  std::set<std::string> roles, options;
  for (const char* r : kRoleNames) CHECK(roles.insert(r).second);
  for (const char* o : kOptionNames) CHECK(options.insert(o).second);
  CHECK(roles.size() == sizeof kRoleNames / sizeof kRoleNames[0]);
  CHECK(std::string(role_name(Role::EnPassantSquare)) == "enpassantsquare");
  CHECK(std::string(option_name(Option::OOO)) == "o-o-o");
  CHECK(std::string(option_name(Option::FocusCapture)) == "focus capture");
}

TEST_CASE("option_named reads back every option's spelling and nothing else", "[cql][names]") {
  for (uint8_t i = 0; i < sizeof kOptionNames / sizeof kOptionNames[0]; ++i) {
    const auto o = static_cast<Option>(i);
    REQUIRE(option_named(option_name(o)));
    CHECK(*option_named(option_name(o)) == o);
  }
  for (const char* direction : {"up", "down", "left", "right", "northeast", "northwest", "southeast", "southwest",
                                "horizontal", "vertical", "diagonal", "orthogonal", "maindiagonal", "offdiagonal",
                                "anydirection"})
    CHECK(option_named(direction));
  CHECK_FALSE(option_named("arg"));
  CHECK_FALSE(option_named(""));
}

TEST_CASE("spelled options and roles are the enums", "[cql][names]") {
  constexpr OptionSpelling nosort("nosort");
  constexpr RoleSpelling arg("arg");
  STATIC_REQUIRE(nosort.option == Option::NoSort);
  STATIC_REQUIRE(arg.role == Role::Arg);
  CHECK(option_spelled_before(Option::Max, Option::Min));
  CHECK(option_spelled_before(Option::Min, Option::Quiet));
  CHECK_FALSE(option_spelled_before(Option::Quiet, Option::Max));
}

TEST_CASE("options and roles print with their spelling", "[cql][names]") {
  Query q = parse_query("cql() sort quiet max \"n\" path focus capture R verbose check\n\nmove o-o-o from K");
  const std::string canonical = print_canonical(q);
  CHECK(canonical.find("[max] [quiet]") != std::string::npos);  // written "quiet max"
  CHECK(canonical.find("[focus capture] [verbose]") != std::string::npos);
  CHECK(canonical.find("[o-o-o]") != std::string::npos);
  CHECK(canonical.find("from=") != std::string::npos);
  CHECK(canonical.find("focus=") != std::string::npos);
  // sort's and path's options sorted by spelling: written in any order, printed in one
  Query again = parse_query(print_cql(q));
  CHECK(print_canonical(again) == canonical);
}
