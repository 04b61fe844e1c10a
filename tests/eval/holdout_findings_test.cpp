// Queries of the conformance hold-out sets that CQL 6.2 refuses: tag names close to a built-in tag, a '(' after
// a dash's targets, and `distance`/`lca` matched as a position filter (refused when evaluated). Each expectation
// was observed from CQL 6.2 build 9.493 on 2026-12-08 (`cql -threads 1 -i ... -o out.pgn query.cql`: exit 1
// with the message quoted here, no output file).
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "engine/cql/query.h"
#include "eval/lang_support.h"

using namespace cqlindex;
using test::lang_matches;

namespace {

const std::string kPlain = "[Event \"p\"]\n[Site \"s\"]\n[White \"Anderssen\"]\n[Round \"3\"]\n[Result \"*\"]\n\n"
                           "1. e4 e5 2. Nf3 Nc6 *\n\n";

// The message of the parse error of the body without the " (at 'TOKEN')" the parser adds, or "" when it parses.
std::string parse_error(const std::string& body) {
  try {
    cql::parse_query("cql()\n" + body + "\n");
  } catch (const cql::CqlError& e) {
    const std::string message = e.what();
    return message.substr(0, message.rfind(" (at '"));
  }
  return "";
}

// The message of the error that stops a run of the body on pgn, or "" when it runs.
std::string run_error(const std::string& body, const std::string& pgn) {
  try {
    test::run_query("cql()\n" + body + "\n", pgn);
  } catch (const cql::CqlError& e) {
    return e.what();
  }
  return "";
}

const std::string kClose =
    "CQL version 6.2 does not support using 'tag' or 'settag' with tag names that are close to built in tag names: ";

}  // namespace

TEST_CASE("tag refuses the names CQL 6.2 lists as close to a built-in tag, in CQL's spellings only",
          "[eval][conformance][holdout]") {
  // every case variant of event site date round white black result eco fen eventdate was tried: these are
  // the ones CQL 6.2 refuses
  for (const char* name : {"event", "EVENT", "site", "SITE", "date", "DATE", "Round", "ROUND", "white", "WHITE",
                           "black", "BLACK", "result", "Result", "RESULT", "eco", "Eco", "fen", "Fen", "eventdate",
                           "eventDate", "EVENTDATE"}) {
    INFO(name);
    CHECK(parse_error(std::string("tag \"") + name + "\"") == kClose + name);
  }
  // and these it reads: the built-in spellings, and the others as custom tags
  for (const char* name : {"Event", "Site", "Date", "White", "Black", "ECO", "FEN", "EventDate", "round", "eVENT",
                           "rESULT", "Eventdate", "PlyCount", "plycount", "Annotator", "Results", "ResultX", "1a"}) {
    INFO(name);
    CHECK(parse_error(std::string("tag \"") + name + "\"").empty());
  }
  CHECK(lang_matches("tag \"White\" == \"Anderssen\"", kPlain) == 1);
  CHECK(lang_matches("tag \"round\"", kPlain) == 0);  // a custom tag the game does not have
}

TEST_CASE("tag and settag names: letters, digits and underscores, not White... or Black...",
          "[eval][conformance][holdout]") {
  CHECK(parse_error("tag \"WhiteElo\"") ==
        "tag names that begin with the string 'White' or 'Black' cannot be used in this version of CQL here: WhiteElo");
  CHECK(parse_error("tag \"Blackx\"").rfind("tag names that begin with the string 'White' or 'Black'", 0) == 0);
  CHECK(parse_error("tag \"White_\"").rfind("tag names that begin with the string 'White' or 'Black'", 0) == 0);
  CHECK(parse_error("tag \"whiteelo\"").empty());
  CHECK(parse_error("tag \"Foo bar\"") == "tag names can only contain digits, letters, or underscores: Foo bar");
  CHECK(parse_error("tag \"White-x\"") == "tag names can only contain digits, letters, or underscores: White-x");
  CHECK(parse_error("tag \"_a1\"") == "tag name must start with a digit or letter: _a1");
  CHECK(parse_error("settag(\"Foo bar\" \"x\")") ==
        "tag names can only contain digits, letters, or underscores: Foo bar");
  // settag refuses the built-in spellings tag reads too
  CHECK(parse_error("settag(\"Site\" \"x\")") == kClose + "Site");
  CHECK(parse_error("settag(\"Round\" \"x\")") == kClose + "Round");
  CHECK(parse_error("settag(\"round\" \"x\")").empty());
  // the error names the tag name's line and column
  try {
    cql::parse_query("cql()\ncheck\n  tag \"Result\"\n");
    FAIL("parsed");
  } catch (const cql::CqlError& e) {
    CHECK(e.line == 3);
    CHECK(e.column == 7);
  }
}

