// Rare forms, done as CQL 6.2 does them: `move previous ... comment`, `move legal ... comment`, sort of a position,
// a dash's promotion by any string filter (and what it refuses), and what a legal dash refuses.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "engine/cql/printer.h"
#include "eval/eval_support.h"

using namespace cqlindex;

namespace {

std::string fen_game(const std::string& fen, const std::string& moves) {
  return "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n" + moves + "\n\n";
}

const std::string kOpening = "[Event \"o\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n";

// Three games from one position (Black's knight on d8): 1.exd8=Q, 1.exd8=N and 1.Kd2 (no promotion).
const std::string kPromotions = fen_game("3n4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. exd8=Q *") +
                                fen_game("3n4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. exd8=N *") +
                                fen_game("3n4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. Kd2 *");

uint64_t count(const std::string& body, const std::string& pgn) {
  return test::run_query("cql()\n" + body + "\n", pgn).matches;
}

// The error the query's parse raises (message "" when it parses): its message starts with CQL 6.2's wording and
// ends with where it was seen, at a 1-based line and column.
struct Refusal {
  std::string message;
  int line = 0, column = 0;
};
Refusal refusal(const std::string& query) {
  try {
    cql::parse_query(query);
  } catch (const cql::CqlError& e) {
    return {e.what(), e.line, e.column};
  }
  return {};
}
bool says(const Refusal& r, const std::string& message) { return r.message.rfind(message, 0) == 0; }

const char* kPromotionNotPure =
    "The promoted piece type, if it is a piece designator, must be a piece name or a set of piecenames, e.g. '(R)' "
    "or '([RB])'";
const char* kPromotionNotString = "expected either a piece designator or a string filter as a promotion type specifier";
const char* kLegalTarget =
    "The target, if any, following 'legal --' must be one of o-o, o-o-o, castle, or enpassant. Either promotion was "
    "specified in the -- filter, or an unsupported target filter type was used with 'legal/pseudolegal'";
const char* kLegalTargetType =
    "Invalid target type for 'legal' or 'pseudolegal'. The only allowed targets after 'legal --- (target)' are at "
    "most one of 'o-o', 'o-o-o', 'castle', and 'enpassant'";

}  // namespace

TEST_CASE("move previous comment: written at the position the move led to, this one", "[eval][rare]") {
  // CQL 6.2 movebase.cpp: the comment is evaluated at the move's tail; for `previous` that is the current position
  auto r = test::run_query("cql()\nmove previous from N comment (\"ply \" ply)\n", kOpening);
  CHECK(r.matches == 1);
  CHECK(r.output.find("1.e4 e5 2.Nf3 {ply 3 CQL} 2...Nc6 3.Bb5 *") != std::string::npos);
  // the same text where `move from N comment` (the move played from the position before) puts it
  r = test::run_query("cql()\nmove from N comment (\"ply \" ply)\n", kOpening);
  CHECK(r.output.find("1.e4 e5 {CQL} 2.Nf3 {ply 3} 2...Nc6 3.Bb5 *") != std::string::npos);
  // with its parameters read before the move: the knight stood on g1
  r = test::run_query("cql()\nmove previous from Ng1 comment (\"from g1\")\n", kOpening);
  CHECK(r.output.find("2.Nf3 {from g1 CQL}") != std::string::npos);
  // no comment where the move does not pass
  r = test::run_query("cql()\nmove previous from Ng1 to c3 comment (\"x\")\n", kOpening);
  CHECK(r.matches == 0);
  // the move passes but the position fails later: the comment goes with it
  r = test::run_query("cql()\nmove previous from N comment (\"x\") check\n", kOpening);
  CHECK(r.matches == 0);
}

TEST_CASE("move legal comment: the comment is a filter of its own, at the current position", "[eval][rare]") {
  // CQL 6.2 move-parse.cpp takes `comment` into `move` only without legal and pseudolegal: after them it is the
  // next filter, evaluated here (not at a position a legal move would lead to)
  for (const char* kind : {"legal", "pseudolegal"}) {
    auto r = test::run_query(std::string("cql()\nply == 4 move ") + kind + " from N to c3 comment (\"ply \" ply)\n",
                             kOpening);
    CHECK(r.matches == 1);
    CHECK(r.output.find("2.Nf3 Nc6 {ply 4 CQL} 3.Bb5") != std::string::npos);
  }
  // the same as the two filters written apart
  CHECK(test::run_query("cql()\nply == 4 move legal from N to c3 comment (\"ply \" ply)\n", kOpening).output ==
        test::run_query("cql()\nply == 4 {move legal from N to c3} comment (\"ply \" ply)\n", kOpening).output);
}

