// `cqlindex run` against CQL 6.2's own output files: the opening-tactics re-runs (19 byte-identical outputs and
// one rejected query) and corpus-runs (every reti and opening-tactics query on four inputs, byte-identical).
// Queries whose filters the evaluator does not implement yet are listed by name with the reason (kPending);
// the test prints those that pass on an input, so the list is kept honest.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "eval/eval_support.h"
#include "support/process.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using namespace cqlindex;

namespace {

fs::path examples_dir() { return cqlindex::test::shared_data("cql-examples"); }
fs::path gold_dir() { return cqlindex::test::shared_data("cql-examples/expected-output"); }

struct Run {
  int exit_code;
  std::string console, output;
};

Run run_cli(const fs::path& query, const fs::path& input, const fs::path& work, const std::string& extra = "") {
  fs::create_directories(work);
  const fs::path out = work / "out.pgn";
  fs::remove(out);
  auto r = test::run_process(std::string(CQLINDEX_BINARY) + " run -i " + test::shell_quote(input.string()) + " -o " +
                             test::shell_quote(out.string()) + " " + extra + " " + test::shell_quote(query.string()) +
                             " 2>&1");
  return {r.exit_code, r.out, test::slurp(out)};
}

std::string matches_line(const std::string& console) {
  std::smatch m;
  return std::regex_search(console, m, std::regex(R"((\d+) matches of (\d+) games)")) ? m[0].str() : "";
}

fs::path scratch(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("cqlindex-eval-" + std::to_string(::getpid())) / name;
  fs::create_directories(p);
  return p;
}

// The rows of a golden summary.tsv after its header, each split at tabs.
std::vector<std::vector<std::string>> tsv_rows(const fs::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(test::slurp(file));
  std::string line, cell;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    auto& f = rows.emplace_back();
    while (std::getline(ls, cell, '\t')) f.push_back(cell);
  }
  return rows;
}

// Queries that need filters of part 2 (issue 7) or are not yet byte-identical, with the reason.
const std::map<std::string, std::string> kPending = {
};

}  // namespace

TEST_CASE("opening-tactics re-runs: 19 outputs byte-identical and 1 query rejected", "[eval][golden]") {
  const fs::path gold = gold_dir() / "opening-tactics-rerun-cql62";
  std::istringstream summary(test::slurp(gold / "summary.tsv"));
  std::string line;
  int identical = 0, rejected = 0;
  std::vector<std::string> failures;
  while (std::getline(summary, line)) {
    if (line.empty()) continue;
    const std::string q = line.substr(0, line.find('\t')), expected = line.substr(line.find('\t') + 1);
    Run r = run_cli(examples_dir() / "opening-tactics-frequency" / (q + ".cql"),
                    examples_dir() / "opening-tactics-frequency" / "output" / (q + ".pgn"), scratch("tactics"));
    if (expected.rfind("CQL syntax error", 0) == 0) {
      if (r.exit_code == 1) ++rejected;
      else failures.push_back(q + " was not rejected");
    } else if (r.exit_code == 0 && matches_line(r.console) == expected && r.output == test::slurp(gold / (q + ".pgn"))) {
      ++identical;
    } else {
      failures.push_back(q + " (" + matches_line(r.console) + "; CQL 6.2: " + expected + ")");
    }
  }
  std::string list;
  for (const std::string& f : failures) list += "  " + f + "\n";
  INFO("differs:\n" << list);
  CHECK(identical == 19);
  CHECK(rejected == 1);
}

// The 90 distribution examples on cql-sample.pgn (exalpha-on-cql-sample): output file byte-identical and the
// same "N matches of 253 games" line, except the queries of kPending.
TEST_CASE("exalpha on cql-sample: 90 outputs byte-identical", "[eval][golden]") {
  const fs::path gold = gold_dir() / "exalpha-on-cql-sample";
  const fs::path input = cqlindex::test::shared_data("studies/cql-sample.pgn");
  int ran = 0, identical = 0, pending = 0;
  std::vector<std::string> failures, pending_passing;
  for (const auto& f : tsv_rows(gold / "summary.tsv")) {
    if (f.size() < 4) continue;
    ++ran;
    const std::string query = "cql62-distribution-examples/" + f[0] + "/" + f[1] + ".cql";
    Run r = run_cli(examples_dir() / query, input, scratch("exalpha"));
    const bool ok = r.exit_code == std::stoi(f[2]) && matches_line(r.console) == f[3] &&
                    r.output == test::slurp(gold / (f[1] + ".pgn"));
    if (kPending.count(query)) {
      ++pending;
      if (ok) pending_passing.push_back(query);
    } else if (ok) {
      ++identical;
    } else {
      failures.push_back(f[1] + " (exit " + std::to_string(r.exit_code) + ": " + matches_line(r.console) + "; CQL 6.2: " + f[3] + ")");
    }
  }
  std::string list, passing;
  for (const std::string& f : failures) list += "  " + f + "\n";
  for (const std::string& f : pending_passing) passing += "  " + f + "\n";
  INFO(ran << " queries, " << identical << " identical, " << pending << " pending (see kPending)\nfailing:\n" << list
           << "pending queries that now pass (take them off kPending):\n" << passing);
  CHECK(ran == 90);
  CHECK(failures.empty());
  CHECK(pending_passing.empty());
}

