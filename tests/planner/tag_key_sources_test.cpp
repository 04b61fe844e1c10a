// The planner reads a tag's keys (the names of `player "Barden"`) from one of three sources, and each must give the
// same candidates and the same plan, for player names matched whole, in part, in another case, or not at all, and
// for the other tag rules (event, site, date, year, Elo, result) that read the tags family the same way:
// - held: a server keeps each index's tags family keys in memory (store/family_keys.h);
// - directory: the command line reads them packed, from the index's tagkeys family (store/key_directory.h);
// - stream: an index without a directory written for its games (one built before it) has its tags family read.
// In the first two the planner filters the keys and point-reads only the lists it keeps (Planner::union_where).
#include "planner/planner.h"
#include "planner_fixture.h"
#include "store/family_keys.h"
#include "store/key_directory.h"

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

// Returns a second index of the sample whose directory is empty, as an index built before directories were
// written: its tags family is read as a stream.
const cqlindex::store::IndexStore& index_without_directory() {
  static TempDir dir("nodir");
  static const std::unique_ptr<cqlindex::store::IndexStore> store = [] {
    cqlindex::indexer::BuildOptions options;
    options.index_dir = (dir.path / "idx").string();
    std::string error;
    REQUIRE(cqlindex::indexer::build_index(sample_1005(), options, nullptr, &error));
    auto writer = cqlindex::store::IndexStore::open_for_writing(options.index_dir, &error);
    REQUIRE(writer);
    REQUIRE(writer->replace_family(Family::TagKeys, {}, &error));
    REQUIRE(writer->finish(&error));
    auto reader = cqlindex::store::IndexStore::open_for_reading(options.index_dir, &error);
    REQUIRE(reader);
    return reader;
  }();
  return *store;
}

// Where the planner reads the tag keys from.
enum class Source { Held, Directory, Stream };

// The plan of `cql` over the sample's index, its tag keys read from `source`.
struct Planned {
  std::optional<cqlindex::planner::CandidateSet> candidates;
  std::string plan;
};
Planned planned(const std::string& cql, Source source) {
  cqlindex::cql::Query q = cqlindex::cql::parse_query("cql(input x.pgn)\n" + cql);
  cqlindex::planner::PlanReport report;
  Planned out;
  const auto& index = source == Source::Stream ? index_without_directory() : index_of(sample_1005());
  out.candidates = cqlindex::planner::plan_candidates(q, index, &report, nullptr,
                                                      source == Source::Held ? &held_keys() : nullptr);
  out.plan = cqlindex::planner::format_plan(report);
  REQUIRE(report.error.empty());
  return out;
}

// Checks that each query gets the candidates and plan of the family read from the held keys and the directory.
void check_same_as_family_read(const std::vector<std::string>& queries) {
  for (const std::string& cql : queries) {
    INFO(cql);
    const Planned read = planned(cql, Source::Stream);
    for (Source source : {Source::Held, Source::Directory}) {
      INFO((source == Source::Held ? "held keys" : "directory"));
      const Planned other = planned(cql, source);
      REQUIRE(read.candidates.has_value() == other.candidates.has_value());
      if (read.candidates) CHECK(*read.candidates == *other.candidates);
      CHECK(read.plan == other.plan);
    }
  }
}

// Returns the tags family keys of `index` that start with `prefix`, read from its directory.
std::vector<std::string> directory_keys(const cqlindex::store::IndexStore& index, std::string_view prefix,
                                        cqlindex::store::IndexStore::DirectoryRead expected) {
  std::vector<std::string> keys;
  std::string error;
  CHECK(index.tag_keys(prefix, [&](std::string_view key) { keys.emplace_back(key); }, &error) == expected);
  CHECK(error.empty());
  return keys;
}

// Returns the tags family's keys of the sample's index, read from the family.
std::vector<std::string> tags_family_keys() {
  std::vector<std::string> keys;
  std::string error;
  REQUIRE(index_of(sample_1005()).for_each(Family::Tags, "", [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  }, &error));
  return keys;
}

}  // namespace

TEST_CASE("tag keys: the keys in memory and in the directory are the family's, in key order", "[planner][tags]") {
  const FamilyKeys& keys = held_keys();
  const std::vector<std::string> read = tags_family_keys();
  std::string error;
  REQUIRE(keys.size() == read.size());
  for (size_t i = 0; i < read.size(); ++i) REQUIRE(keys.key(i) == read[i]);
  // held keys come from the directory; from an index without one, streamed: the same keys
  const auto streamed = FamilyKeys::read(index_without_directory(), Family::Tags, &error);
  REQUIRE(streamed);
  REQUIRE(streamed->size() == read.size());
  for (size_t i = 0; i < read.size(); ++i) REQUIRE(streamed->key(i) == read[i]);
  // a prefix's range: the keys under it, and those only; the directory's keys under it are the same
  for (std::string_view prefix : {"White", "Black", "WhiteElo", "Result", "Date", "ECO", "Zzz", "", "A", "Whitd",
                                  "Whitf", "\xff"}) {
    INFO(prefix);
    const auto [first, last] = keys.range(prefix);
    std::vector<std::string> under;
    for (const std::string& k : read)
      if (k.starts_with(prefix)) under.push_back(k);
    CHECK(last - first == under.size());
    for (size_t i = first; i < last; ++i) CHECK(keys.key(i).starts_with(prefix));
    CHECK(directory_keys(index_of(sample_1005()), prefix, cqlindex::store::IndexStore::DirectoryRead::Read) == under);
  }
}

