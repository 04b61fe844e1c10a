// The yacpdb pipeline: parse the query -> open the index that holds the problem instances (else evaluate
// every entry directly) -> pick the cheapest way the index answers (the entries read, the stored entries kept,
// or one pass over the stored metadata) -> write the matching entries in file order.
// Exit statuses: QueryError for a query or usage error, InputError when the file or its index cannot be read.
#include "exec/yacpdb_query.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/yacpdb/evaluator.h"
#include "engine/yacpdb/instance_index.h"
#include "engine/yacpdb/pgn_export.h"
#include "engine/yacpdb/problem.h"
#include "engine/yacpdb/query_parser.h"
#include "engine/pgn/reader.h"
#include "exec/memory_run.h"
#include "exec/open_index.h"
#include "exec/output_file.h"
#include "exec/repository.h"
#include "exec/worker_pool.h"
#include "indexer/yacpdb_index.h"
#include "store/index_store.h"

namespace cqlindex::exec {

namespace {

// Entries a worker analyses at a time: an analysis (a solution tree's predicates) is costly, so batches are small.
constexpr size_t kEntriesPerWorker = 4;

// Opens the index of `input` that holds YACPDB instances: nullptr without one (direct evaluation); InputError
// when the index is damaged, stale or, when named, holds no instances.
// Where a query's stderr lines go: the terminal, or a served query's memory.
std::ostream& diagnostics_of(const YacpdbSettings& settings) {
  return settings.memory ? *settings.memory->diagnostics : std::cerr;
}

// Says where the query `text` went wrong: "query:1:COL: message", the query and a caret under the column.
void print_query_error(std::ostream& diag, const std::string& text, const yacpdb::QueryError& e) {
  diag << "cqlindex yacpdb: query:1:" << e.column() << ": " << e.message() << "\n  " << text << "\n  "
       << std::string(static_cast<size_t>(std::max(1, e.column()) - 1), ' ') << "^\n";
}

Status open_yacpdb_index(const YacpdbSettings& settings, std::unique_ptr<store::IndexStore>& index) {
  if (settings.no_index) return Status::Ok;
  const std::string& input = settings.input;
  const bool named = !settings.index_dir.empty();
  const std::string flags = yacpdb::is_yaml_file(input) ? "" : " --yacpdb";
  std::string dir;
  // Only the yacpdb family (instances and entry metadata) is read: the game families of a PGN problem file stay
  // closed (a damaged block there is met by `cqlindex verify`, not by this query, which reads none of it).
  if (Status s = open_fresh_index({"yacpdb", input, settings.index_dir, flags, true, {store::Family::Yacpdb}}, index,
                                  &dir);
      s != Status::Ok || !index)
    return s;
  const std::string rebuild = "rebuild it with 'cqlindex build " + input + flags + "', or use --no-index";
  const std::string built = index->meta().build_options;  // a copy: the index may be closed below
  if (built.find(indexer::kYacpdbBuildMarker) == std::string::npos) {
    index.reset();  // an index of games only, or of another layout of the yacpdb family
    const bool other_version = built.find(indexer::kYacpdbBuildMarkerPrefix) != std::string::npos;
    if (!named && !other_version) return Status::Ok;
    diagnostics_of(settings) << "cqlindex yacpdb: the index " << dir
              << (other_version ? " holds the YACPDB instances in an older layout ("
                                : " holds no YACPDB instances (")
              << rebuild << ")\n";
    return Status::InputError;
  }
  return Status::Ok;
}

// Answers `query` over the one problem file settings.input: the matching entries appended to `answer` as PGN
// (unless count_only), the counts added to `summary`; returns how it ended (the messages are on stderr).
Status match_problem_file(const yacpdb::Query& query, const YacpdbSettings& settings, std::string& answer,
                          YacpdbSummary& summary) {
  const std::string& path = settings.input;
  std::unique_ptr<store::IndexStore> index;
  if (Status status = open_yacpdb_index(settings, index); status != Status::Ok) return status;
  const bool count_only = settings.count_only;
  std::ostream& diag = diagnostics_of(settings);

  // The file is read unless the index alone answers (it holds the instances and the entries' metadata): only
  // to write the matching entries (their solutions) or without an index.
  yacpdb::ProblemFile file;
  const bool read_entries = !index || !count_only;
  if (read_entries) {
    file = yacpdb::read_problem_file(path);
    for (const std::string& e : file.errors) diag << e << "\n";
    if (file.problems.empty() && !file.errors.empty()) return Status::InputError;
  }
  std::vector<uint32_t> matched, unknown;
  size_t entries = file.problems.size();
  if (index) {
    entries = index->meta().game_count;
    if (read_entries && file.problems.size() != entries) {
      diag << "cqlindex yacpdb: the index of " << path << " lists " << entries << " entries, the file has "
                << file.problems.size() << " (rebuild the index)\n";
      return Status::InputError;
    }
    std::string error;
    auto instances = indexer::read_yacpdb_instances(*index, yacpdb::analysis_predicates(query),
                                                    static_cast<uint32_t>(entries), &error);
    if (!instances) {
      diag << "cqlindex yacpdb: " << error << " (rebuild the index, or use --no-index)\n";
      return Status::InputError;
    }
    if (read_entries || !yacpdb::needs_entries(query)) {
      matched = yacpdb::indexed_matches(query, *instances, file.problems, &unknown);
    } else if (yacpdb::needs_entry_text(query)) {
      auto stored = indexer::read_yacpdb_entries(*index, static_cast<uint32_t>(entries), &error, true,
                                                 yacpdb::needs_entry_pieces(query));
      if (!stored) {
        diag << "cqlindex yacpdb: " << error << " (rebuild the index, or use --no-index)\n";
        return Status::InputError;
      }
      matched = yacpdb::indexed_matches(query, *instances, *stored, &unknown);
    } else {  // the metadata predicates in one pass over the stored entries, none of them kept
      const bool pieces = yacpdb::needs_entry_pieces(query);
      auto found = yacpdb::indexed_matches_from(query, *instances, [&](const auto& visit) {
        return indexer::for_each_yacpdb_entry(*index, static_cast<uint32_t>(entries), pieces, visit, &error);
      }, &unknown);
      if (!found) {
        diag << "cqlindex yacpdb: " << error << " (rebuild the index, or use --no-index)\n";
        return Status::InputError;
      }
      matched = std::move(*found);
    }
  } else {
    // Every entry analysed and evaluated on the worker pool, the answers taken in file order.
    const yacpdb::QueryEvaluator evaluator(query);
    struct Answer {
      bool matched = false, undetermined = false;
      std::optional<yacpdb::QueryError> error;  // the query cannot be answered on this entry (a Stip too costly)
    };
    std::optional<yacpdb::QueryError> failed;
    const bool finished = for_each_in_order<Answer>(
        file.problems.size(), pgn::resolve_threads(0), kEntriesPerWorker,
        [&](size_t i, unsigned) -> std::optional<Answer> {
          if (settings.memory && settings.memory->cancelled()) return std::nullopt;  // a served query stopped
          const yacpdb::Problem& p = file.problems[i];
          yacpdb::Analysis analysis = evaluator.needs_analysis() ? yacpdb::analyse(p) : yacpdb::Analysis{};
          Answer a;
          try {
            a.matched = evaluator.matches(p, analysis, &a.undetermined);
          } catch (const yacpdb::QueryError& e) {
            a.error = e;
          }
          return a;
        },
        [&](size_t i, Answer&& a) {
          if (a.error) {  // the first entry in file order where the query fails
            failed = std::move(a.error);
            return false;
          }
          if (a.matched) matched.push_back(uint32_t(i));
          if (a.undetermined) unknown.push_back(uint32_t(i));
          return true;
        });
    if (failed) {
      print_query_error(diag, settings.query, *failed);
      return Status::QueryError;
    }
    if (!finished) {
      diag << "cqlindex yacpdb: stopped: the query was cancelled\n";
      return Status::InputError;
    }
  }

  if (settings.memory) {  // a served query: each entry handed over, until the caller has enough
    for (uint32_t i : matched) {
      OutputGame out;
      out.number = summary.entries + i + 1;
      out.pgn = yacpdb::problem_to_pgn(file.problems[i]);
      pgn::Game game;  // the tags of the entry's (first) game, as written
      pgn::parse_game(out.pgn, pgn::GameLocation{out.number, 0, 1, 1}, game);
      for (const pgn::Tag& t : game.tags) out.tags.emplace_back(std::string(t.name), std::string(t.value));
      if (!settings.memory->on_game(std::move(out))) break;
    }
  } else if (!count_only) {
    for (uint32_t i : matched) answer += yacpdb::problem_to_pgn(file.problems[i]);
  }
  summary.matches += matched.size();
  summary.entries += entries;
  summary.undetermined += unknown.size();
  return Status::Ok;
}

}  // namespace

YacpdbSummary run_yacpdb(const YacpdbSettings& settings) {
  YacpdbSummary summary;
  auto stop = [&](Status status) { return stopped(summary, status); };
  const std::string& text = settings.query;
  std::ostream& diag = diagnostics_of(settings);
  yacpdb::Query query;
  try {
    query = yacpdb::parse_query(text);
  } catch (const yacpdb::QueryError& e) {
    print_query_error(diag, text, e);
    return stop(Status::QueryError);
  }

  const auto start = std::chrono::steady_clock::now();
  // The problem files: one, or a repository (repeated -i, a .cqlrepo list) read as their concatenation.
  std::vector<std::string> inputs{settings.input};
  inputs.insert(inputs.end(), settings.more_inputs.begin(), settings.more_inputs.end());
  std::string error;
  const std::optional<Repository> repository = Repository::resolve(inputs, &error);
  if (!repository || repository->files().empty()) {
    diag << "cqlindex yacpdb: "
              << (repository ? "the repository list '" + settings.input + "' names no file" : error) << "\n";
    return stop(Status::InputError);
  }
  if (!repository->single() && !settings.index_dir.empty()) {
    diag << "cqlindex yacpdb: --index names the index of one file; the files of a repository are read with "
                 "their own indexes\n";
    return stop(Status::QueryError);
  }
  const bool count_only = settings.count_only;
  std::string answer;  // the matching entries as PGN, in repository order
  for (const std::string& path : repository->files()) {
    YacpdbSettings one = settings;
    one.input = path;
    try {
      if (Status status = match_problem_file(query, one, answer, summary); status != Status::Ok) return stop(status);
    } catch (const yacpdb::QueryError& e) {  // met while the index answers (the workers' are delivered in order)
      print_query_error(diag, text, e);
      return stop(Status::QueryError);
    }
  }
  if (settings.memory) {  // the entries went to the caller: no file, no standard output
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
  }

  const bool to_stdout = !count_only && settings.output.empty();
  std::unique_ptr<OutputFile> out_file;
  if (!count_only && !to_stdout) {
    std::string error;
    bool is_input = false;
    out_file = OutputFile::open(settings.output, repository->read_paths(), &error, &is_input);
    if (!out_file) {
      std::cerr << "cqlindex yacpdb: " << error << "\n";
      return stop(is_input ? Status::QueryError : Status::InputError);
    }
  }
  std::ostream& out = out_file ? out_file->stream() : std::cout;  // (--count: nothing is written)
  out << answer;
  // No success line when the entries did not reach their file (or standard output).
  if (std::string error; out_file && !out_file->commit(&error)) {
    std::cerr << "cqlindex yacpdb: " << error << "\n";
    return stop(Status::InputError);
  }
  if (auto error = to_stdout ? standard_output_error() : std::nullopt) {
    std::cerr << "cqlindex yacpdb: " << *error << "\n";
    return stop(Status::InputError);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.entries_on_stdout = to_stdout;
  return summary;
}

}  // namespace cqlindex::exec
