// One test per planner rule on a hand-made PGN whose games each show one fact (a mate, a promotion, a tag...):
// the candidates must be exactly the games that can match (or, where a rule is conservative by design,
// the stated superset), and constructs the index cannot decide must fall back to all games.
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/similar/submission_files.h"
#include "planner_fixture.h"

using namespace planner_test;

namespace {

// 1: Kasparov-Karpov, scholar's mate (check, mate), 1-0, 1985
// 2: Carlsen-Anand, O-O, draw, 2013 (names written "Carlsen,M." / "Anand,V.")
// 3: a8=Q+ from a FEN (promotion, check), 1-0, 1999
// 4: no White tag, en passant, result *
// 5: stalemate from a FEN, draw, date unknown
// 6: O-O-O for both sides, result * (tag) but termination marker 0-1
const char* kGames = R"([Event "World Ch"]
[Site "Moscow"]
[Date "1985.10.15"]
[White "Kasparov, Garry"]
[Black "Karpov, Anatoly"]
[Result "1-0"]
[ECO "C20"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "Casual"]
[Date "2013.??.??"]
[White "Carlsen,M."]
[Black "Anand,V."]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 1/2-1/2

[Event "Study"]
[Date "1999.01.01"]
[White "Composer"]
[Black "?"]
[Result "1-0"]
[SetUp "1"]
[FEN "8/P7/8/8/8/8/k7/7K w - - 0 1"]

1. a8=Q+ Kb2 1-0

[Event "Blitz"]
[Black "Nobody"]
[Result "*"]

1. e4 a6 2. e5 d5 3. exd6 *

[Event "Stalemate"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "k7/8/1Q6/8/8/8/8/7K w - - 0 1"]

1. Qc7 1/2-1/2

[Event "Long"]
[White "C"]
[Black "D"]
[Result "*"]

1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O 0-1

)";

const std::string& sample() {
  static const std::string path = pgn_file(kGames);
  return path;
}

std::optional<std::vector<uint32_t>> plan(const std::string& body) {
  return candidates(sample(), "cql(input x.pgn)\n" + body);
}

using V = std::vector<uint32_t>;

}  // namespace

TEST_CASE("flags: mate, stalemate, check", "[planner][rules]") {
  CHECK(plan("mate") == V{1});
  CHECK(plan("stalemate") == V{5});
  CHECK(plan("check") == V{1, 3});
  CHECK(plan("wtm") == std::nullopt);  // not recorded: all games
}

TEST_CASE("moves: promotion, castling, en passant", "[planner][rules]") {
  CHECK(plan("move promote Q") == V{3});
  CHECK(plan("move promote N") == V{});
  CHECK(plan("move promote [QN]") == V{3});
  CHECK(plan("move castle") == V{2, 6});
  CHECK(plan("move o-o-o") == V{6});
  CHECK(plan("move o-o") == V{2});
  CHECK(plan("flip move o-o") == V{2, 6});  // a mirrored board may swap the sides: both kept
  CHECK(plan("move enpassant") == V{4});
  CHECK(plan("move legal enpassant") == std::nullopt);  // legal moves need not be played
}

TEST_CASE("piece on square and its transforms", "[planner][rules]") {
  CHECK(plan("Qa8") == V{3});
  CHECK(plan("Ra1") == V{1, 2, 4, 6});
  CHECK(plan("Ra8") == V{});
  CHECK(plan("flipcolor Qa8") == V{3});           // Qa8 or qa1
  CHECK(plan("flipcolor qa1") == V{3});
  CHECK(plan("Qc7") == V{5});
  CHECK(plan("flip Qh7") == V{});                 // h7 and its 7 images: no queen ever there
  CHECK(plan("flip Qf7") == V{1, 5});             // f7 (game 1), its images c7 and b6 (game 5)
  CHECK(plan("shift Qh1") == V{1, 2, 3, 4, 5, 6}); // a shifted square may be any square: every game with a Q
  CHECK(plan("e4") == std::nullopt);             // a square set is never empty
  CHECK(plan("_e4") == std::nullopt);            // empty squares are not indexed
}