namespace {

struct Row {
  std::string input, corpus, query, exit, matches, output_file;
};

std::vector<Row> corpus_rows() {
  std::vector<Row> rows;
  for (const auto& f : tsv_rows(gold_dir() / "corpus-runs" / "summary.tsv"))
    if (f.size() >= 8) rows.push_back({f[0], f[1], f[2], f[3], f[4], f[7]});
  return rows;
}

const std::map<std::string, std::string> kInputs = {
    {"book_1.02.small-1005", "gnuchess-book/book_1.02.small-1005.pgn"},
    {"world_matches.train", "jvanreek-annotated/world_matches.train.pgn"},
    {"dortmund1928.train", "jvanreek-annotated/dortmund1928.train.pgn"},
    {"mate_in_2", "problems/mate-in-n-from-games/mate_in_2.pgn"},
};

void check_corpus(const std::string& input, const std::string& corpus) {
  const fs::path data = cqlindex::test::shared_data(kInputs.at(input));
  std::vector<std::string> failures, pending_passing;
  int ran = 0, pending = 0;
  for (const Row& row : corpus_rows()) {
    if (row.input != input || row.corpus != corpus) continue;
    ++ran;
    Run r = run_cli(examples_dir() / row.query, data, scratch(input + "-" + corpus));
    bool ok;
    if (row.exit != "0") {
      ok = r.exit_code == 1;
    } else {
      std::smatch m;
      ok = r.exit_code == 0 && std::regex_search(r.console, m, std::regex(R"((\d+) matches of)")) && m[1] == row.matches;
      if (ok && row.output_file != "-") ok = r.output == test::slurp(gold_dir() / "corpus-runs" / row.output_file);
    }
    const bool is_pending = kPending.count(row.query) > 0;
    if (is_pending) {
      ++pending;
      // a pending query that now passes must leave the list
      if (ok) pending_passing.push_back(row.query);
    } else if (!ok) {
      failures.push_back(row.query + " (exit " + std::to_string(r.exit_code) + ": " + matches_line(r.console) +
                         "; CQL 6.2: exit " + row.exit + ", " + row.matches + " matches)");
    }
  }
  std::string list;
  for (const std::string& f : failures) list += "  " + f + "\n";
  INFO(input << " x " << corpus << ": " << ran << " queries, " << pending << " pending (see kPending)\nfailing:\n" << list);
  CHECK(ran > 0);
  CHECK(failures.empty());
  std::string passing;
  for (const std::string& f : pending_passing) passing += "  " + f + "\n";
  INFO("pending queries that now pass on this input (fine while they still fail elsewhere):\n" << passing);
  CHECK(true);
}

}  // namespace

TEST_CASE("corpus-runs: distribution examples on mate_in_2", "[eval][corpus]") { check_corpus("mate_in_2", "cql62-distribution-examples"); }
TEST_CASE("corpus-runs: distribution examples on dortmund1928", "[eval][corpus]") { check_corpus("dortmund1928.train", "cql62-distribution-examples"); }
TEST_CASE("corpus-runs: distribution examples on world_matches", "[eval][corpus]") { check_corpus("world_matches.train", "cql62-distribution-examples"); }
TEST_CASE("corpus-runs: distribution examples on book-1005", "[eval][corpus]") { check_corpus("book_1.02.small-1005", "cql62-distribution-examples"); }
TEST_CASE("corpus-runs: opening-tactics on mate_in_2", "[eval][corpus]") { check_corpus("mate_in_2", "opening-tactics-frequency"); }
TEST_CASE("corpus-runs: opening-tactics on dortmund1928", "[eval][corpus]") { check_corpus("dortmund1928.train", "opening-tactics-frequency"); }
TEST_CASE("corpus-runs: opening-tactics on world_matches", "[eval][corpus]") { check_corpus("world_matches.train", "opening-tactics-frequency"); }
TEST_CASE("corpus-runs: opening-tactics on book-1005", "[eval][corpus]") { check_corpus("book_1.02.small-1005", "opening-tactics-frequency"); }
TEST_CASE("corpus-runs: reti on mate_in_2", "[eval][corpus]") { check_corpus("mate_in_2", "reti"); }
TEST_CASE("corpus-runs: reti on dortmund1928", "[eval][corpus]") { check_corpus("dortmund1928.train", "reti"); }
TEST_CASE("corpus-runs: reti on world_matches", "[eval][corpus]") { check_corpus("world_matches.train", "reti"); }
TEST_CASE("corpus-runs: reti on book-1005", "[eval][corpus]") { check_corpus("book_1.02.small-1005", "reti"); }

TEST_CASE("thread counts 1 2 8 write the same bytes", "[eval][threads]") {
  const fs::path input = cqlindex::test::shared_data("gnuchess-book/book_1.02.small-1005.pgn");
  for (const char* q : {"opening-tactics-frequency/bishop_sac_f7.cql", "reti/cql-files/silly/outpost.cql",
                        "reti/cql-files/lila/pin.cql"}) {
    Run one = run_cli(examples_dir() / q, input, scratch("t1"), "--threads 1");
    Run two = run_cli(examples_dir() / q, input, scratch("t2"), "--threads 2");
    Run eight = run_cli(examples_dir() / q, input, scratch("t8"), "-threads 8");
    INFO(q);
    CHECK(one.exit_code == 0);
    CHECK(!one.output.empty());
    CHECK(one.output == two.output);
    CHECK(one.output == eight.output);
    CHECK(matches_line(one.console) == matches_line(eight.console));
  }
}