TEST_CASE("tag key directory: in chunks, each key read once; without a directory for the index's games, none",
          "[planner][tags]") {
  using Read = cqlindex::store::IndexStore::DirectoryRead;
  // the sample's keys take several chunks of 2 KiB: a prefix across chunk boundaries reads all its keys
  const std::vector<std::string> all = tags_family_keys();
  std::string error;
  TempDir dir("chunks");
  const std::string idx = (dir.path / "idx").string();
  cqlindex::indexer::BuildOptions options;
  options.index_dir = idx;
  REQUIRE(cqlindex::indexer::build_index(sample_1005(), options, nullptr, &error));
  {
    auto writer = cqlindex::store::IndexStore::open_for_writing(idx, &error);
    REQUIRE(writer);
    const auto chunks = cqlindex::store::directory_chunks(all, 1005, 2048);
    REQUIRE(chunks.size() > 10);
    REQUIRE(writer->replace_family(Family::TagKeys, chunks, &error));
    REQUIRE(writer->finish(&error));
  }
  {
    auto reader = cqlindex::store::IndexStore::open_for_reading(idx, &error);
    REQUIRE(reader);
    for (std::string_view prefix : {"", "White", "Black", "Event", "Zzz"}) {
      INFO(prefix);
      std::vector<std::string> under;
      for (const std::string& k : all)
        if (k.starts_with(prefix)) under.push_back(k);
      CHECK(directory_keys(*reader, prefix, Read::Read) == under);
    }
  }
  // a directory written for another game count (an index extended without it) is not used
  {
    auto writer = cqlindex::store::IndexStore::open_for_writing(idx, &error);
    REQUIRE(writer);
    REQUIRE(writer->replace_family(Family::TagKeys, cqlindex::store::directory_chunks(all, 1004), &error));
    REQUIRE(writer->finish(&error));
    auto reader = cqlindex::store::IndexStore::open_for_reading(idx, &error);
    REQUIRE(reader);
    directory_keys(*reader, "White", Read::Absent);
  }
  // a chunk that does not read is damage, named
  {
    auto writer = cqlindex::store::IndexStore::open_for_writing(idx, &error);
    REQUIRE(writer);
    REQUIRE(writer->replace_family(Family::TagKeys, {{"White", "\x80"}}, &error));
    REQUIRE(writer->finish(&error));
    auto reader = cqlindex::store::IndexStore::open_for_reading(idx, &error);
    REQUIRE(reader);
    error.clear();
    CHECK(reader->tag_keys("White", [](std::string_view) {}, &error) == Read::Failed);
    CHECK_THAT(error, Catch::Contains("is damaged") && Catch::Contains("tagkeys"));
    cqlindex::cql::similar::SubmissionFiles submissions;
    cqlindex::planner::Planner planner(*reader, 1005, submissions);
    CHECK_FALSE(planner.union_where(Family::Tags, "White", [](std::string_view) { return true; }));
    CHECK_THAT(planner.error(), Catch::Contains("tagkeys"));
  }
  directory_keys(index_without_directory(), "White", Read::Absent);
}

TEST_CASE("tag keys held, packed or streamed: a player test gives the same candidates and plan", "[planner][tags]") {
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
  const Planned none = planned("player \"No such player anywhere\"", Source::Directory);
  REQUIRE(none.candidates);
  CHECK(none.candidates->cardinality() < 1005);
}

TEST_CASE("tag keys held, packed or streamed: the other tag rules give the same candidates", "[planner][tags]") {
  const std::vector<std::string> queries = {
      "\"Olympiad\" in event", "event \"Hastings\"", "site == \"London\"", "eco \"B1\"", "eco \"b1\"",
      "\"1972\" in date",      "year > 1980",         "year == 1956",      "elo white > 2600",
      "elo black < 2000",      "result 1-0",          "result 1/2-1/2",    "flipcolor result 0-1",
  };
  check_same_as_family_read(queries);
}

TEST_CASE("tag keys held or packed: a name kept by few is read by point look-ups, one kept by most by the stream",
          "[planner][tags]") {
  // The filter's calls tell the ways apart: the held or packed keys are filtered once each; when too many are
  // kept, the family is then read as a stream and filtered again.
  const cqlindex::store::IndexStore& store = index_of(sample_1005());
  const auto [first, last] = held_keys().range("White");
  cqlindex::cql::similar::SubmissionFiles submissions;
  cqlindex::planner::Planner held(store, store.meta().game_count, submissions, &held_keys());
  cqlindex::planner::Planner packed(store, store.meta().game_count, submissions);
  cqlindex::planner::Planner read(index_without_directory(), store.meta().game_count, submissions);
  for (std::string_view text : {"Timman", "No such player", "a"}) {
    INFO(text);
    size_t held_calls = 0, packed_calls = 0, read_calls = 0;
    const auto counted = [&](size_t& calls) {
      return [&calls, text](std::string_view key) {
        ++calls;
        return key.find(text) != std::string_view::npos;
      };
    };
    auto with = held.union_where(Family::Tags, "White", counted(held_calls));
    auto from_directory = packed.union_where(Family::Tags, "White", counted(packed_calls));
    auto without = read.union_where(Family::Tags, "White", counted(read_calls));
    REQUIRE(with);
    REQUIRE(from_directory);
    REQUIRE(without);
    CHECK(*with == *without);
    CHECK(*from_directory == *without);
    CHECK(read_calls == last - first);
    CHECK(held_calls == (text == "a" ? 2 : 1) * (last - first));
    CHECK(packed_calls == (text == "a" ? 2 : 1) * (last - first));
  }
}
