// The parser's tags-only read (ParseOptions::tags_only): a clean game's tags, start position and (without a Result
// tag) result marker as the full read gives them, the root alone and no move replayed; a start the tags cannot give is unknown in both.
#include <catch2/catch.hpp>

#include "engine/pgn/game_parser.h"

using namespace cqlindex;

namespace {

pgn::Game parse(std::string_view text, bool tags_only) {
  pgn::Game g;
  pgn::ParseOptions options;
  options.tags_only = tags_only;
  pgn::parse_game(text, pgn::GameLocation{7, 100, 3, 1}, g, options);
  return g;
}

// The tags as "name=value" lines.
std::string tags_of(const pgn::Game& g) {
  std::string s;
  for (const pgn::Tag& t : g.tags) s += std::string(t.name) + "=" + std::string(t.value) + "\n";
  return s;
}

}  // namespace

TEST_CASE("parser: a tags-only read gives the tags, start and marker of the full read", "[pgn][parser]") {
  for (const char* text : {
           "[Event \"a\"]\n[White \"Kasparov\"]\n[Result \"1-0\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 {x} Nc6 1-0\n",
           "[White \"A \\\"B\\\"\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 b Q - 3 40\"]\n\n40... Kd7 41. O-O-O+ 1/2-1/2\n",
           "{before the tags}\n[Event \"no moves\"]\n\n*\n",
           "[Event \"no result tag\"]\n\n{1-0 is a comment} 1. d4 ; 0-1 too\nd5 0-1\n",
       }) {
    INFO(text);
    const pgn::Game full = parse(text, false), tags = parse(text, true);
    REQUIRE(full.errors.empty());
    CHECK(tags.errors.empty());
    CHECK(tags_of(tags) == tags_of(full));
    CHECK(tags.start.fen() == full.start.fen());
    CHECK(tags.custom_start == full.custom_start);
    CHECK(tags.start_known);
    if (!full.tag("Result")) {  // the marker is read only when no Result tag stands for it
      CHECK(tags.result == full.result);
      CHECK(tags.result_token == full.result_token);
    }
    CHECK(tags.number == 7);
    CHECK(tags.offset == 100);
    CHECK(tags.nodes.size() == 1);  // the root: no move replayed
    CHECK(tags.positions.size() == 1);
    CHECK(tags.comments.empty());
    CHECK(tags.nags.empty());
  }
}

TEST_CASE("parser: a start the tags cannot give is unknown in a tags-only read too", "[pgn][parser]") {
  for (const char* text : {"[FEN \"not a position\"]\n\n1. e4 1-0\n", "[Variant \"atomic\"]\n\n1. e4 1-0\n",
                           "[Event \"broken\n\n1. e4 1-0\n"}) {
    INFO(text);
    const pgn::Game full = parse(text, false), tags = parse(text, true);
    CHECK_FALSE(full.start_known);
    CHECK_FALSE(tags.start_known);
    CHECK(tags.status == full.status);
    CHECK(tags.errors.size() == full.errors.size());
  }
}
