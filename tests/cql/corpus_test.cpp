// Every corpus query (406): parses, or is rejected exactly where CQL 6.2 rejects it (corpus-runs/summary.tsv);
// every parsed query survives the round trip print -> parse -> same tree. Parse time is printed, not asserted.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

#include "engine/cql/error.h"
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using namespace cqlindex::cql;

namespace {

fs::path examples_dir() { return cqlindex::test::shared_data("cql-examples"); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const char* dir : {"cql62-distribution-examples/exalpha", "cql62-distribution-examples/exalpha-excludes",
                          "reti/cql-files", "opening-tactics-frequency"})
    for (const auto& e : fs::recursive_directory_iterator(examples_dir() / dir))
      if (e.is_regular_file() && e.path().extension() == ".cql") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

struct Rejection {
  std::string message;
  int line = 0, column = 0;  // 0: CQL 6.2 gives no position
};

// Queries CQL 6.2 rejects on every input, with the position its message names.
std::map<std::string, Rejection> rejections() {
  std::ifstream in(examples_dir() / "expected-output/corpus-runs/summary.tsv");
  std::string row;
  std::getline(in, row);
  std::map<std::string, int> runs, failures;
  std::map<std::string, Rejection> out;
  std::regex pos(R"(\{Line (\d+), Column (\d+)\})");
  while (std::getline(in, row)) {
    std::vector<std::string> f;
    std::stringstream ss(row);
    std::string cell;
    while (std::getline(ss, cell, '\t')) f.push_back(cell);
    if (f.size() < 10) continue;
    const std::string& query = f[2];
    ++runs[query];
    if (f[3] == "0") continue;
    ++failures[query];
    Rejection r;
    r.message = f[8];
    std::smatch m;
    if (std::regex_search(f[9], m, pos)) {
      r.line = std::stoi(m[1]);
      r.column = std::stoi(m[2]);
    }
    out[query] = r;
  }
  for (auto it = out.begin(); it != out.end();)
    it = failures[it->first] == runs[it->first] ? std::next(it) : out.erase(it);
  return out;
}

}  // namespace

TEST_CASE("corpus: 406 queries parse or are rejected where CQL 6.2 rejects them", "[cql][corpus]") {
  auto files = corpus();
  REQUIRE(files.size() == 406);
  auto rejected = rejections();
  REQUIRE(rejected.size() == 33);
  int parsed = 0, refused = 0, positioned = 0;
  for (const fs::path& file : files) {
    std::string rel = fs::relative(file, examples_dir()).generic_string();
    std::string source = slurp(file);
    auto it = rejected.find(rel);
    INFO(rel);
    if (it == rejected.end()) {
      try {
        parse_query(source);
        ++parsed;
      } catch (const CqlError& e) {
        FAIL_CHECK(format_error(e, rel, source));
      }
      continue;
    }
    INFO("CQL 6.2: " << it->second.message);
    // CQL 6.2 stops when it evaluates a number matched as a position (6 silly/ queries): parsed, and compiled to a
    // program that stops where it gets there (the corpus golden runs check the exit and message)
    if (it->second.message.rfind("An attempt to match a position against the number", 0) == 0) {
      Query q = parse_query(source);
      CHECK(eval::compile(q, {}).may_fail);
      ++parsed;
      ++refused;
      continue;
    }
    // CQL 6.2 rejects it: a syntax error at its position, or (run-time error in CQL) at bind time
    bool threw = false;
    try {
      parse_query(source);
    } catch (const CqlError& e) {
      threw = true;
      if (it->second.line) {
        CHECK(e.line == it->second.line);
        CHECK(e.column == it->second.column);
        ++positioned;
      }
    }
    CHECK(threw);
    refused += threw;
  }
  CHECK(parsed == 379);   // 373 + the 6 that stop at run time
  CHECK(refused == 33);
  CHECK(positioned == 21);  // the other 12 have no position in CQL 6.2 (end of file, run time)
}

TEST_CASE("corpus: round trip print -> parse gives the same tree", "[cql][corpus][roundtrip]") {
  auto rejected = rejections();
  int checked = 0;
  for (const fs::path& file : corpus()) {
    std::string rel = fs::relative(file, examples_dir()).generic_string();
    if (rejected.count(rel)) continue;
    INFO(rel);
    Query q = parse_query(slurp(file));
    std::string text = print_cql(q);
    INFO(text);
    try {
      Query again = parse_query(text);
      CHECK(print_canonical(again) == print_canonical(q));
      ++checked;
    } catch (const CqlError& e) {
      FAIL_CHECK(format_error(e, rel + " (printed)", text));
    }
  }
  CHECK(checked == 373);
}

TEST_CASE("corpus: parse time of all 406 queries", "[cql][corpus][bench]") {
  auto files = corpus();
  std::vector<std::string> sources;
  for (const fs::path& f : files) sources.push_back(slurp(f));
  auto start = std::chrono::steady_clock::now();
  int ok = 0;
  for (const std::string& s : sources) {
    try {
      parse_query(s);
      ++ok;
    } catch (const CqlError&) {
    }
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::cout << "cql parse+bind of " << sources.size() << " corpus queries (" << ok << " accepted): " << ms
            << " ms\n";
  CHECK(ok == 379);  // 373 + 6 that CQL 6.2 stops at run time
}
