#pragma once
// Test support: seeded, deterministic random CQL queries.
// - RandomCql::planner_query(): the constructs the planner has rules for (its soundness test,
//   tests/planner/randomised_plans_test.cpp; keep its sequence of draws: the test's seeds name queries).
// - RandomCql::typed_query(): typed random queries of depth 1-4 from the language's grammar: set, numeric,
//   position, string and logical filters, transforms, line, find, move, path (lite), sort, comment, header
//   parameters. Most are meant to parse; some are nonsense on purpose (CQL's rejection is an answer too).
// - mutate_query(): a mutant of a real corpus query (drop a character, swap an operator or keyword, wrap the
//   body in a transform), as the random-differential golden set was made.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

namespace cqlindex::test {

class RandomCql {
 public:
  explicit RandomCql(uint32_t seed) : rng_(seed) {}

  // Returns a whole CQL file of planner-relevant constructs: header and body.
  std::string planner_query() {
    std::string header = "cql(input x.pgn";
    if (chance(4)) header += " variations";
    if (chance(6)) header += " matchcount " + std::to_string(pick(1, 3)) + " 100";
    if (chance(8)) header += " result " + one_of({"1-0", "0-1", "1/2-1/2"});
    if (chance(10)) header += " gamenumber " + std::to_string(pick(1, 300)) + " " + std::to_string(pick(300, 1000));
    return header + ")\n" + planner_filter(3) + "\n";
  }

  // Returns a whole CQL file of typed random filters of depth 1 to 4.
  std::string typed_query() {
    std::string header = "cql(";
    if (chance(4)) header += " variations";
    if (chance(8)) header += " matchcount " + std::to_string(pick(1, 3)) + " " + std::to_string(pick(3, 100));
    if (chance(10)) header += " result " + one_of({"1-0", "0-1", "1/2-1/2"});
    if (chance(10)) header += " gamenumber " + std::to_string(pick(1, 40)) + " " + std::to_string(pick(40, 300));
    if (chance(12)) header += " sort matchcount " + std::to_string(pick(0, 2)) + " 100";
    if (chance(12)) header += one_of({" silent", " quiet"});
    if (chance(15)) header += " matchstring \"HIT\"";
    header += ")\n";
    const int depth = pick(1, 4);
    std::string body = logical(depth);
    if (chance(3)) body += "\n" + logical(depth);
    return header + body + "\n";
  }

  // Returns a mutant of `query` (a real corpus query's text).
  std::string mutate_query(const std::string& query) {
    std::string q = query;
    switch (pick(0, 3)) {
      case 0: {  // drop a character of the body
        const size_t body = body_start(q);
        if (body < q.size()) q.erase(body + size_t(pick(0, int(q.size() - body) - 1)), 1);
        return q;
      }
      case 1:
        return replace_one(q, {{"&", "|"}, {"|", "&"}, {"<", ">"}, {">", "<"}, {"==", "!="}, {"!=", "=="},
                               {"-->", "--"}, {"attacks", "attackedby"}, {"+", "*"}, {"or", "and"}});
      case 2:
        return replace_one(q, {{"mate", "stalemate"}, {"check", "mate"}, {"wtm", "btm"}, {"btm", "wtm"},
                               {"flipcolor", "flip"}, {"flip", "shift"}, {"max", "min"}, {"min", "max"},
                               {"white", "black"}, {"A", "a"}, {"Q", "q"}, {"K", "k"}, {"find", "line -->"},
                               {"all", ""}, {"variations", ""}, {"legal", "pseudolegal"}, {"from", "to"}});
      default: {  // wrap the body in a transform
        const size_t body = body_start(q);
        return q.substr(0, body) + "\n" + transform() + " {\n" + q.substr(body) + "\n}\n";
      }
    }
  }

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(int one_in) { return pick(1, one_in) == 1; }

 private:
  std::mt19937 rng_;

  std::string one_of(std::initializer_list<const char*> xs) { return *(xs.begin() + pick(0, int(xs.size()) - 1)); }