TEST_CASE("sort of a position is refused, as CQL 6.2's parser does", "[eval][rare][sort]") {
  // CQL 6.2 sort-parse.cpp: the argument must be numeric, a set or a string
  const char* message = "Unable to get numeric or set filter or string filter in argument to 'sort'";
  Refusal r = refusal("cql()\ncheck\n  sort currentposition\n");
  CHECK(says(r, message));
  CHECK(r.line == 3);
  CHECK(r.column == 3);
  CHECK(says(refusal("cql() sort parent"), message));
  CHECK(says(refusal("cql() sort \"where\" find check"), message));
  CHECK(says(refusal("cql() x = currentposition sort x"), message));
  // a position id is a number; find with a range counts
  CHECK(count("sort positionid", kOpening) == 1);
  CHECK(count("sort find 1 100 check", kOpening) == 0);
}

TEST_CASE("dash promotion by a string filter: its letters, read before the move", "[eval][rare][moves]") {
  CHECK(count("--=Q", kPromotions) == 1);
  CHECK(count("--=(N)", kPromotions) == 1);      // a parenthesized designator
  CHECK(count("--=([QN])", kPromotions) == 2);
  CHECK(count("--=\"N\"", kPromotions) == 1);
  CHECK(count("--=\"q\"", kPromotions) == 1);    // either case
  CHECK(count("--=\"QN\"", kPromotions) == 2);   // any letter of the string
  CHECK(count("--=\"queen\"", kPromotions) == 2);  // q and n are letters of "queen" (CQL 6.2 pastmovenode.cpp)
  CHECK(count("--=\"R\"", kPromotions) == 0);
  CHECK(count("--=\"xyz\"", kPromotions) == 0);  // no piece letter
  CHECK(count("--=\"\"", kPromotions) == 2);     // the empty string: any promotion
  CHECK(count("--=\".\"", kPromotions) == 2);
  CHECK(count("--=.", kPromotions) == 2);        // `.` stands for the empty string
  CHECK(count("--=(\"Q\" + \"\")", kPromotions) == 1);  // any string filter
  CHECK(count("T = \"N\" --=T", kPromotions) == 1);
  // read in the position before the move: d8 holds Black's knight there (after exd8=Q it holds a queen)
  CHECK(count("--=(typename d8)", kPromotions) == 1);
  CHECK(test::run_query("cql()\n--=(typename d8)\n", kPromotions).output.find("exd8=N") != std::string::npos);
  CHECK(count("e7[x]d8=\"N\"", kPromotions) == 1);  // a capture dash takes one too
  // with a target after the promotion; countmoves of a played dash
  CHECK(count("e7--d8=\"Q\"(check)", kPromotions) == 0);
  CHECK(count("e7--d8=\"Q\"(not check)", kPromotions) == 1);
  CHECK(count("(countmoves --=\"N\") == 1", kPromotions) == 1);
}

TEST_CASE("dash promotion: what CQL 6.2's parser refuses after the '='", "[eval][rare][moves]") {
  Refusal r = refusal("cql()\ne7--e8=Qe8\n");
  CHECK(says(r, kPromotionNotPure));
  CHECK(r.line == 2);
  CHECK(r.column == 7);  // the '='
  CHECK(says(refusal("cql() --=e8"), kPromotionNotPure));  // squares only
  CHECK(says(refusal("cql() --=3"), kPromotionNotString));
  CHECK(says(refusal("cql() --=check"), kPromotionNotString));
  CHECK(says(refusal("cql() x = a1 --=x"), kPromotionNotString));  // a set variable
  CHECK(says(refusal("cql() --=Q and check"), kPromotionNotString));  // `=` takes a whole filter, as CQL's
  CHECK(says(refusal("cql() --="), kPromotionNotString));
}

