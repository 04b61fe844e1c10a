// What can be checked without CQL 6.2, on queries nobody wrote by hand (support/random_cql.h: typed random
// queries and mutants of the real corpus), over the random-differential inputs (gnuchess first 200 games,
// world_matches first 100, cql-sample). For each query and input:
// - `--no-index --threads 1`, `--no-index --threads 2` and the indexed run answer the same: exit, match line
//   and output bytes;
// - parse -> print -> parse: the printed CQL parses to the same tree (print_canonical, what `-parse` shows),
//   and the printed query runs with the same answer.
// By default 300 queries, each on one input; with CQLINDEX_LONG_TESTS=1, 1,500 queries on all three inputs;
// CQLINDEX_RANDOM_SEED=N starts the seeds at N instead of the fixed 20261124.
// A failure lists every disagreement with its seed, input and query.
#include <cstdlib>
#include <iostream>

#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"
#include "golden_set.h"
#include "support/cqlindex_run.h"
#include "support/parallel_runs.h"
#include "support/random_cql.h"

using namespace conformance;
using cqlindex::test::RunOutcome;

namespace {

const std::vector<std::string> kInputs = {"book_1.02.small-1005.first200", "world_matches.train.first100",
                                          "cql-sample"};

// One generated query to check on one input.
struct Case {
  uint32_t seed = 0;
  std::string origin;  // "typed" or the corpus query it mutates
  std::string text;
  std::string input;
  std::string printed;    // print_cql of the parsed query; empty when it does not parse
  std::string problems;   // what disagrees ("" when nothing)
  int exit_code = -1;     // of the plain run
  bool matched = false;   // whether the plain run matched a game
};

// Returns the query of `seed`: a typed random query (3 in 4) or a mutant of a corpus query.
Case generate(uint32_t seed, const std::vector<fs::path>& corpus) {
  cqlindex::test::RandomCql gen(seed);
  Case c;
  c.seed = seed;
  if (gen.pick(0, 3) != 0) {
    c.origin = "typed";
    c.text = gen.typed_query();
  } else {
    const fs::path& q = corpus[size_t(gen.pick(0, int(corpus.size()) - 1))];
    c.origin = fs::relative(q, data_dir() / "cql-examples").string();
    c.text = gen.mutate_query(cqlindex::test::file_bytes(q));
  }
  return c;
}

// Parses `c.text`, prints it and parses the print again; records a round-trip problem, and the printed text.
void round_trip(Case& c) {
  cqlindex::cql::Query q;
  try {
    q = cqlindex::cql::parse_query(c.text);
  } catch (const std::exception&) {
    return;  // a refusal: the runs below must all refuse
  }
  c.printed = cqlindex::cql::print_cql(q);
  try {
    cqlindex::cql::Query again = cqlindex::cql::parse_query(c.printed);
    if (cqlindex::cql::print_canonical(again) != cqlindex::cql::print_canonical(q))
      c.problems += "\n    parse -> print -> parse gives another tree; printed:\n" + c.printed;
  } catch (const std::exception& e) {
    c.problems += std::string("\n    the printed query does not parse: ") + e.what() + "; printed:\n" + c.printed;
  }
}

// Runs `c` every way and records what disagrees with the plain run (--no-index, 1 thread).
void run_case(Case& c, const fs::path& work_root, const fs::path& index, size_t slot) {
  const std::string input = input_file(c.input).string();
  const std::string tag = std::to_string(slot);
  const fs::path work = work_root / tag;  // a folder of its own: a query may write files (writefile)
  fs::create_directories(work);
  const fs::path query = work / ("q" + tag + ".cql");
  std::ofstream(query, std::ios::binary) << c.text;
  auto run = [&](const std::string& name, const std::string& args, const fs::path& q) {
    return cqlindex::test::run_cqlindex(work, tag + name, args, input, q.string(), 20);
  };
  const RunOutcome plain = run("a", "--no-index --threads 1", query);
  c.exit_code = plain.exit_code;
  c.matched = !plain.match_line.empty() && plain.match_line.rfind("0 ", 0) != 0;
  if (plain.timed_out()) {
    c.problems += "\n    over 20 s of CPU with --no-index --threads 1 (exit " + std::to_string(plain.exit_code) + ")";
    return;
  }
  auto compare = [&](const std::string& what, const RunOutcome& other) {
    const std::string d = cqlindex::test::same_answer(plain, other);
    if (!d.empty()) c.problems += "\n    " + what + " != --no-index --threads 1: " + d;
  };
  compare("--no-index --threads 2", run("b", "--no-index --threads 2", query));
  compare("indexed", run("c", "--index " + cqlindex::test::shell_quote(index.string()), query));
  if (!c.printed.empty()) {
    const fs::path printed = work / ("p" + tag + ".cql");
    std::ofstream(printed, std::ios::binary) << c.printed;
    compare("the printed query", run("d", "--no-index --threads 1", printed));
  } else if (!plain.rejected()) {
    c.problems += "\n    the query does not parse in-process but the run answers " + plain.summary();
  }
  std::error_code ec;
  fs::remove_all(work, ec);
}

}  // namespace