TEST_CASE("material at one position", "[planner][rules]") {
  CHECK(plan("Q == 1 and q == 0") == V{3, 5});
  CHECK(plan("{Q == 1 q == 0}") == V{3, 5});
  CHECK(plan("flipcolor {Q == 0 q == 1}") == V{3, 5});
  CHECK(plan("{Q == 0 q == 1}") == V{});
  CHECK(plan("#P >= 9") == V{});
  CHECK(plan("[Aa] == 3") == V{3, 5});            // kings count one each
  CHECK(plan("power a == 0") == V{3, 5});         // only a king: power 0
  CHECK(plan("#Pa-h7 >= 1") == V{3});             // part of the board, at least one: the piece-square rule
  CHECK(plan("#Pa-h2 >= 8") == V{1, 2, 4, 6});    // part of the board: a lower bound on the whole count
  CHECK(plan("#Pa-h7 <= 0") == std::nullopt);     // says nothing about the whole board
  CHECK(plan("#P == #p") == std::nullopt);        // two counts: not bounded
}

TEST_CASE("logic: and, or, not, if", "[planner][rules]") {
  CHECK(plan("mate or stalemate") == V{1, 5});
  CHECK(plan("check and move promote Q") == V{3});
  CHECK(plan("mate or wtm") == std::nullopt);     // one branch unbounded: the union is all games
  CHECK(plan("not mate") == std::nullopt);
  CHECK(plan("check and not mate") == V{1, 3});   // the negated part is dropped, the rest still bounds
  CHECK(plan("if mate then check else stalemate") == V{1, 5});
  CHECK(plan("if mate check") == std::nullopt);
}

TEST_CASE("tags: player, event, site, eco, date, year, result", "[planner][rules]") {
  CHECK(plan("player \"Kasparov\"") == V{1, 4});  // 4 has no White tag: kept
  CHECK(plan("player white \"Carlsen, M\"") == V{2, 4});  // CQL's normalised name; 4 has no White tag
  CHECK(plan("player black \"Karpov\"") == V{1});
  CHECK(plan("flipcolor player white \"Karpov\"") == V{1, 4});
  CHECK(plan("event \"Ch\"") == V{1});
  CHECK(plan("site \"Mos\"") == V{1, 2, 3, 4, 5, 6});  // only game 1 has a Site: every other is kept
  CHECK(plan("eco \"C2\"") == V{1, 2, 3, 4, 5, 6});
  CHECK(plan("\"World\" in event") == V{1});
  CHECK(plan("event == \"Casual\"") == V{2});
  CHECK(plan("year < 1990") == V{1});
  CHECK(plan("year >= 1990") == V{2, 3});
  CHECK(plan("result 1-0") == V{1, 3});
  CHECK(plan("result 0-1") == V{6});              // the termination marker counts
  CHECK(plan("flipcolor result 0-1") == V{1, 3, 6});
}

TEST_CASE("year: `!=` holds where the Date gives no year", "[planner][rules]") {
  // 1: 2000; 2: "????.??.??"; 3: no Date tag; 4: empty; 5: "200x" (no year to the evaluator, 200 to CQL 6.2);
  // 6: 1999. `year` has no value in 2-5 (5: by one reading), so `year != N` holds there, whatever N.
  std::string text;
  for (const char* date : {"[Date \"2000.01.01\"]\n", "[Date \"????.??.??\"]\n", "", "[Date \"\"]\n",
                           "[Date \"200x.01.01\"]\n", "[Date \"1999.12.31\"]\n"})
    text += std::string("[White \"A\"]\n") + date + "[Result \"*\"]\n\n1. e4 *\n\n";
  const std::string dates = pgn_file(text);
  auto year = [&](const std::string& body) { return candidates(dates, "cql(input x.pgn)\n" + body); };
  CHECK(year("year != 2000") == V{2, 3, 4, 5, 6});
  CHECK(year("year != 1999") == V{1, 2, 3, 4, 5});
  CHECK(year("year != 200") == V{1, 2, 3, 4, 5, 6});
  CHECK(year("year == 2000") == V{1});
  CHECK(year("year < 2000") == V{5, 6});  // 5: 200 by CQL 6.2's reading
  CHECK(year("year >= 1999") == V{1, 6});
  CHECK(year("flipcolor year != 2000") == V{2, 3, 4, 5, 6});
}

