// The printer in every position: a filter of each node kind, printed inside each construct that takes a
// filter (a path constituent, a dash target, after a path's range, under not, in a line, in a loop, ...), must
// read back as the same tree. Nine fuzz findings were printer bugs of this shape (a filter correct alone,
// misread where it stood: a range number before '.', a dash target read as the next constituent); this test
// walks the whole grid instead of waiting for the fuzzer to stumble on the next cell (the printer of 00c0020,
// before the eighth and ninth fixes, fails 9 of its cells).
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "engine/cql/error.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"

using namespace cqlindex::cql;

namespace {

// One or more filters of (together) every node kind a query can spell; a few declare what they use.
const std::vector<std::string> kFilters = {
    // literals, designators, logic
    "9", "\"Z\"", "A", "_", "a-h1-8", "Ka1", "[Aa]", ".", "[]", "true", "false", "white", "{ b N }",
    "check and mate", "check or mate", "not check", "if wtm then A else a", "if check then mate",
    // sets and relations
    "K | r[g8]", "A & B", "~A", "~.", "[a3,b3] in []", "event \"Open\"", "\"a\" in \"abc\"", "N attacks k",
    "N -> k", "Q -> r -> k", "k attackedby Q", ". <- Q", "ray attack (Q k)", "between (a1 h8)", "ray up (P p)",
    "xray ([QR] [g7])", "pin", "pin to _", "pin from A", "pin through A", "dark B", "light K", "up 1 Q",
    "up 0 2 N", "right 1 Q", "diagonal K", "orthogonal 2 R", "from", "to", "enpassantsquare",
    "makesquare (3 5)", "square x in A attacks x", "square all x in {_ attackedby k} {B attacks x}",
    "piece y in [f2,f3] N", "piece $a1r = R[a1]", "position 0 & parent",
    // arithmetic, comparison, strings
    "5 + 7 > 3", "#A * 5 < 9", "- #n < 0", "\"a\" + \"b\" == \"ab\"", "8 != 0", "a == _", "#\"Carlsen\" > 1",
    "abs 2 == 2", "sqrt positionid > 1", "max (8 0) > min (1 2)", "power A > power a", "type K[e1] == 1",
    "file K == rank k", "\"abc\"[1] == \"b\"", "\"abc\"[1:2] == \"b\"", "eco ~~ \"^C\"", "\"RBNQ\" ~~ \".\" \\0 == \"R\"",
    "indexof (\"b\" \"abc\") > 0", "uppercase \"AbC\" == \"ABC\"", "lowercase \"A\" == \"a\"", "int \"7\" > 1",
    "ascii 73 == \"I\"", "str (ply) == \"3\"", "str (8 \"x\") == \"8x\"", "readfile \"in.txt\" == \"\"",
    "writefile (\"out.txt\" \"a\")",
    // position state, game information
    "btm", "mate", "try", "ply > 3", "year < 2000", "pathcount > 1", "result 1-0", "tag \"White\" == \"X\"",
    "eco == \"B\"", "settag (\"A\" \"b\")", "player white \"K\"", "elo white > 2000", "fen == \"\"",
    "hascomment", "originalcomment ~~ \"eval\"", "o-o", "castle", "primary", "removecomment", "passedpawns",
    // positions and navigation
    "currentposition", "initialposition", "parent", "child (1)", "position 1", "parent : check",
    "lca (parent currentposition)", "distance (parent child) > 0", "ancestor (parent currentposition)",
    "descendant (currentposition parent)", "parent [<] child", "currentposition [<=] position 0",
    "parent == currentposition", "echo (s t) { s & t == . }", "equal (parent child)",
    // moves
    "move", "move from K", "move to . capture q", "move null", "move legal count from N > 1", "--", "k--",
    "--.", "legal N--[BN][a8]", "[x]P", "Q--R=N", "countmoves legal -- > 2", "previous Q--",
    // sequences
    "line --> mate", "line 3 --> Q", "line --> check{2} --> mate", "line --> check+ --> (wtm --> btm)?",
    "path nestban -- check {5,}", "path [g2]-- {castle} ? --.", "path focus capture A R[x][f8]",
    "path p--=\"R\" P--=\"R\" {primary}", "path (-- --){1,3} -- check", "pathstart", "path 2 3 {~a1} check",
    // search, loops, echo
    "find 2 P", "find all check", "find <-- check", "loop { check }", "while (check) mate", "sort \"d\" ply",
    "sort min \"e\" #a", "sort quiet {power A}", "echo (s t) consecutivemoves (s t) > 1",
    // variables, dictionaries, functions
    "x = 3 x > 2", "x = 1 x += 2", "x = 1 isbound x", "x = 1 unbind x", "$A = K", "Ts = \"\"",
    "dictionary D D[\"a\"] = 1 #D > 0", "dictionary D D[\"a\"] = 1 D[\"a\"] == 1",
    "local dictionary E E[1] = \"a\" key \u220A E E[key] == \"a\"",
    "function f(x y) {x attacks y} f(Q k)", "function g() {move from ~K} g()",
    // transforms, output, special
    "flip P[a4]", "rotate45 p", "flipcolor n", "shift check", "flipcolor 3 3 Q", "notransform A[b6]",
    "currenttransform", "comment (\"z\")", "comment (\"a\" A)", "message (\"m\")", "assert check",
    "cql_abort", "extension", "hhdb prize", "cql_assertvariations \"v\"",
    "similarposition \"subs.pgn\"", "similarposition nosort notransform \"subs.pgn\"",
};

// The constructs a filter can stand in; '@' is where it goes.
const std::vector<std::string> kPlaces = {
    "@",
    "not @",
    "{ @ }",
    "(@)",
    "check and @",
    "@ or mate",
    "if @ then check",
    "if check then @ else mate",
    "find @",
    "find all @",
    "flipcolor @",
    "flipcolor 2 @",
    "notransform @",
    "parent : @",
    "square x in A @",
    "piece y in A @",
    "echo (s t) @",
    "sort min \"s\" @",
    "sort \"\" @",
    "move (@)",
    "loop { @ }",
    "while (@) check",
    "comment (\"c\" @)",
    "path @",
    "path @ -- check",
    "path check -- @",
    "path -- @",
    "path @ --",
    "path --(@)",
    "path 3 @",
    "path 2 4 @ check",
    "path focus A @",
    "path 2 focus A @",
    "path 1 3 quiet nestban @",
    "path (@){2}",
    "path -- @ {1,}",
    "path (@)? mate",
    "path (@ --)* --",
    "path K-- @ --(check)",
    "line --> @",
    "line --> @ --> check",
    "line 2 --> @",
    "line --> (@)* --> mate",
    "line <-- @",
};

// The node kinds a query cannot spell: made by the evaluator's expansion only.
const std::set<NodeKind> kUnspellable = {};

void collect_kinds(const Node& n, std::set<NodeKind>& kinds) {
  kinds.insert(n.kind);
  for (const Child& c : n.kids) collect_kinds(*c.node, kinds);
}

struct Grid {
  size_t parsed = 0, tried = 0;
  std::vector<size_t> parsed_per_place = std::vector<size_t>(kPlaces.size());
  std::set<NodeKind> kinds;
};

}  // namespace

