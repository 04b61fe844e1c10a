// A server holds each index's tags family keys in memory (store/family_keys.h) and the planner filters them for a
// tag test, reading only the lists it keeps (Planner::union_where); the command line reads the family. Both must give
// the same candidates and the same plan, for player names matched whole, in part, in another case, or not at all,
// and for the other tag rules (event, site, date, year, Elo, result) that read the tags family the same way.
#include "planner/planner.h"
#include "planner_fixture.h"
#include "store/family_keys.h"

using namespace planner_test;
using cqlindex::store::Family;
using cqlindex::store::FamilyKeys;

namespace {

// The bundled sample: 1,005 games, 578 distinct White names.
const std::string& sample_1005() {
  static const std::string path = std::string(CQLINDEX_SOURCE_DIR) + "/data/gnuchess-1005.pgn";
  return path;
}

// Returns the tags family keys of the sample's index, read once.
const FamilyKeys& held_keys() {
  static const FamilyKeys keys = [] {
    std::string error;
    auto read = FamilyKeys::read(index_of(sample_1005()), Family::Tags, &error);
    INFO(error);
    REQUIRE(read);
    return std::move(*read);
  }();
  return keys;
}

// The plan of `cql` over the sample's index, with the held keys or without.
struct Planned {
  std::optional<cqlindex::planner::CandidateSet> candidates;
  std::string plan;
};
Planned planned(const std::string& cql, const FamilyKeys* keys) {
  cqlindex::cql::Query q = cqlindex::cql::parse_query("cql(input x.pgn)\n" + cql);
  cqlindex::planner::PlanReport report;
  Planned out;
  out.candidates = cqlindex::planner::plan_candidates(q, index_of(sample_1005()), &report, nullptr, keys);
  out.plan = cqlindex::planner::format_plan(report);
  REQUIRE(report.error.empty());
  return out;
}

// Checks that each query gets the candidates and plan of the family read when planned over the held keys.
void check_same_as_family_read(const std::vector<std::string>& queries) {
  for (const std::string& cql : queries) {
    INFO(cql);
    const Planned read = planned(cql, nullptr);
    const Planned held = planned(cql, &held_keys());
    REQUIRE(read.candidates.has_value() == held.candidates.has_value());
    if (read.candidates) CHECK(*read.candidates == *held.candidates);
    CHECK(read.plan == held.plan);
  }
}

}  // namespace

TEST_CASE("held tag keys: the keys in memory are the family's, in key order", "[planner][tags]") {
  const FamilyKeys& keys = held_keys();
  std::vector<std::string> read;
  std::string error;
  REQUIRE(index_of(sample_1005()).for_each(Family::Tags, "", [&](std::string_view key, std::string_view) {
    read.emplace_back(key);
    return true;
  }, &error));
  REQUIRE(keys.size() == read.size());
  for (size_t i = 0; i < read.size(); ++i) REQUIRE(keys.key(i) == read[i]);
  // a prefix's range: the keys under it, and those only
  for (std::string_view prefix : {"White", "Black", "WhiteElo", "Result", "Date", "ECO", "Zzz", "", "A"}) {
    INFO(prefix);
    const auto [first, last] = keys.range(prefix);
    size_t under = 0;
    for (const std::string& k : read) under += k.starts_with(prefix);
    CHECK(last - first == under);
    for (size_t i = first; i < last; ++i) CHECK(keys.key(i).starts_with(prefix));
  }
}

TEST_CASE("held tag keys: a player test gives the candidates and plan of the family read", "[planner][tags]") {
  const std::vector<std::string> queries = {
      "player \"Timman\"",                 // a few names, in part
      "player \"Timman Jan H (NED)\"",     // one name whole
      "player \"timman\"",                 // another case: no name has it
      "player \"TIMMAN\"",
      "player \"Alekhine, Alexander A\"",  // the comma and spaces CQL's normalisation moves
      "player \"Alekhine,Alexander\"",
      "player white \"Karpov\"",
      "player black \"Karpov\"",
      "flipcolor player white \"Spassky\"",
      "player \"No such player anywhere\"",  // matches nothing
      "player \"a\"",                      // most names: the family is read as a stream instead
      "player \"\"",
      "player \"Karpov\" or player \"Tal\"",
      "player \"Polgar\" and not player \"Kasparov\"",
  };
  check_same_as_family_read(queries);
  // the case and the missing name narrow to the games without a White or Black tag, not to all games
  const Planned none = planned("player \"No such player anywhere\"", &held_keys());
  REQUIRE(none.candidates);
  CHECK(none.candidates->cardinality() < 1005);
}

TEST_CASE("held tag keys: the other tag rules give the candidates of the family read", "[planner][tags]") {
  const std::vector<std::string> queries = {
      "\"Olympiad\" in event", "event \"Hastings\"", "site == \"London\"", "eco \"B1\"", "eco \"b1\"",
      "\"1972\" in date",      "year > 1980",         "year == 1956",      "elo white > 2600",
      "elo black < 2000",      "result 1-0",          "result 1/2-1/2",    "flipcolor result 0-1",
  };
  check_same_as_family_read(queries);
}

TEST_CASE("held tag keys: a name kept by few is read by point look-ups, one kept by most by the stream",
          "[planner][tags]") {
  // The filter's calls tell the two ways apart: the held keys are filtered once each; when too many are kept, the
  // family is then read as a stream and filtered again.
  const cqlindex::store::IndexStore& store = index_of(sample_1005());
  const auto [first, last] = held_keys().range("White");
  cqlindex::cql::similar::SubmissionFiles submissions;
  cqlindex::planner::Planner held(store, store.meta().game_count, submissions, &held_keys());
  cqlindex::planner::Planner read(store, store.meta().game_count, submissions);
  for (std::string_view text : {"Timman", "No such player", "a"}) {
    INFO(text);
    size_t held_calls = 0, read_calls = 0;
    auto with = held.union_where(Family::Tags, "White", [&](std::string_view key) {
      ++held_calls;
      return key.find(text) != std::string_view::npos;
    });
    auto without = read.union_where(Family::Tags, "White", [&](std::string_view key) {
      ++read_calls;
      return key.find(text) != std::string_view::npos;
    });
    REQUIRE(with);
    REQUIRE(without);
    CHECK(*with == *without);
    CHECK(read_calls == last - first);
    CHECK(held_calls == (text == "a" ? 2 : 1) * (last - first));
  }
}