TEST_CASE("header: gamenumber, result, matchcount, variations", "[planner][rules]") {
  CHECK(candidates(sample(), "cql(input x.pgn gamenumber 2 3) check") == V{3});
  CHECK(candidates(sample(), "cql(input x.pgn result 1-0) move promote Q") == V{3});
  CHECK(candidates(sample(), "cql(input x.pgn matchcount 0 1) mate") == std::nullopt);
  CHECK(candidates(sample(), "cql(input x.pgn matchcount 1 2) mate") == V{1});
  CHECK(candidates(sample(), "cql(input x.pgn variations) mate") == std::nullopt);
  CHECK(candidates(sample(), "cql(input x.pgn variations) mate result 1-0") == V{1, 3});
}

TEST_CASE("explain names the rules, families and fallbacks", "[planner][explain]") {
  cqlindex::planner::PlanReport report;
  candidates(sample(), "cql(input x.pgn) flipcolor {Q == 1 q == 0} player \"Kasparov\" not mate", &report);
  const std::string text = cqlindex::planner::format_plan(report);
  INFO(text);
  CHECK(text.find("material") != std::string::npos);
  CHECK(text.find("(tags)") != std::string::npos);
  CHECK(text.find("negation") != std::string::npos);
  CHECK(text.find("candidates: 0 of 6 games") != std::string::npos);
}

TEST_CASE("similarposition: canonical keys of the submissions' positions", "[planner][rules]") {
  // game 5's start, mirrored left-right (pawnless: similar under the 8 symmetries)
  const std::string mirrored = pgn_file("[White \"s\"]\n[Black \"t\"]\n[Result \"*\"]\n[SetUp \"1\"]\n"
                                        "[FEN \"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"]\n\n*\n\n");
  CHECK(plan("similarposition \"" + mirrored + "\"") == V{5});
  CHECK(plan("similarposition notransform \"" + mirrored + "\"") == V{5});  // a superset of identical boards
  // a game from the standard start: its root is in every game from the standard start
  const std::string opening = pgn_file("[White \"s\"]\n[Black \"t\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n");
  CHECK(plan("similarposition \"" + opening + "\"") == V{1, 2, 4, 6});
  CHECK(plan("flipcolor similarposition \"" + opening + "\"") == std::nullopt);
  CHECK(plan("similarposition \"/nonexistent/file.pgn\"") == std::nullopt);
}

TEST_CASE("similarposition: the planner reads the run's submission database, not the file again", "[planner][rules]") {
  const std::string file = pgn_file("[White \"s\"]\n[Black \"t\"]\n[Result \"*\"]\n[SetUp \"1\"]\n"
                                    "[FEN \"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"]\n\n*\n\n");
  const std::string query = "cql(input x.pgn)\nsimilarposition \"" + file + "\"\n";
  cqlindex::cql::Query q = cqlindex::cql::parse_query(query);
  cqlindex::cql::eval::EvalOptions options;
  options.submissions = std::make_shared<cqlindex::cql::similar::SubmissionFiles>();
  cqlindex::cql::eval::Program program = cqlindex::cql::eval::compile(q, options);  // reads the file
  REQUIRE(options.submissions->files().size() == 1);
  fs::remove(file);  // gone: only the database compile read can bound the query now
  auto set = cqlindex::planner::plan_candidates(q, index_of(sample()), nullptr, options.submissions.get());
  REQUIRE(set);
  CHECK(set->cardinality() == 1);
  CHECK(set->contains(4));  // game 5
  CHECK(options.submissions->files().size() == 1);
  // without it (explain), the planner reads the file itself: now unreadable, so all games
  CHECK(plan("similarposition \"" + file + "\"") == std::nullopt);
}

