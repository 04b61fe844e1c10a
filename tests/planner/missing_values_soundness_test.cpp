// The planner's soundness where values are missing: a seeded generator writes a small PGN whose tags are
// present, missing, empty, "?", "????.??.??", non-numeric ("2700x", "200x"), padded ("2700 "), negative,
// oversized (past what the index keeps whole) or not ASCII, and queries over them: tag filters (player, event,
// site, eco, date, tag "X"; in, ==, !=, <, ~~), numeric comparisons of year and elo with all six operators on
// either side, result, material counts, piece sets and set relations, mate and moves, find and if, combined
// with not, and, or, {...}, variables and the transforms (flipcolor, flip, rotate90, reversecolor, shift...).
// For every query `cqlindex run` with the index must answer as `--no-index` does: the same exit status, match
// line and output bytes. A failure prints the seed, the query and its plan.
//
// The default suite runs a fixed 400 queries; CQLINDEX_LONG_TESTS=1 runs 3,000.
#include <iostream>
#include <random>

#include "planner_fixture.h"
#include "support/cqlindex_run.h"
#include "support/parallel_runs.h"

using namespace planner_test;
using cqlindex::test::RunOutcome;
using cqlindex::test::shell_quote;

namespace {

// A deterministic choice maker (std::mt19937's output is fixed by the standard; the distributions are not,
// so choices are taken from it by a modulo).
class Choices {
 public:
  // (through a seed_seq: consecutive seeds straight into the engine give correlated first choices)
  explicit Choices(uint32_t seed) {
    std::seed_seq sequence{seed};
    random_.seed(sequence);
  }
  size_t below(size_t n) { return size_t(random_() % n); }
  bool one_in(size_t n) { return below(n) == 0; }
  const char* pick(std::initializer_list<const char*> options) { return *(options.begin() + below(options.size())); }

