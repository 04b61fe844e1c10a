// YACPDB YAML entries: both Olive collections read completely, fields mapped, bad documents reported.
#include "engine/yacpdb/yaml_entries.h"

#include <catch2/catch.hpp>

#include "engine/yacpdb/solution_text.h"
#include "support/shared_data.h"

using namespace cqlindex::yacpdb;

namespace {

std::string olive_dir() { return cqlindex::test::shared_data("problems/yacpdb-olive") + "/"; }

int count_color(const Entry& e, char c) {
  int n = 0;
  for (const auto& p : e.pieces) n += p.color == c;
  return n;
}

}  // namespace

TEST_CASE("yacpdb yaml: Broodings-50.olv is read completely", "[yacpdb][yaml]") {
  auto r = read_yaml_file(olive_dir() + "Broodings-50.olv");
  CHECK(r.errors.empty());
  REQUIRE(r.entries.size() == 12);
  for (const Entry& e : r.entries) {
    INFO("entry " << e.number << " line " << e.line);
    CHECK(e.problems.empty());
    CHECK_FALSE(e.stipulation.empty());
    CHECK_FALSE(e.pieces.empty());
    CHECK_FALSE(e.solution.empty());
  }
  const Entry& first = r.entries[0];
  CHECK(first.line == 2);
  CHECK(first.stipulation == "s#3");
  CHECK(count_color(first, 'b') == 14);
  CHECK(count_color(first, 'w') == 9);
  CHECK(first.pieces[0].code == "K");
  CHECK(first.pieces[0].square == 34);  // c5
  REQUIRE(first.authors.size() == 1);
  CHECK(first.authors[0] == "Јаневски, Живко");
  CHECK(first.keywords == std::vector<std::string>{"Battery destruction", "Arrival correction"});
  CHECK(first.date.year == 2009);
  CHECK(first.date.month == 2);
  CHECK(first.issue_id == "50");
  CHECK(first.source_id == "1");
  CHECK(first.text.find("Battery destruction") != std::string::npos);
  CHECK(first.solution.rfind("1.Ra6 ! (2.Qa7+", 0) == 0);

  const Entry& third = r.entries[2];
  CHECK(third.authors.size() == 2);
  REQUIRE(third.twins.size() == 3);
  CHECK(third.twins[0] == std::pair<std::string, std::string>{"b", "Move b4 f3"});
  CHECK(third.twins[2].second == "Continued Exchange d2 e4");
  auto sol = parse_solution_text(third.solution);
  CHECK_FALSE(sol.error);
  CHECK(sol.root->children.size() == 4);

  // fairy pieces keep their Popeye codes (N = nightrider, G = grasshopper, LE = leo, ...)
  const Entry& seventh = r.entries[6];
  bool has_nightrider = false;
  for (const auto& p : seventh.pieces) has_nightrider |= p.code == "N";
  CHECK(has_nightrider);
  CHECK(r.entries[11].stipulation == "h=4");
  CHECK(r.entries[11].source_id == "12");
}

TEST_CASE("yacpdb yaml: chest_test.olv (format 1.0 fields, python tags) is read completely", "[yacpdb][yaml]") {
  auto r = read_yaml_file(olive_dir() + "chest_test.olv");
  CHECK(r.errors.empty());
  REQUIRE(r.entries.size() == 14);
  for (const Entry& e : r.entries) {
    INFO("entry " << e.number);
    CHECK(e.problems.empty());
    CHECK_FALSE(e.pieces.empty());
  }
  const Entry& first = r.entries[0];
  CHECK(first.authors == std::vector<std::string>{"Shire, David J."});
  CHECK(first.source == "The British Chess Magazine");
  CHECK(first.date.year == 2007);
  CHECK(first.distinction == "1st Prize");
  CHECK(first.stipulation == "#2");
  CHECK(first.keywords.size() == 3);
  const Entry& third = r.entries[2];
  CHECK(third.options == std::vector<std::string>{"Madrasi RexInclusiv", "ParrainCirce"});
  CHECK(third.date.year == 2007);
  CHECK(third.date.month == 5);
  CHECK(third.date.day == 5);
  CHECK(third.source_id == "No. 25");
  CHECK(third.intended_solutions == "2.1...");
  // the entry without a solution is still an entry
  CHECK(r.entries[11].solution.empty());
  CHECK(r.entries[11].stipulation == "h=3");
}

TEST_CASE("yacpdb yaml: bad documents are reported with file:line:col, the rest is read", "[yacpdb][yaml]") {
  std::string text =
      "---\nstipulation: '#2'\nalgebraic:\n  white: [Ka1, Qb2]\n  black: [Kh8]\nsolution: '1.Qb2-h2 #'\n"
      "---\nstipulation: [unclosed\n"
      "---\n- a list\n"
      "---\nstipulation: h#2\nalgebraic:\n  white: [Ka1, Xx9, Royal Zf3]\n  purple: [Ka2]\nsolution: x\n"
      "reprints:\n- name: Die Schwalbe\n  date: {year: 1990}\n- {name: feenschach}\n";
  auto r = read_yaml_entries(text, "t.olv");
  REQUIRE(r.entries.size() == 2);
  REQUIRE(r.errors.size() == 2);
  INFO(r.errors[0]);
  CHECK(r.errors[0].rfind("t.olv:9:", 0) == 0);
  CHECK(r.errors[1] == "t.olv:10:1: not a YACPDB entry (a mapping)");
  CHECK(r.entries[0].pieces.size() == 3);
  CHECK(r.entries[0].line == 2);
  const Entry& e = r.entries[1];
  CHECK(e.line == 12);
  REQUIRE(e.problems.size() == 2);
  CHECK(e.problems[0] == "14:16: cannot read piece 'Xx9'");
  CHECK(e.problems[1].find("unknown side 'purple'") != std::string::npos);
  REQUIRE(e.pieces.size() == 2);
  CHECK(e.pieces[1].code == "Z");
  CHECK(e.pieces[1].specs == "Royal");
  CHECK(e.reprints == std::vector<std::string>{"Die Schwalbe", "feenschach"});
  // an unreadable file is one error
  auto missing = read_yaml_file("/nonexistent/x.olv");
  CHECK(missing.entries.empty());
  CHECK(missing.errors.size() == 1);
}
