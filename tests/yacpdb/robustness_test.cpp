// Bad input never crashes: random and mutated queries, solution texts and YAML documents (a fixed seed, so
// the runs are reproducible). Queries either parse (and print canonically) or fail with a column in range.
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/yacpdb/analysis.h"
#include "engine/yacpdb/query_parser.h"
#include "engine/yacpdb/replay.h"
#include "engine/yacpdb/yaml_entries.h"
#include "support/shared_data.h"

using namespace cqlindex::yacpdb;

namespace {

std::string mutate(const std::string& s, std::mt19937& rng, const std::string& alphabet) {
  std::string out = s;
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    size_t at = out.empty() ? 0 : rng() % (out.size() + 1);
    switch (rng() % 3) {
      case 0: out.insert(out.begin() + static_cast<long>(at), alphabet[rng() % alphabet.size()]); break;
      case 1:
        if (at < out.size()) out.erase(at, 1 + rng() % 3);
        break;
      default:
        if (at < out.size()) out[at] = alphabet[rng() % alphabet.size()];
        break;
    }
  }
  return out;
}

int code_points(const std::string& s) {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

TEST_CASE("yacpdb robustness: random and mutated queries", "[yacpdb][robust]") {
  std::mt19937 rng(20261123);
  const std::string alphabet = "ABCFNOPRSTWZabcdefhinorstw0123456789 ()'\",*<>=#-%\t\xD0\x96";
  const std::vector<std::string> seeds = {"With(\"wR wR\") AND Stip(\"#2\")",
                                          "ClosedWalk(wR, 4, *) AND NOT Fairy",
                                          "Zilahi(2) = 1 AND Phases > 1",
                                          "MatrixExtended('bKg3 wKc2', false, false, 'Mirror')",
                                          "NOT (Author(Orlov) OR Keyword('Model mates'))",
                                          "PublishedAfter(2009-02-28) AND Entity(author, 'x')",
                                          "Models(*, true) OR Excelsior(wS, 5) < 2"};
  int parsed = 0, rejected = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string q = round % 5 == 0 ? std::string() : seeds[rng() % seeds.size()];
    q = round % 5 == 0 ? mutate(mutate(mutate(q, rng, alphabet), rng, alphabet), rng, alphabet)
                       : mutate(q, rng, alphabet);
    try {
      Query parsed_query = parse_query(q);
      std::string canon = to_string(parsed_query);
      INFO(q << " -> " << canon);
      CHECK(to_string(parse_query(canon)) == canon);
      ++parsed;
    } catch (const QueryError& e) {
      INFO(q << ": " << e.what());
      CHECK(e.column() >= 1);
      CHECK(e.column() <= code_points(q) + 1);
      ++rejected;
    }
  }
  CHECK(parsed > 100);
  CHECK(rejected > 100);
}

TEST_CASE("yacpdb robustness: mutated solution texts and YAML documents", "[yacpdb][robust]") {
  std::ifstream in(cqlindex::test::shared_data("problems/yacpdb-olive/Broodings-50.olv"), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string olv = ss.str();
  auto base = read_yaml_entries(olv, "b.olv");
  REQUIRE(base.entries.size() == 12);
  std::mt19937 rng(7);
  const std::string alphabet = "abcdefgh12345678KQRBSP.-*x=+#!?:{}()[] \n\t'\"~/";
  int replayed = 0;
  for (int round = 0; round < 1500; ++round) {
    Entry e = base.entries[rng() % base.entries.size()];
    e.solution = mutate(e.solution, rng, alphabet);
    SolutionParse parse = parse_solution_text(e.solution);
    if (parse.error) CHECK(parse.error->find(':') != std::string::npos);
    Problem p;
    p.tree = replay_solution(e, parse);
    p.entry = e;
    replayed += p.tree.complete;
    Analysis a = analyse(p);
    CHECK(a.instances.size() >= 1);  // Twins is always there
  }
  CHECK(replayed > 0);
  for (int round = 0; round < 200; ++round) {
    std::string text = olv;
    for (int k = 0; k < 20; ++k) text = mutate(text, rng, alphabet + ":|>&*!%@`");
    auto r = read_yaml_entries(text, "m.olv");
    CHECK(r.entries.size() + r.errors.size() >= 1);
  }
}
