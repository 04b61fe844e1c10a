// POST /api/yacpdb: a YACPDB query over the served problem file, answered by exec::run_yacpdb as `cqlindex yacpdb`
// answers it, one page of the matching entries at a time.
#include <regex>

#include "exec/yacpdb_query.h"
#include "serve/api_support.h"

namespace cqlindex::serve {
namespace {

// A query error as the run reported it ("query:1:C: message"), with its column when it has one.
Answer yacpdb_query_error(const std::string& diagnostics) {
  static const std::regex located("query:1:(\\d+): ([^\\n]*)");
  std::smatch m;
  json answer{{"error", diagnostics}};
  if (std::regex_search(diagnostics, m, located)) {
    answer["line"] = 1;
    answer["column"] = std::stoi(m[1].str());
    answer["error"] = m[2].str();
  }
  answer["diagnostics"] = diagnostics;
  return json_answer(400, answer);
}

}  // namespace

const std::string& problem_file(const ApiContext& context, const exec::ServedRepository& repository) {
  return context.settings.problems.empty() ? repository.input() : context.settings.problems;
}

Answer api_yacpdb(const ApiContext& context, const std::string& body) {
  Answer refusal;
  auto request = parse_body(body, refusal);
  if (!request) return refusal;
  std::optional<std::string> query;
  if (!string_field(*request, "query", query, refusal)) return refusal;
  if (!query) return error_answer(400, "the body must hold \"query\": the text of a YACPDB query");
  const exec::ServedRepository* repository = chosen_repository(context, *request, refusal);
  if (!repository) return refusal;
  ResultPage page;
  if (!page.read(*request, context.settings.max_results, refusal)) return refusal;
  page.stop_after_page();  // every match is counted; only the page's entries are kept
  // The served repository's file is checked per request; another problem file (--problems) by its own index.
  if (context.settings.problems.empty())
    if (std::string stale = repository->staleness(); !stale.empty()) return error_answer(503, stale);

  RunLines lines;
  exec::MemoryRun memory;
  memory.messages = &lines.messages;
  memory.diagnostics = &lines.diagnostics;
  memory.on_game = [&](exec::OutputGame&& entry) { return page.take(std::move(entry)); };
  set_limits(context, memory);
  exec::YacpdbSettings settings;
  settings.query = *query;
  // As `cqlindex yacpdb QUERY -i FILE [--index DIR]`: its index when it has one that holds the instances.
  if (context.settings.problems.empty()) {  // the chosen repository: its files as opened at the start
    settings.input = repository->files().front();
    settings.more_inputs.assign(repository->files().begin() + 1, repository->files().end());
    if (repository->files().size() == 1) settings.index_dir = context.settings.index_dir;
  } else {
    settings.input = context.settings.problems;
  }
  settings.memory = &memory;
  const exec::YacpdbSummary summary = exec::run_yacpdb(settings);
  if (summary.status != exec::Status::Ok)
    if (auto stopped = stopped_answer(context, memory)) return *stopped;
  if (context.settings.problems.empty())
    if (auto failure = server_side_failure(*repository, summary.status != exec::Status::Ok, lines.diagnostics.str()))
      return *failure;
  if (summary.status != exec::Status::Ok) {
    if (summary.status == exec::Status::QueryError) return yacpdb_query_error(lines.diagnostics.str());
    json answer{{"error", "the problem file or its index could not be read"}};
    lines.write(answer);
    return json_answer(500, answer);
  }
  json answer{{"file", problem_file(context, *repository)},
              {"matches", summary.matches},
              {"entries", summary.entries},
              {"undetermined", summary.undetermined},
              {"seconds", summary.seconds}};
  page.write(answer);
  answer["complete"] = true;  // every match was counted; only the page's entries were kept
  lines.write(answer);
  return json_answer(200, answer);
}

}  // namespace cqlindex::serve