  // ---- the planner's grammar (unchanged draws) ----
  std::string square() { return std::string(1, char('a' + pick(0, 7))) + char('1' + pick(0, 7)); }
  std::string pieces() {
    return chance(4) ? one_of({"[Qq]", "[RN]", "[Bb]", "[Aa]", "[KQ]", "A", "a"})
                     : one_of({"K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p"});
  }
  std::string squares() {
    switch (pick(0, 4)) {
      case 0: return square();
      case 1: return std::string(1, char('a' + pick(0, 3))) + "-" + char('e' + pick(0, 3)) + char('1' + pick(0, 7));
      case 2: return "[" + square() + "," + square() + "]";
      case 3: return std::string(1, char('a' + pick(0, 7))) + char('1' + pick(0, 3)) + "-" + char('5' + pick(0, 3));
      default: return "";
    }
  }
  std::string designator() { return pieces() + squares(); }
  std::string relation() { return one_of({"==", "<=", ">=", "<", ">", "!="}); }

  std::string planner_atom() {
    switch (pick(0, 13)) {
      case 0: case 1: return designator();
      case 2: case 3: return pieces() + " " + relation() + " " + std::to_string(pick(0, 3));
      case 4: return one_of({"mate", "stalemate", "check", "wtm", "btm", "initial", "terminal"});
      case 5: return "move promote " + one_of({"Q", "R", "B", "N", "q", "n", "A"});
      case 6: return one_of({"move castle", "move enpassant", "move o-o", "move o-o-o"});
      case 7: return "result " + one_of({"1-0", "0-1", "1/2-1/2"});
      case 8: return one_of({"player", "white", "black", "event", "site"}) + std::string(" \"") +
                     one_of({"a", "e", "Kasparov", "GNU", "x", ""}) + "\"";
      case 9: return "year " + relation() + " " + std::to_string(pick(1900, 2020));
      case 10: return "elo " + one_of({"white ", "black ", ""}) + relation() + " " + std::to_string(pick(1500, 2800));
      case 11: return "#" + pieces() + " " + relation() + " " + std::to_string(pick(0, 8));
      case 12: return "power " + pieces() + " " + relation() + " " + std::to_string(pick(0, 40));
      default: return "attacks " + designator() + " " + designator();
    }
  }

  std::string planner_filter(int depth) {
    if (depth == 0 || chance(3)) return planner_atom();
    switch (pick(0, 6)) {
      case 0: return "{" + planner_filter(depth - 1) + " " + planner_filter(depth - 1) + "}";
      case 1: return "{" + planner_filter(depth - 1) + " or " + planner_filter(depth - 1) + "}";
      case 2: return "not " + planner_filter(depth - 1);
      case 3: return one_of({"flip", "flipcolor", "flipvertical", "fliphorizontal", "rotate90", "shifthorizontal"}) +
                     std::string(" {") + planner_filter(depth - 1) + "}";
      case 4: return "{" + planner_filter(depth - 1) + " " + planner_filter(depth - 1) + " " +
                     planner_filter(depth - 1) + "}";
      case 5: return "{" + planner_filter(depth - 1) + " or not " + planner_filter(depth - 1) + "}";
      default: return "{" + planner_atom() + " " + planner_filter(depth - 1) + "}";
    }
  }

  // ---- the typed grammar ----
  std::string number() { return std::to_string(pick(0, 9)); }
  std::string transform() {
    return one_of({"flip", "flipcolor", "flipvertical", "fliphorizontal", "rotate90", "rotate45", "shift",
                   "shifthorizontal", "shiftvertical", "reversecolor"});
  }
  std::string direction() {
    return one_of({"up", "down", "left", "right", "northeast", "southwest", "horizontal", "vertical", "diagonal",
                   "orthogonal", "anydirection"});
  }