TEST_CASE("legal dash: only castle, o-o, o-o-o or enpassant as its one target, no promotion, no capture",
          "[eval][rare][moves]") {
  Refusal r = refusal("cql()\nlegal e7--e8=Q\n");
  CHECK(says(r, kLegalTarget));
  CHECK(r.line == 2);
  CHECK(r.column == 1);  // the 'legal'
  CHECK(says(refusal("cql() pseudolegal --=\"Q\""), kLegalTarget));
  CHECK(says(refusal("cql() countmoves legal --=Q"), kLegalTarget));
  CHECK(says(refusal("cql() legal --(check)"), kLegalTarget));
  CHECK(says(refusal("cql() legal --(o-o castle)"), kLegalTarget));  // more than one target
  CHECK(says(refusal("cql() legal --(nullmove)"), kLegalTargetType));
  CHECK(says(refusal("cql() legal --(primary)"), kLegalTargetType));
  CHECK(says(refusal("cql() countmoves pseudolegal --(secondary)"), kLegalTargetType));
  const char* capture =
      "'legal' and 'pseudolegal' are not supported with capturing dashnodes '[x]'. Use normal -- instead if possible.";
  CHECK(says(refusal("cql() legal [x]"), capture));
  CHECK(says(refusal("cql() countmoves legal N[x]"), capture));
  // what stays: the castling and en passant targets, and everything on a played dash
  const std::string castles = fen_game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "1. Kf1 *");
  CHECK(count("wtm legal --(o-o)", castles) == 1);
  CHECK(count("wtm countmoves legal --(castle) == 2", castles) == 1);
  CHECK(count("wtm countmoves pseudolegal K--(o-o-o) == 1", castles) == 1);
  CHECK(count("wtm legal --(enpassant)", castles) == 0);
  CHECK(count("--(not check)", castles) == 1);
  CHECK(count("(countmoves --=Q) == 0", castles) == 1);
  // `=` reads a whole filter: here `Q == 0`, refused (as by CQL 6.2, whose match_node reads it too)
  CHECK_THROWS_AS(cql::parse_query("cql() countmoves --=Q == 0"), cql::CqlError);
}

TEST_CASE("countmoves of a played dash counts the moves whose targets hold", "[eval][rare][moves]") {
  // CQL 6.2 dashnode.cpp (computeCount): a move counts when the target matches at the position after it
  const std::string g =
      "[Event \"v\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# (4. Qxe5+ Nxe5) (4. Nf3) 1-0\n\n";
  CHECK(test::run_query("cql(variations)\nply == 6 countmoves -- == 3\n", g).matches == 1);
  CHECK(test::run_query("cql(variations)\nply == 6 countmoves --(check) == 2\n", g).matches == 1);
  CHECK(test::run_query("cql(variations)\nply == 6 countmoves Q--(mate) == 1\n", g).matches == 1);
  CHECK(test::run_query("cql(variations)\nply == 6 countmoves --(stalemate) == 0\n", g).matches == 1);
}

TEST_CASE("a number right after sort is refused, and so is a min or max sort of an echo", "[eval][rare][sort]") {
  // CQL 6.2 (sort-parse.cpp) refuses a bare number as what `sort` sorts ("ranges are no longer supported in
  // 'sort'"), and so do we (issue 15, repro B20-1, set-A q00075); a relation starting with a number is fine
  // (q00153). As CQL 6.2 we also refuse `sort min` (and max, which it reads as min) of an echo (repro-2 R13).
  CHECK_THROWS_WITH(cql::parse_query("cql()\nsort 3\n"), Catch::Contains("ranges are no longer supported in 'sort'"));
  CHECK_THROWS_WITH(cql::parse_query("cql()\nsort min \"d\" 3\n"), Catch::Contains("saw a number with value: 3"));
  CHECK_THROWS_WITH(cql::parse_query("cql()\nsort \"d\" (3)\n"), Catch::Contains("saw a number with value: 3"));
  CHECK(count("sort \"d\" 0 <= 6", kOpening) == 1);  // a relation: accepted (set-A q00153: `sort "v58" 0 >= 6`)
  CHECK(count("sort { 3 }", kOpening) == 1);
  CHECK_THROWS_WITH(cql::parse_query("cql()\nsort min \"d\" echo (s t) {s < t  ply}\n"),
                    Catch::Contains("min sorting is not supported with an echo filter"));
  CHECK_THROWS_WITH(cql::parse_query("cql()\nsort max \"d\" {echo (s t) {s < t  ply}}\n"),
                    Catch::Contains("min sorting is not supported with an echo filter"));
  CHECK(count("sort \"d\" echo (s t) {s < t  ply}", kOpening) == 1);
  const auto r = test::run_query("cql()\nsort \"d\" echo (s t) {s < t  ply}\n", kOpening);
  CHECK(r.output.find("d: ") != std::string::npos);
}

TEST_CASE("dash promotion by a filter prints back to the same tree", "[eval][rare][moves]") {
  for (const char* body : {"--=(\"Q\" + \"\")", "--=.", "--=(typename d8)(check)", "T = \"N\" e7--d8=T(not check)",
                           "--=([QN]) ply"}) {
    INFO(body);
    cql::Query q = cql::parse_query(std::string("cql()\n") + body + "\n");
    cql::Query again = cql::parse_query(cql::print_cql(q));
    CHECK(cql::print_canonical(again) == cql::print_canonical(q));
  }
}