TEST_CASE("tags family: values, missing tags and the termination marker", "[planner][tags]") {
  using cqlindex::store::keys::tag_key;
  using cqlindex::store::keys::TagKeyKind;
  const auto& store = index_of(sample());
  auto games = [&](const std::string& key) {
    std::string error;
    auto list = store.postings(cqlindex::store::Family::Tags, key, &error);
    REQUIRE(list);
    std::vector<uint32_t> ids;
    for (uint32_t id : list->bits()) ids.push_back(id + 1);
    return ids;
  };
  CHECK(games(tag_key("White", "Kasparov, Garry")) == V{1});
  CHECK(games(tag_key("White", "Carlsen,M.")) == V{2});  // raw values: the planner's tests allow for CQL's reading
  CHECK(games(tag_key("White", TagKeyKind::Missing)) == V{4});
  CHECK(games(tag_key("Site", TagKeyKind::Missing)) == V{2, 3, 4, 5, 6});
  CHECK(games(tag_key("Result", "*")) == V{4, 6});
  CHECK(games(tag_key("Result", TagKeyKind::Marker, "0-1")) == V{6});
  CHECK(games(tag_key("Event", std::string(300, 'x'))) == V{});  // a long value is kept truncated, never whole
}

TEST_CASE("find: its filter must hold somewhere", "[planner][rules]") {
  CHECK(plan("find mate") == V{1});
  CHECK(plan("find <-- move promote Q") == V{3});
  CHECK(plan("find quiet stalemate") == V{5});
  CHECK(plan("find all mate") == std::nullopt);
  CHECK(plan("find 0 1 mate") == std::nullopt);
}

TEST_CASE("elo: the Elo tags, unrated games kept", "[planner][rules]") {
  const std::string rated = pgn_file(
      "[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2100\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
      "[White \"C\"]\n[Black \"D\"]\n[WhiteElo \"1800\"]\n[BlackElo \"1900\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
      "[White \"E (2500)\"]\n[Black \"F\"]\n[WhiteElo \"?\"]\n[BlackElo \"1500\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
      "[White \"G\"]\n[Black \"H\"]\n[Result \"*\"]\n\n1. e4 *\n\n");
  auto elo = [&](const std::string& body) { return candidates(rated, "cql(input x.pgn)\n" + body); };
  CHECK(elo("elo white >= 2600") == V{1, 3, 4});  // 3: "?" and a rating after the name; 4: no Elo tags
  CHECK(elo("elo black > 2000") == V{1, 4});
  CHECK(elo("flipcolor elo white > 2000") == V{1, 3, 4});
  CHECK(elo("elo >= 2000") == V{1, 3, 4});
  CHECK(elo("elo < 1850") == V{2, 3, 4});
}

TEST_CASE("elo: a rating that is not a whole number is no rating, and `!=` holds", "[planner][rules]") {
  // the evaluator reads no number from "2700 " or "2700x" (it reads the whole value): `elo white != 2700`
  // holds in games 2 and 3
  const std::string odd = pgn_file(
      "[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2700\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
      "[White \"C\"]\n[Black \"D\"]\n[WhiteElo \"2700 \"]\n[BlackElo \"2700\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
      "[White \"E\"]\n[Black \"F\"]\n[WhiteElo \"2700x\"]\n[BlackElo \"2700\"]\n[Result \"*\"]\n\n1. e4 *\n\n");
  auto elo = [&](const std::string& body) { return candidates(odd, "cql(input x.pgn)\n" + body); };
  CHECK(elo("elo white != 2700") == V{2, 3});
  CHECK(elo("elo black != 2700") == V{});
  CHECK(elo("elo white == 2700") == V{1, 2, 3});  // 2, 3: unrated sides are kept whatever the comparison
}

TEST_CASE("line: required constituents", "[planner][rules]") {
  CHECK(plan("line --> check --> mate") == V{1});
  CHECK(plan("line --> wtm --> Qa8") == V{3});
  CHECK(plan("line --> check* --> stalemate") == V{5});       // check* may match nothing
  CHECK(plan("line --> check{1,2} --> wtm") == V{1, 3});
  CHECK(plan("line --> (check --> btm)+") == V{1, 3});
  CHECK(plan("line --> mate? --> wtm") == std::nullopt);
  CHECK(plan("line 0 3 --> mate") == std::nullopt);
}