  // A filter of type set.
  std::string set(int depth) {
    if (depth <= 1 || chance(3)) {
      switch (pick(0, 6)) {
        case 0: case 1: case 2: return designator();
        case 3: return one_of({".", "_", "A", "a", "[Aa]", "a-h1-8", "K", "k"});
        case 4: return one_of({"connectedpawns", "isolatedpawns", "doubledpawns", "passedpawns"});
        case 5: return one_of({"from", "to", "enpassantsquare"});
        default: return squares().empty() ? "e4" : squares();
      }
    }
    const int d = depth - 1;
    switch (pick(0, 13)) {
      case 0: return set(d) + " | " + set(d);
      case 1: return set(d) + " & " + set(d);
      case 2: return "~" + set(d);
      case 3: return set(d) + " attacks " + set(d);
      case 4: return set(d) + " attackedby " + set(d);
      case 5: return "between(" + set(d) + " " + set(d) + ")";
      case 6: return direction() + (chance(2) ? " " + std::to_string(pick(1, 3)) : std::string()) + " " + set(d);
      case 7: return "pin" + (chance(2) ? " from " + set(d) : std::string()) + (chance(2) ? " to " + set(d) : std::string());
      case 8: return one_of({"light ", "dark "}) + set(d);
      case 9: return "move " + one_of({"from", "to"}) + " " + set(d) + (chance(3) ? " legal" : "");
      case 10: return "ray(" + set(d) + " " + set(d) + ")";
      case 11: return "square x in " + set(d) + " {" + logical(d) + "}";
      case 12: return "xray(" + set(d) + " " + set(d) + ")";
      default: return "{" + logical(d) + " " + set(d) + "}";
    }
  }

  // A filter of type numeric.
  std::string numeric(int depth) {
    if (depth <= 1 || chance(3)) {
      switch (pick(0, 5)) {
        case 0: case 1: return number();
        case 2: return one_of({"ply", "movenumber", "gamenumber", "year", "elo white", "elo black", "depth"});
        case 3: return "#" + designator();
        case 4: return "power " + pieces();
        default: return "#" + pieces();
      }
    }
    const int d = depth - 1;
    switch (pick(0, 10)) {
      case 0: return "#" + set(d);
      case 1: return "power " + set(d);
      case 2: return numeric(d) + " " + one_of({"+", "-", "*", "/", "%"}) + " " + numeric(d);
      case 3: return one_of({"max", "min"}) + std::string("(") + numeric(d) + " " + numeric(d) + ")";
      case 4: return "abs " + numeric(d);
      case 5: return "distance(" + designator() + " " + designator() + ")";
      case 6: return one_of({"file ", "rank ", "type ", "pieceid "}) + designator();
      case 7: return "#" + string(d);
      case 8: return "count " + one_of({"find all ", "line --> "}) + logical(d);
      case 9: return "move " + one_of({"from ", "to "}) + designator() + " legal count";
      default: return "(" + numeric(d) + ")";
    }
  }

  // A filter of type string.
  std::string string(int depth) {
    if (depth <= 1 || chance(3))
      return one_of({"\"a\"", "\"e4\"", "\"Kasparov\"", "\"\"", "player white", "player black", "event", "site",
                     "fen", "typename e1"});
    const int d = depth - 1;
    switch (pick(0, 4)) {
      case 0: return string(d) + " + " + string(d);
      case 1: return one_of({"lowercase ", "uppercase "}) + string(d);
      case 2: return "str(" + numeric(d) + ")";
      case 3: return one_of({"typename ", "piecename "}) + designator();
      default: return "(" + string(d) + ")";
    }
  }

  // A filter of type position.
  std::string position(int depth) {
    if (depth <= 1 || chance(2)) return one_of({"parent", "child", "currentposition", "initialposition", "child(0)"});
    return one_of({"find ", "find all ", "line --> "}) + logical(depth - 1);
  }

