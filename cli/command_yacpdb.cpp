// cqlindex yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]: the YACPDB query language over a problem file
// (PGN games with solution trees, or YACPDB YAML entries such as Olive's .olv collections).
//
// Output: the matching entries in file order as PGN (YAML entries become one game per twin, the diagram as
// FEN and the solution as variations) to OUT.pgn, or to stdout without -o; the summary line
// `N matches of M entries in S seconds` on stdout (on stderr when the PGN goes to stdout). Problems reading
// the file go to stderr as FILE:LINE:COL: message. Entries not analysed for a predicate the query needs
// (work cap) never match and are counted in the summary.
// With an index of the file (`cqlindex build FILE`, `--yacpdb` for PGN) that still matches it, the analysis
// predicates are answered from the stored instances (as YACPDB does), with the same output as direct evaluation;
// the metadata predicates from the entries' metadata stored beside them. The file itself is read only when the
// matching entries are written (with their solutions). A stale index is
// refused (exit 2) as `run` does; `--no-index` evaluates directly.
// Exit 0 on success, 1 for a query or usage error, 2 when the file or its index cannot be read.
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/output_file.h"
#include "cli/open_index.h"
#include "engine/yacpdb/instance_index.h"
#include "indexer/index_location.h"
#include "indexer/yacpdb_index.h"
#include "store/index_store.h"
#include "engine/yacpdb/evaluator.h"
#include "engine/yacpdb/pgn_export.h"
#include "engine/yacpdb/problem.h"
#include "engine/yacpdb/query_parser.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

namespace {

// Opens the index of `input` that holds YACPDB instances: nullptr without one (direct evaluation); exit 2 when
// the index is damaged, stale or, when named, holds no instances.
int open_yacpdb_index(const std::string& input, const po::variables_map& vm,
                      std::unique_ptr<store::IndexStore>& index) {
  if (vm.count("no-index")) return kExitOk;
  const bool named = vm.count("index") > 0;
  const std::string flags = yacpdb::is_yaml_file(input) ? "" : " --yacpdb";
  std::string dir;
  // Only the yacpdb family (instances and entry metadata) is read: the game families of a PGN problem file stay
  // closed (a damaged block there is met by `cqlindex verify`, not by this query, which reads none of it).
  if (int rc = open_fresh_index({"yacpdb", input, named ? vm["index"].as<std::string>() : "", flags, true,
                                 {store::Family::Yacpdb}},
                                index, &dir);
      rc != kExitOk || !index)
    return rc;
  const std::string rebuild = "rebuild it with 'cqlindex build " + input + flags + "', or use --no-index";
  const std::string built = index->meta().build_options;  // a copy: the index may be closed below
  if (built.find(indexer::kYacpdbBuildMarker) == std::string::npos) {
    index.reset();  // an index of games only, or of another layout of the yacpdb family
    const bool other_version = built.find(indexer::kYacpdbBuildMarkerPrefix) != std::string::npos;
    if (!named && !other_version) return kExitOk;
    std::cerr << "cqlindex yacpdb: the index " << dir
              << (other_version ? " holds the YACPDB instances in an older layout ("
                                : " holds no YACPDB instances (")
              << rebuild << ")\n";
    return kExitInput;
  }
  return kExitOk;
}

}  // namespace

