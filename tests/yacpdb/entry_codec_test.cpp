// Entry metadata as stored in the index: every field the metadata predicates read survives the round trip, for
// YAML and PGN entries; damaged bytes are refused.
#include <catch2/catch.hpp>

#include "engine/yacpdb/entry_codec.h"
#include "engine/yacpdb/problem.h"
#include "support/shared_data.h"

using namespace cqlindex::yacpdb;

namespace {

void check_same(const Entry& a, const Entry& b) {
  CHECK(a.format == b.format);
  CHECK(a.number == b.number);
  CHECK(a.line == b.line);
  REQUIRE(a.pieces.size() == b.pieces.size());
  for (size_t i = 0; i < a.pieces.size(); ++i) {
    CHECK(a.pieces[i].color == b.pieces[i].color);
    CHECK(a.pieces[i].code == b.pieces[i].code);
    CHECK(a.pieces[i].specs == b.pieces[i].specs);
    CHECK(a.pieces[i].square == b.pieces[i].square);
  }
  CHECK(a.fen == b.fen);
  CHECK(a.stipulation == b.stipulation);
  CHECK(a.authors == b.authors);
  CHECK(a.judges == b.judges);
  CHECK(a.options == b.options);
  CHECK(a.keywords == b.keywords);
  CHECK(a.comments == b.comments);
  CHECK(a.source == b.source);
  CHECK(a.source_id == b.source_id);
  CHECK(a.issue_id == b.issue_id);
  CHECK(a.tourney == b.tourney);
  CHECK(a.distinction == b.distinction);
  CHECK(a.reprints == b.reprints);
  CHECK(a.reprint_types == b.reprint_types);
  CHECK(a.date.year == b.date.year);
  CHECK(a.date.month == b.date.month);
  CHECK(a.date.day == b.date.day);
  CHECK(a.intended_solutions == b.intended_solutions);
  CHECK(a.id == b.id);
  CHECK(a.text == b.text);
}

}  // namespace

TEST_CASE("yacpdb entry metadata: round trip and refusal of damaged bytes", "[yacpdb]") {
  const std::string data = cqlindex::test::shared_data("problems/");
  size_t entries = 0;
  for (const char* file :
       {"yacpdb-olive/Broodings-50.olv", "yacpdb-olive/chest_test.olv", "mate-in-n-from-games/mate_in_2.pgn"}) {
    ProblemFile f = read_problem_file(data + file);
    REQUIRE_FALSE(f.problems.empty());
    for (const Problem& p : f.problems) {
      const std::string bytes = encode_entry_metadata(p.entry);
      auto back = decode_entry_metadata(bytes);
      REQUIRE(back);
      check_same(p.entry, *back);
      CHECK(back->solution.empty());  // never stored
      for (size_t cut : {size_t(0), bytes.size() / 2, bytes.size() - 1})
        CHECK_FALSE(decode_entry_metadata(bytes.substr(0, cut)));
      CHECK_FALSE(decode_entry_metadata(bytes + "x"));
      ++entries;
    }
  }
  CHECK(entries > 150);
}