TEST_CASE("printer: every filter in every construct reads back as the same tree", "[cql][roundtrip]") {
  Grid grid;
  for (size_t p = 0; p < kPlaces.size(); ++p) {
    const std::string& place = kPlaces[p];
    const size_t hole = place.find('@');
    for (const std::string& filter : kFilters) {
      const std::string source = "cql()\n" + place.substr(0, hole) + filter + place.substr(hole + 1);
      ++grid.tried;
      Query q;
      try {
        q = parse_query(source);
      } catch (const CqlError&) {
        continue;  // a filter this construct does not take (a set where a position goes, ...)
      }
      ++grid.parsed;
      ++grid.parsed_per_place[p];
      collect_kinds(*q.body, grid.kinds);
      INFO(source);
      const std::string text = print_cql(q);
      INFO("printed as: " << text);
      std::string again;
      try {
        again = print_canonical(parse_query(text));
      } catch (const CqlError& e) {
        FAIL_CHECK("the printed query does not parse: " << e.what());
        continue;
      }
      CHECK(again == print_canonical(q));
    }
  }
  // The grid is what it claims: most cells parse, every construct takes many filters, every kind is printed.
  INFO(grid.parsed << " of " << grid.tried << " cells parse");
  CHECK(grid.parsed * 2 > grid.tried);
  for (size_t p = 0; p < kPlaces.size(); ++p) {
    INFO(kPlaces[p] << " takes " << grid.parsed_per_place[p] << " of " << kFilters.size() << " filters");
    CHECK(grid.parsed_per_place[p] * 4 > kFilters.size());
  }
#define X(k)                                                                        \
  if (!kUnspellable.count(NodeKind::k)) {                                           \
    INFO("no filter of the grid has a node of kind " << kind_name(NodeKind::k));    \
    CHECK(grid.kinds.count(NodeKind::k) == 1);                                      \
  }
  CQL_NODE_KINDS(X)
#undef X
}