TEST_CASE("a '(' after a dash's targets is refused outside a path", "[eval][conformance][holdout]") {
  const std::string message =
      "There is a '(' character immediately following a -- filter. This might not be an error, but it might "
      "indicate that it begins a target specification for the -- filter, and whitespace was inadvertently "
      "included between the end of the -- filter and the beginning of the intended target filter.";
  for (const char* body : {"--f5-6=A(q)(check)", "--f5(q)(check)", "--(q)(check)", "--e4(check) (check)",
                           "e2--e4(check)(q)", "[x]e4(check)(q)", "not --(q)(check)", "x = --(q) (check)",
                           "line --> --(q) (check)", "echo (s t) --(q) (check)"}) {
    INFO(body);
    CHECK(parse_error(body) == message);
  }
  // CQL 6.2 reads these
  for (const char* body : {"--f5-6=A(q)", "--f5-6=A(q) check", "path --(q)(check)", "path --(check) (check)",
                           "{--e4(check)} (check)", "(--e4(check)) (check)", "move from e2 (check)"}) {
    INFO(body);
    CHECK(parse_error(body).empty());
  }
  CHECK(parse_error("--f5-6=A (q)") ==
        "There must be no whitespace between the '--' filter and the '(' which begins the target specification");
  CHECK(lang_matches("--f5(q)", kPlain) == 0);
  CHECK(lang_matches("--(q)", kPlain) == 1);
}

TEST_CASE("distance and lca matched as a position filter stop the run where they are evaluated",
          "[eval][conformance][holdout]") {
  const std::string distance = "attempt to match position of distance filter. Although legal, this is likely an error";
  const std::string lca = "attempt to match position of LCA filter. Although legal, this is likely an error";
  for (const char* body : {"distance(parent child)", "not distance(parent child)", "{distance(parent child)}",
                           "wtm or distance(parent child)", "if distance(parent child) then wtm",
                           "--(distance(parent child))", "distance(currentposition currentposition)"}) {
    INFO(body);
    CHECK(run_error(body, kPlain) == distance);
  }
  for (const char* body : {"lca(parent child)", "not not lca(parent child)", "line --> lca(parent child)",
                           "echo (s t) lca(s t)", "find lca(parent child)"}) {
    INFO(body);
    CHECK(run_error(body, kPlain) == lca);
  }
  // values are not matched, and a filter never evaluated never stops the run
  CHECK(lang_matches("mate distance(parent child)", kPlain) == 0);
  CHECK(lang_matches("distance(parent child) > -1", kPlain) == 1);
  CHECK(lang_matches("x = distance(parent child)", kPlain) == 1);
  CHECK(lang_matches("comment(distance(parent child))", kPlain) == 1);
  CHECK(lang_matches("sort distance(parent child)", kPlain) == 1);
  CHECK(lang_matches("echo (s t) distance(s t)", kPlain) == 1);
  CHECK(lang_matches("lca(parent child) : wtm", kPlain) == 1);
  try {
    test::run_query("cql()\nwtm\n  distance(parent child)\n", kPlain);
    FAIL("ran");
  } catch (const cql::CqlError& e) {
    CHECK(e.line == 3);
    CHECK(e.column == 3);
  }
}