 private:
  std::mt19937 random_;
};

// Marks a tag left out of a game.
constexpr const char* kMissing = nullptr;

// Longer than the index keeps whole (store::keys::kMaxTagValueBytes): its key is truncated.
const std::string& oversized() {
  static const std::string text = std::string(230, 'x') + " Carlsen London 2000";
  return text;
}

// Returns a PGN tag value with '\' and '"' escaped.
std::string escaped(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

// Returns a PGN of `games` games with the tag values above, each with one of a few short (legal) games.
std::string missing_values_pgn(uint32_t seed, int games) {
  Choices c(seed);
  const std::vector<const char*> players = {kMissing, "", "?", "Carlsen, Magnus", "Carlsen,M.", "Anand, V (2780)",
                                            "M\xc3\xbcller, Hans", "Smith \"Jr\"", "Kasparov", "-"};
  const std::vector<const char*> events = {kMissing, "", "?", "London Open", "London", "Linares 2000", "-"};
  const std::vector<const char*> sites = {kMissing, "", "?", "London ENG", "Linares ESP", "-"};
  const std::vector<const char*> dates = {kMissing, "", "?", "????.??.??", "2000.01.01", "2000.??.??", "1999.12.31",
                                          "2001", "200x.01.01", "20", "abcd", "2000 ", " 2000", "-200.01.01",
                                          "1985.05.05", "0000.01.01", "2000x", "20000.01.01"};
  const std::vector<const char*> elos = {kMissing, "", "?", "-", "0", "2700", "2700 ", "2700x", "-5",
                                         "99999999999999999999", "2500", "02700", "1999", "2000", " 2700"};
  const std::vector<const char*> results = {kMissing, "", "?", "1-0", "0-1", "1/2-1/2", "*", "1-0 "};
  const std::vector<const char*> ecos = {kMissing, "", "?", "B12", "b12", "D38/26", "C20", "A00"};
  const std::vector<const char*> rounds = {kMissing, "", "?", "1", "2.1"};
  const std::vector<const char*> openings = {kMissing, "", "Sicilian", "Ruy Lopez"};
  const std::vector<const char*> movetexts = {
      "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7",
      "1. f3 e5 2. g4 Qh4#",
      "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6",
      "1. h4 g5 2. hxg5 h6 3. gxh6 Nf6 4. h7 Ng8 5. hxg8=Q Rxg8",
      "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
      "1. d4 d5 2. c4 dxc4 3. Qa4+ Qd7 4. Qxd7+ Kxd7",
      "",
  };
  const std::vector<const char*> markers = {"1-0", "0-1", "1/2-1/2", "*"};
  auto any = [&](const std::vector<const char*>& values) -> std::optional<std::string> {
    if (c.one_in(12)) return oversized();
    const char* v = values[c.below(values.size())];
    if (!v) return std::nullopt;
    return std::string(v);
  };
  std::string pgn;
  for (int g = 0; g < games; ++g) {
    const std::pair<const char*, const std::vector<const char*>*> tags[] = {
        {"Event", &events}, {"Site", &sites},  {"Date", &dates},         {"EventDate", &dates},
        {"Round", &rounds}, {"White", &players}, {"Black", &players},    {"Result", &results},
        {"WhiteElo", &elos}, {"BlackElo", &elos}, {"ECO", &ecos},         {"Opening", &openings}};
    for (const auto& [name, values] : tags)
      if (auto v = any(*values)) pgn += std::string("[") + name + " \"" + escaped(*v) + "\"]\n";
    pgn += "\n";
    const std::string moves = movetexts[c.below(movetexts.size())];
    pgn += moves + (moves.empty() ? "" : " ") + markers[c.below(markers.size())] + "\n\n";
  }
  return pgn;
}

// Random queries over the filters the planner bounds, on the values above.
class QueryMaker {
 public:
  explicit QueryMaker(uint32_t seed) : c_(seed) {}

  std::string query() {
    std::string header = "cql(";
    if (c_.one_in(10)) header += std::string("result ") + c_.pick({"1-0", "0-1", "1/2-1/2"});
    return header + ")\n" + filter(3) + "\n";
  }

 private:
  Choices c_;

  // `!=` twice as often: it is the comparison that holds where a value is missing
  std::string op() { return c_.pick({"==", "!=", "!=", "<", "<=", ">", ">="}); }

  std::string tag_test() {
    // `tag "Round"` is refused, as CQL 6.2 refuses it (a name it lists as close to a built-in tag)
    const std::string source = c_.pick({"player", "player white", "player black", "event", "site", "eco", "date",
                                        "tag \"Opening\"", "tag \"White\"", "eventdate"});
    const std::string text = c_.pick({"Carlsen", "London", "2000", "B12", "b12", "?", "", "M\xc3\xbcller", "Jr",
                                      "Sicilian", "1", "xxxxxxxxxx", "Carlsen, M", "ENG", "-", "2000.??.??"});
    const std::string quoted = "\"" + escaped(text) + "\"";
    switch (c_.below(6)) {
      case 0: return source + " " + quoted;
      case 1: return quoted + " in " + source;
      case 2: return source + " " + op() + " " + quoted;
      case 3: return quoted + " " + op() + " " + source;
      case 4: return source + " ~~ \"" + c_.pick({"Carlsen", "^London", "2000$", "^$", "B1", "[0-9]"}) + "\"";
      default: return source + " == " + quoted;
    }
  }

  std::string number() {
    return c_.pick({"0", "20", "200", "1985", "1999", "2000", "2001", "2500", "2700", "-200", "-5", "3"});
  }

  std::string numeric_test() {
    const std::string value = c_.pick({"year", "elo", "elo white", "elo black"});
    if (c_.one_in(4)) return number() + " " + op() + " " + value;
    return value + " " + op() + " " + number();
  }

  std::string position_test() {
    switch (c_.below(6)) {
      case 5: return c_.pick({"Q attacks k", "R attackedby b", "light q", "dark [Pp]", "find check",
                              "if Q then year != 2000 else elo white != 2700", "#(Q attacks [a-h1-8]) > 0"});
      case 0: {
        const std::string counted = c_.pick({"#Q", "#q", "#[Qq]", "#P", "#p", "power A", "power a", "#[Pa2-h2]", "#N"});
        return counted + " " + op() + " " + c_.pick({"0", "1", "2", "8", "14"});
      }
      case 1: return c_.pick({"Q", "q", "Qh4", "Pa7", "[Qq]g8", "Ph7", "Kd7", "Qf7"});
      case 2: return c_.pick({"check", "mate", "stalemate"});
      case 3: return c_.pick({"move promote Q", "move castle", "move o-o", "move enpassant"});
      default: return std::string("result ") + c_.pick({"1-0", "0-1", "1/2-1/2", "*"});
    }
  }

  std::string atom() {
    switch (c_.below(4)) {
      case 0: return tag_test();
      case 1: return numeric_test();
      case 2:  // a variable holding a value the filter may not have
        return std::string("{") + c_.pick({"v = year", "v = elo white", "v = elo", "v = #Q"}) + " v " + op() + " " +
               number() + "}";
      default: return position_test();
    }
  }

  std::string filter(int depth) {
    if (depth == 0) return atom();
    switch (c_.below(8)) {
      case 0: return "not " + filter(depth - 1);
      case 1: return "(" + filter(depth - 1) + " and " + filter(depth - 1) + ")";
      case 2: return "(" + filter(depth - 1) + " or " + filter(depth - 1) + ")";
      case 3: return "{" + filter(depth - 1) + " " + filter(depth - 1) + "}";
      case 4:
        return std::string(c_.pick({"flipcolor", "flipcolor", "flip", "rotate90", "reversecolor", "shift",
                                    "shifthorizontal", "flipvertical"})) +
               " {" + filter(depth - 1) + "}";
      default: return atom();
    }
  }
};

// What one query's two runs answered.
struct Verdict {
  std::string problem;  // "" when indexed == --no-index
  bool ran = false;     // both runs answered (exit 0 with a match line)
  bool matched = false; // some game matched
  bool narrowed = false;  // the index ruled out some game
};

// Returns the number of games the indexed run says the index ruled out (stderr's accounting line).
uint64_t ruled_out(const std::string& messages) {
  const std::string marker = " ruled out by the index";
  const size_t at = messages.find(marker);
  if (at == std::string::npos) return 0;
  const size_t begin = messages.rfind(' ', at - 1);
  return std::stoull(messages.substr(begin + 1, at - begin - 1));
}

}  // namespace

TEST_CASE("randomised queries over missing, empty and odd tag values: indexed run == --no-index",
          "[planner][random][indexed]") {
  const bool long_run = cqlindex::test::long_tests_enabled();
  const int queries = long_run ? 3000 : 400;
  TempDir dir("missing-values");
  {
    std::ofstream out(dir.path / "in.pgn", std::ios::binary);
    out << missing_values_pgn(20261208, 40);
  }
  const std::string bin = shell_quote(CQLINDEX_BINARY);
  const std::string cd = "cd " + shell_quote(dir.path.string()) + " && ";
  {
    auto build = cqlindex::test::run_process(cd + bin + " build in.pgn 2>&1");
    INFO(build.out);
    REQUIRE(build.exit_code == 0);
  }
  const std::string input = (dir.path / "in.pgn").string();
  std::vector<std::string> texts(static_cast<size_t>(queries));
  std::vector<Verdict> verdicts(static_cast<size_t>(queries));
  for (int i = 0; i < queries; ++i) texts[size_t(i)] = QueryMaker(uint32_t(7000 + i)).query();
  cqlindex::test::parallel_for(size_t(queries), 2, [&](size_t i) {
    const fs::path work = dir.path / ("q" + std::to_string(i));
    fs::create_directories(work);
    const std::string query = (work / "q.cql").string();
    std::ofstream(query, std::ios::binary) << texts[i];
    const RunOutcome scan = cqlindex::test::run_cqlindex(work, "scan", "--no-index", input, query);
    const RunOutcome indexed = cqlindex::test::run_cqlindex(work, "indexed", "", input, query);
    Verdict& v = verdicts[i];
    v.problem = cqlindex::test::same_answer(scan, indexed);
    v.ran = !scan.rejected() && !indexed.rejected();
    v.matched = v.ran && scan.match_line.rfind("0 matches", 0) != 0;
    v.narrowed = ruled_out(indexed.messages) > 0;
    if (!v.problem.empty()) {
      auto plan = cqlindex::test::run_process("cd " + shell_quote(work.string()) + " && " + bin + " explain -i " +
                                              shell_quote(input) + " " + shell_quote(query) + " 2>&1");
      v.problem += "\n" + plan.out;
    }
    std::error_code ec;
    fs::remove_all(work, ec);
  });
  int ran = 0, matched = 0, narrowed = 0, failed = 0;
  std::string report;
  for (size_t i = 0; i < verdicts.size(); ++i) {
    ran += verdicts[i].ran;
    matched += verdicts[i].matched;
    narrowed += verdicts[i].narrowed;
    if (verdicts[i].problem.empty()) continue;
    if (++failed <= 10) report += "\nseed " + std::to_string(7000 + i) + ":\n" + texts[i] + verdicts[i].problem;
  }
  std::cout << "missing-value queries: " << queries << " run, " << ran << " answered, " << matched
            << " with matches, " << narrowed << " narrowed by the index, " << failed << " indexed != --no-index\n";
  INFO(failed << " of " << queries << " queries answered differently with the index (the first 10):" << report);
  CHECK(failed == 0);
  // the generator must exercise the planner: queries that run, match, and that the index narrows
  CHECK(ran > queries * 3 / 4);
  CHECK(matched > queries / 4);
  CHECK(narrowed > queries / 4);
}