int command_yacpdb(int argc, char** argv) {
  po::options_description visible("usage: cqlindex yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::string>(), "problem file (.pgn, .olv, .yaml)")(
      "output,o", po::value<std::string>(), "write the matching entries here (default: stdout)")(
      "count", "only print the summary line")("index", po::value<std::string>(), "index folder (default: FILE.cqlidx)")(
      "no-index", "evaluate every entry directly, even when an index exists");
  po::variables_map vm;
  if (auto stop = parse_command_line("yacpdb", argc, argv, visible, "query", false, vm)) return *stop;
  if (!vm.count("query") || !vm.count("input")) {
    std::cerr << "cqlindex yacpdb: " << (vm.count("query") ? "missing -i FILE" : "missing QUERY") << "\n" << visible;
    return kExitUsage;
  }
  const std::string text = vm["query"].as<std::string>();
  yacpdb::Query query;
  try {
    query = yacpdb::parse_query(text);
  } catch (const yacpdb::QueryError& e) {
    std::cerr << "cqlindex yacpdb: query:1:" << e.column() << ": " << e.message() << "\n  " << text << "\n  "
              << std::string(static_cast<size_t>(e.column() - 1), ' ') << "^\n";
    return kExitUsage;
  }

  const auto start = std::chrono::steady_clock::now();
  const std::string path = vm["input"].as<std::string>();
  std::unique_ptr<store::IndexStore> index;
  if (int status = open_yacpdb_index(path, vm, index); status != kExitOk) return status;
  const bool count_only = vm.count("count") > 0;

  // The file is read unless the index alone answers (it holds the instances and the entries' metadata): only
  // to write the matching entries (their solutions) or without an index.
  yacpdb::ProblemFile file;
  const bool read_entries = !index || !count_only;
  if (read_entries) {
    file = yacpdb::read_problem_file(path);
    for (const std::string& e : file.errors) std::cerr << e << "\n";
    if (file.problems.empty() && !file.errors.empty()) return kExitInput;
  }
  std::vector<uint32_t> matched, unknown;
  size_t entries = file.problems.size();
  if (index) {
    entries = index->meta().game_count;
    if (read_entries && file.problems.size() != entries) {
      std::cerr << "cqlindex yacpdb: the index of " << path << " lists " << entries << " entries, the file has "
                << file.problems.size() << " (rebuild the index)\n";
      return kExitInput;
    }
    std::string error;
    auto instances = indexer::read_yacpdb_instances(*index, yacpdb::analysis_predicates(query),
                                                    static_cast<uint32_t>(entries), &error);
    if (!instances) {
      std::cerr << "cqlindex yacpdb: " << error << " (rebuild the index, or use --no-index)\n";
      return kExitInput;
    }
    if (read_entries || !yacpdb::needs_entries(query)) {
      matched = yacpdb::indexed_matches(query, *instances, file.problems, &unknown);
    } else if (yacpdb::needs_entry_text(query)) {
      auto stored = indexer::read_yacpdb_entries(*index, static_cast<uint32_t>(entries), &error, true,
                                                 yacpdb::needs_entry_pieces(query));
      if (!stored) {
        std::cerr << "cqlindex yacpdb: " << error << " (rebuild the index, or use --no-index)\n";
        return kExitInput;
      }
      matched = yacpdb::indexed_matches(query, *instances, *stored, &unknown);
    } else {  // the metadata predicates in one pass over the stored entries, none of them kept
      const bool pieces = yacpdb::needs_entry_pieces(query);
      auto found = yacpdb::indexed_matches_from(query, *instances, [&](const auto& visit) {
        return indexer::for_each_yacpdb_entry(*index, static_cast<uint32_t>(entries), pieces, visit, &error);
      }, &unknown);
      if (!found) {
        std::cerr << "cqlindex yacpdb: " << error << " (rebuild the index, or use --no-index)\n";
        return kExitInput;
      }
      matched = std::move(*found);
    }
  } else {
    yacpdb::QueryEvaluator evaluator(query);
    for (uint32_t i = 0; i < file.problems.size(); ++i) {
      const yacpdb::Problem& p = file.problems[i];
      yacpdb::Analysis analysis = evaluator.needs_analysis() ? yacpdb::analyse(p) : yacpdb::Analysis{};
      bool undetermined = false;
      if (evaluator.matches(p, analysis, &undetermined)) matched.push_back(i);
      if (undetermined) unknown.push_back(i);
    }
  }

  const bool to_stdout = !count_only && !vm.count("output");
  std::unique_ptr<OutputFile> out_file;
  if (!count_only && !to_stdout) {
    std::string error;
    bool is_input = false;
    out_file = OutputFile::open(vm["output"].as<std::string>(), {path}, &error, &is_input);
    if (!out_file) {
      std::cerr << "cqlindex yacpdb: " << error << "\n";
      return is_input ? kExitUsage : kExitInput;
    }
  }
  std::ostream& out = out_file ? out_file->stream() : std::cout;  // (--count: nothing is written)
  if (!count_only)
    for (uint32_t i : matched) out << yacpdb::problem_to_pgn(file.problems[i]);
  // No success line when the entries did not reach their file (or standard output).
  if (std::string error; out_file && !out_file->commit(&error)) {
    std::cerr << "cqlindex yacpdb: " << error << "\n";
    return kExitInput;
  }
  if (auto error = to_stdout ? standard_output_error() : std::nullopt) {
    std::cerr << "cqlindex yacpdb: " << *error << "\n";
    return kExitInput;
  }
  const size_t matches = matched.size(), undetermined = unknown.size();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char summary[160];
  std::snprintf(summary, sizeof summary, "%zu matches of %zu entries in %.2f seconds", matches, entries, seconds);
  std::ostream& report = to_stdout ? std::cerr : std::cout;
  report << summary;
  if (undetermined) report << " (" << undetermined << " entries not analysed for the query's predicates)";
  report << "\n";
  return kExitOk;
}

}  // namespace cqlindex::cli