TEST_CASE("differential harness: indexed, 1 vs 2 threads and parse-print-parse agree on generated queries",
          "[conformance][differential]") {
  const bool long_run = cqlindex::test::long_tests_enabled();
  const int queries = long_run ? 1500 : 300;
  // CQLINDEX_RANDOM_SEED=N explores other queries (a failure names its seed; the default set is fixed)
  const char* seed_env = std::getenv("CQLINDEX_RANDOM_SEED");
  const uint32_t first_seed = seed_env ? uint32_t(std::stoul(seed_env)) : 20261124u;
  std::cout << "differential harness: seeds " << first_seed << " to " << first_seed + uint32_t(queries) - 1 << "\n";
  const auto corpus = cqlindex::test::corpus_queries(data_dir() / "cql-examples");
  REQUIRE(corpus.size() > 300);

  const fs::path work = fs::temp_directory_path() / ("cqlindex-differential-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  std::map<std::string, fs::path> indexes;
  for (const std::string& input : kInputs) {
    indexes[input] = work / (input + ".idx");
    auto r = cqlindex::test::run_process(cqlindex::test::shell_quote(CQLINDEX_BINARY) + " build " +
                                         cqlindex::test::shell_quote(input_file(input).string()) + " --index " +
                                         cqlindex::test::shell_quote(indexes[input].string()) + " 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
  }

  std::vector<Case> cases;
  for (int i = 0; i < queries; ++i) {
    const uint32_t seed = first_seed + uint32_t(i);
    Case c = generate(seed, corpus);
    for (size_t k = 0; k < kInputs.size(); ++k) {
      if (!long_run && k != size_t(i) % kInputs.size()) continue;
      c.input = kInputs[k];
      cases.push_back(c);
    }
  }
  for (Case& c : cases) round_trip(c);  // in this thread: the runs below are the parallel part
  cqlindex::test::parallel_for(cases.size(), 2, [&](size_t i) {
    run_case(cases[i], work, indexes.at(cases[i].input), i);
  });
  fs::remove_all(work);

  size_t parsed = 0, ran = 0, matched = 0, failed = 0;
  std::string report;
  for (const Case& c : cases) {
    parsed += !c.printed.empty();
    ran += c.exit_code == 0;
    matched += c.matched;
    if (c.problems.empty()) continue;
    ++failed;
    report += "\n  seed " + std::to_string(c.seed) + " (" + c.origin + ") on " + c.input + ":" + c.problems +
              "\n    query:\n" + c.text;
  }
  std::cout << "differential harness: " << cases.size() << " query-input pairs, " << parsed << " parse, " << ran
            << " run with exit 0, " << matched << " match a game, " << failed << " disagree\n";
  INFO(failed << " of " << cases.size() << " pairs disagree:" << report);
  CHECK(failed == 0);
  // the generator must exercise the engine, not just produce refusals
  CHECK(ran > cases.size() / 2);
  CHECK(matched > cases.size() / 4);
}

TEST_CASE("parse -> print -> parse gives the same tree for every set-A and repro query that parses",
          "[conformance][differential]") {
  std::vector<fs::path> queries;
  for (const auto& e : fs::directory_iterator(random_differential_dir() / "set-A" / "queries"))
    if (e.path().extension() == ".cql") queries.push_back(e.path());
  for (const GoldenRun& g : repro_runs()) queries.push_back(g.query);
  std::sort(queries.begin(), queries.end());
  REQUIRE(queries.size() == 400 + 50);
  size_t parsed = 0;
  std::string report;
  for (const fs::path& q : queries) {
    Case c;
    c.text = cqlindex::test::file_bytes(q);
    round_trip(c);
    parsed += !c.printed.empty();
    if (!c.problems.empty()) report += "\n  " + q.filename().string() + " (" + q.parent_path().filename().string() + "):" + c.problems;
  }
  std::cout << "round trip: " << parsed << " of " << queries.size() << " golden queries parse\n";
  INFO(report);
  CHECK(report.empty());
  CHECK(parsed > queries.size() / 2);
}
