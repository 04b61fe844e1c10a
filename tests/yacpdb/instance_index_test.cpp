// Indexed answers (instance postings, YACPDB's design) equal direct evaluation on every fixture.
#include "engine/yacpdb/instance_index.h"

#include <catch2/catch.hpp>

#include "engine/yacpdb/evaluator.h"
#include "engine/yacpdb/problem.h"
#include "support/shared_data.h"

using namespace cqlindex::yacpdb;

namespace {

std::string problems_dir() { return cqlindex::test::shared_data("problems") + "/"; }

const char* kQueries[] = {
    "Fairy",
    "NOT Fairy",
    "Phases > 1",
    "Phases = 0",
    "Phases < 2",
    "Twins = 1",
    "Twins > 1",
    "ClosedWalk(*, *, *)",
    "TraceBack(*, *, *) OR LinearCycle(*, *, *) OR ArealCycle(*, *, *)",
    "ArealCycle(wR, *, true) AND TraceBack(wR, 1, *)",
    "TraceBack(wB, *, *) = 0",
    "Star(*) OR Cross(*)",
    "Albino(wP) = 2",
    "Pickaninny(bP)",
    "CornerToCorner(*) > 1",
    "FourCorners(*)",
    "Excelsior(*, *) > 1",
    "Excelsior(wS, 5) AND NOT Excelsior(wQ, 5)",
    "PW(*)",
    "PWPiece(wK) AND PWPiece(wR)",
    "Zilahi(*)",
    "ZilahiPiece(*, true) > 1",
    "Models(*, true)",
    "Models(0, false) > 0",
    "Models(*, *) = 0",
    "HundredDollar",
    "With('wR wR') AND Stip('h#.*')",
    "Stip('#2') OR Stip('s#.*')",
    "PCount(w) > PCount",
    "PCount(b) < 5",
    "Author('*a*') AND NOT Keyword(*)",
    "Option(*) = 0",
    "Keyword('Zilahi') OR Keyword('Model mates')",
    "Matrix('wKa1 wRc1') OR MatrixExtended('wKh1 wRf1', false, false, Mirror)",
    "PublishedAfter(2000)",
    "Text('%Kasparov%') OR Text('Zilahi')",
    "Id(3) OR Id(412003)",
    "Source('Broodings') AND Phases > 2",
    "NOT (Zilahi(2) OR Models(*, *)) AND ClosedWalk(*, *, false) = 0",
};

void check_file(const ProblemFile& f, const AnalysisLimits& limits) {
  InstanceIndex index;
  std::vector<Analysis> analyses;
  for (uint32_t i = 0; i < f.problems.size(); ++i) {
    analyses.push_back(analyse(f.problems[i], limits));
    index.add(i, analyses.back());
  }
  CHECK(index.entries() == f.problems.size());
  for (const char* text : kQueries) {
    Query q;
    try {
      q = parse_query(text);
    } catch (const QueryError&) {
      continue;  // "PCount(w) > PCount" is not a query: comparisons take integers
    }
    QueryEvaluator direct(q);
    std::vector<uint32_t> expected, expected_unknown;
    for (uint32_t i = 0; i < f.problems.size(); ++i) {
      bool unknown = false;
      if (direct.matches(f.problems[i], analyses[i], &unknown)) expected.push_back(i);
      if (unknown) expected_unknown.push_back(i);
    }
    std::vector<uint32_t> unknown;
    INFO(text);
    CHECK(indexed_matches(q, index, f.problems, &unknown) == expected);
    CHECK(unknown == expected_unknown);
    // The same through one pass over the entries, each handed over a copy that is dropped right after.
    std::vector<uint32_t> streamed_unknown;
    auto streamed = indexed_matches_from(q, index, [&](const std::function<void(uint32_t, const Entry&)>& visit) {
      for (uint32_t i = 0; i < f.problems.size(); ++i) {
        const Entry copy = f.problems[i].entry;
        visit(i, copy);
      }
      return true;
    }, &streamed_unknown);
    REQUIRE(streamed);
    CHECK(*streamed == expected);
    CHECK(streamed_unknown == expected_unknown);
    // Entries that cannot be read, or too few of them, give no answer rather than a wrong one.
    if (needs_entries(q)) {
      auto failing = [](const std::function<void(uint32_t, const Entry&)>&) { return false; };
      CHECK_FALSE(indexed_matches_from(q, index, failing));
      if (!f.problems.empty()) {
        auto short_one = [&](const std::function<void(uint32_t, const Entry&)>& visit) {
          for (uint32_t i = 0; i + 1 < f.problems.size(); ++i) visit(i, f.problems[i].entry);
          return true;
        };
        CHECK_FALSE(indexed_matches_from(q, index, short_one));
      }
    }
  }
}

}  // namespace

TEST_CASE("yacpdb index: indexed == direct evaluation on every fixture", "[yacpdb][index]") {
  for (const char* file :
       {"yacpdb-olive/Broodings-50.olv", "yacpdb-olive/chest_test.olv", "mate-in-n-from-games/mate_in_2.pgn",
        "mate-in-n-from-games/mate_in_3.pgn", "mate-in-n-from-games/mate_in_4.pgn",
        "lichess-checkmate-puzzles/lichess-beautiful-checkmate-puzzles.pgn"}) {
    INFO(file);
    ProblemFile f = read_problem_file(problems_dir() + file);
    REQUIRE_FALSE(f.problems.empty());
    check_file(f, AnalysisLimits{});
    check_file(f, AnalysisLimits{12});  // with a tiny cap: "not analysed" entries agree too
  }
}

TEST_CASE("yacpdb index: instances and postings", "[yacpdb][index]") {
  ProblemFile f = read_pgn_problems(
      "[FEN \"7k/8/8/8/3p4/8/8/R6K w - - 0 1\"]\n\n"
      "1. Ra4 Kg8 2. Rxd4 (2. Ra1 Kf8) (2. Ra6 Kf8 3. Ra2 Ke8 4. Ra1) 2... Kf8 3. Rd1 Ke8 4. Ra1 *\n\n"
      "[FEN \"7k/8/8/8/8/8/4K3/4R3 w - - 0 1\"]\n\n1. Kd2 Kg8 2. Re2 Kf8 3. Ke1 Kg7 *\n",
      "t.pgn");
  InstanceIndex index;
  for (uint32_t i = 0; i < f.problems.size(); ++i) index.add(i, analyse(f.problems[i]));
  // The postings of the instance of `id` with arguments `args`; null when there is none.
  auto find = [&](PredicateId id, std::vector<std::string> args) -> const std::vector<Posting>* {
    for (const InstancePostings& p : index.instances(id))
      if (p.args == args) return &p.postings;
    return nullptr;
  };
  const auto* areal = find(PredicateId::ArealCycle, {"wR", "4", "true"});
  REQUIRE(areal);
  REQUIRE(areal->size() == 1);
  CHECK((*areal)[0].entry == 0);
  CHECK((*areal)[0].count == 1);
  const auto* twins = find(PredicateId::Twins, {});
  REQUIRE(twins);
  CHECK(twins->size() == 2);
  CHECK(find(PredicateId::LinearCycle, {"wR", "4", "false"}));
  CHECK(find(PredicateId::TraceBack, {"wR", "1", "false"}));
  CHECK(find(PredicateId::PW, {"2"}));
  CHECK(find(PredicateId::PWPiece, {"wK"}));
  size_t instances = 0;
  for (const auto& [id, list] : index.all()) instances += list.size();
  CHECK(instances >= 6);
}