  // A filter used for whether it matches (any type).
  std::string logical(int depth) {
    if (depth <= 1 || chance(4)) {
      switch (pick(0, 8)) {
        case 0: case 1: return one_of({"check", "mate", "stalemate", "wtm", "btm", "initial", "terminal", "mainline",
                                       "variation", "true", "false"});
        case 2: case 3: return designator();
        case 4: return "result " + one_of({"1-0", "0-1", "1/2-1/2"});
        case 5: return one_of({"move capture A", "move castle", "move promote Q", "move enpassant", "move o-o",
                               "move pseudolegal", "move legal", "move previous capture a"});
        case 6: return one_of({"player \"a\"", "event \"e\"", "white \"K\"", "site \"x\""});
        case 7: return "#" + pieces() + " " + relation() + " " + number();
        default: return "elo " + one_of({"white ", "black ", ""}) + relation() + " " + std::to_string(pick(1500, 2800));
      }
    }
    const int d = depth - 1;
    switch (pick(0, 21)) {
      case 0: return "{" + logical(d) + " " + logical(d) + "}";
      case 1: return logical(d) + " or " + logical(d);
      case 2: return "not " + logical(d);
      case 3: return transform() + " {" + logical(d) + "}";
      case 4: return numeric(d) + " " + relation() + " " + numeric(d);
      case 5: return string(d) + " " + one_of({"==", "!=", "in"}) + " " + string(d);
      case 6: return set(d);
      case 7: return set(d) + " " + one_of({"in", "==", "!="}) + " " + set(d);
      case 8: return "line --> " + logical(d) + " --> " + logical(d) + (chance(3) ? "+" : "");
      case 9: return "line " + one_of({"<-- ", "--> "}) + logical(d) + one_of({"", "*", "{2,4}", "?"});
      case 10: return "find " + one_of({"", "all ", "<-- ", "2 5 "}) + logical(d);
      case 11: return "move " + one_of({"from ", "to ", "capture "}) + set(d) + one_of({"", " legal", " pseudolegal"});
      case 12: return "path -- " + logical(d) + (chance(2) ? " -- " + logical(d) : std::string());
      case 13: return "sort " + one_of({"", "min ", "max "}) + "\"v\" " + numeric(d);
      case 14: return "comment(\"c \" " + numeric(d) + ")";
      case 15: return "comment(" + string(d) + ")";
      case 16: return "position(" + std::to_string(pick(0, 40)) + ") : " + logical(d);
      case 17: return position(d) + " : " + logical(d);
      case 18: return "if " + logical(d) + " then " + logical(d) + (chance(2) ? " else " + logical(d) : std::string());
      case 19: return "x = " + numeric(d) + " x " + relation() + " " + number();
      case 20: return "sort min \"w\" " + numeric(d);  // (no echo: quadratic in the positions, slow on studies)
      default: return "(" + logical(d) + ")";
    }
  }

  // Returns where the body of `q` starts: after the `cql(...)` header (0 when there is none).
  static size_t body_start(const std::string& q) {
    const size_t at = q.find("cql(");
    if (at == std::string::npos) return 0;
    const size_t close = q.find(')', at);
    return close == std::string::npos ? q.size() : close + 1;
  }

  // Returns `q` with one occurrence (chosen at random) of one pair's first string replaced by its second.
  std::string replace_one(const std::string& q, std::initializer_list<std::pair<const char*, const char*>> pairs) {
    const size_t body = body_start(q);
    std::vector<std::pair<size_t, std::pair<const char*, const char*>>> sites;
    for (const auto& p : pairs)
      for (size_t at = q.find(p.first, body); at != std::string::npos; at = q.find(p.first, at + 1)) sites.push_back({at, p});
    if (sites.empty()) return q + "\ncheck\n";  // nothing to swap: a second filter instead
    const auto& [at, p] = sites[size_t(pick(0, int(sites.size()) - 1))];
    return q.substr(0, at) + p.second + q.substr(at + std::string(p.first).size());
  }
};

// Returns the real corpus queries the mutants start from: every .cql of reti, cql62-distribution-examples and
// opening-tactics-frequency under `cql_examples`, sorted (a fixed order, so seeds name the same mutants).
inline std::vector<std::filesystem::path> corpus_queries(const std::filesystem::path& cql_examples) {
  std::vector<std::filesystem::path> queries;
  for (const char* corpus : {"reti", "cql62-distribution-examples", "opening-tactics-frequency"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(cql_examples / corpus))
      if (e.path().extension() == ".cql") queries.push_back(e.path());
  std::sort(queries.begin(), queries.end());
  return queries;
}

}  // namespace cqlindex::test
