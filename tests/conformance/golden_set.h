#pragma once
// The random-differential golden set of CQL 6.2 (expected-output/random-differential): set-A's 1,191 kept
// runs and the repro and repro-2 cases, read from their tables; and the named known differences of
// tests/conformance/known_differences.tsv.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/shared_data.h"

namespace conformance {

namespace fs = std::filesystem;

inline fs::path data_dir() { return cqlindex::test::shared_data(""); }
inline fs::path random_differential_dir() { return cqlindex::test::shared_data("cql-examples/expected-output/random-differential"); }

// One run of CQL 6.2 kept as a golden.
struct GoldenRun {
  std::string id;          // "q00042" (set-A) or "A3-1" (repro case)
  std::string input;       // the input's name, e.g. "cql-sample"
  fs::path query;          // the query file
  int exit_code = 0;       // CQL 6.2's exit code
  std::string match_line;  // "N matches of M games"; empty when none
  fs::path output;         // the golden output file (.pgn or .pgn.xz); empty: the output was empty or absent
  std::string message;     // CQL's first message line when it rejects
  // repro-2 only: the input is a file of `inputs_dir` (every file of which the query may read from its
  // folder, as CQL 6.2 had them), and CQL's standard output is compared line by line.
  fs::path inputs_dir;     // empty: the input is input_file(input)
  std::string cql_stdout;  // CQL's standard output and error (cql.out)
  std::string repro_class; // the index's class ("A1", "B2", ..., "E")
  bool rejected() const { return exit_code != 0 || match_line.empty(); }
  // Returns the input's PGN file.
  fs::path input_path() const;
};

// Returns the rows of a tab-separated file with a header line, as maps from column name to cell.
inline std::vector<std::map<std::string, std::string>> read_tsv(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<std::string> head;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, '\t');) cells.push_back(cell);
    if (head.empty()) {
      head = cells;
      continue;
    }
    auto& row = rows.emplace_back();
    for (size_t i = 0; i < head.size(); ++i) row[head[i]] = i < cells.size() ? cells[i] : "";
  }
  return rows;
}

// Returns `cell`, or "" when it is the tables' "-" (none).
inline std::string cell_or_empty(const std::string& cell) { return cell == "-" ? "" : cell; }

// Returns the PGN file of an input name (README, "Inputs").
inline fs::path input_file(const std::string& name) {
  if (name == "cql-sample") return data_dir() / "studies" / "cql-sample.pgn";
  return random_differential_dir() / "inputs" / (name + ".pgn");
}

inline fs::path GoldenRun::input_path() const {
  return inputs_dir.empty() ? input_file(input) : inputs_dir / input;
}

// Returns set-A's kept runs (summary.tsv), in its order.
inline std::vector<GoldenRun> set_a_runs() {
  const fs::path set_a = random_differential_dir() / "set-A";
  std::vector<GoldenRun> runs;
  for (auto& row : read_tsv(set_a / "summary.tsv")) {
    GoldenRun g;
    g.id = fs::path(row["query"]).stem().string();
    g.input = row["input"];
    g.query = set_a / "queries" / row["query"];
    g.exit_code = std::stoi(row["exit"]);
    g.match_line = cell_or_empty(row["match_line"]);
    if (!cell_or_empty(row["output_file"]).empty()) g.output = set_a / row["output_file"];
    g.message = cell_or_empty(row["message"]);
    runs.push_back(g);
  }
  return runs;
}

// Returns the repro cases (repro/index.tsv), in its order.
inline std::vector<GoldenRun> repro_runs() {
  const fs::path repro = random_differential_dir() / "repro";
  std::vector<GoldenRun> runs;
  for (auto& row : read_tsv(repro / "index.tsv")) {
    GoldenRun g;
    g.id = row["case"];
    g.input = row["input"];
    const fs::path dir = repro / g.id;
    g.query = dir / "query.cql";
    g.exit_code = std::stoi(row["cql_exit"]);
    g.match_line = cell_or_empty(row["cql_match_line"]);
    for (const char* name : {"cql.pgn", "cql.pgn.xz"})
      if (fs::exists(dir / name)) g.output = dir / name;
    g.message = row["what_cql62_does"];
    runs.push_back(g);
  }
  return runs;
}

// Returns the file's bytes.
inline std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Returns the repro-2 cases (repro-2/index.tsv), in its order; each case's folder holds its query and CQL's
// exit status, standard output and output file, and the inputs are in repro-2/inputs.
inline std::vector<GoldenRun> repro2_runs() {
  const fs::path repro = random_differential_dir() / "repro-2";
  std::vector<GoldenRun> runs;
  for (auto& row : read_tsv(repro / "index.tsv")) {
    GoldenRun g;
    g.id = row["case"];
    g.input = row["input"];
    g.inputs_dir = repro / "inputs";
    const fs::path dir = repro / g.id;
    g.query = dir / "query.cql";
    g.exit_code = std::stoi(file_text(dir / "cql.exit"));
    g.match_line = cell_or_empty(row["cql_match_line"]);
    for (const char* name : {"cql.pgn", "cql.pgn.xz"})
      if (fs::exists(dir / name)) g.output = dir / name;
    g.message = row["what_cql62_does"];
    g.cql_stdout = file_text(dir / "cql.out");
    g.repro_class = row["class"];
    runs.push_back(g);
  }
  return runs;
}

// A disagreement with CQL 6.2 we keep on purpose, and what we answer instead.
struct KnownDifference {
  std::string id, input, difference_class, reason;
  int our_exit = 0;
  std::string our_match_line;  // empty: none
};

// Returns the known differences, keyed by "id input".
inline std::map<std::string, KnownDifference> known_differences() {
  std::map<std::string, KnownDifference> known;
  for (auto& row : read_tsv(fs::path(CQLINDEX_SOURCE_DIR) / "tests" / "conformance" / "known_differences.tsv")) {
    KnownDifference k{row["id"], row["input"], row["class"], row["reason"], std::stoi(row["our_exit"]),
                      cell_or_empty(row["our_match_line"])};
    known[k.id + " " + k.input] = k;
  }
  return known;
}

// A repro case not yet agreeing with CQL 6.2 (open_cases.tsv): an open defect, listed so that the suite stays
// green while it is worked on, and checked to still differ so that a fixed case cannot stay listed.
struct OpenCase {
  std::string id, input, case_class, what;
};

// Returns the open cases, keyed by "id input".
inline std::map<std::string, OpenCase> open_cases() {
  std::map<std::string, OpenCase> open;
  for (auto& row : read_tsv(fs::path(CQLINDEX_SOURCE_DIR) / "tests" / "conformance" / "open_cases.tsv")) {
    OpenCase o{row["id"], row["input"], row["class"], row["what is still wrong"]};
    open[o.id + " " + o.input] = o;
  }
  return open;
}

}  // namespace conformance
