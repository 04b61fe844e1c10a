// POST /api/run: a CQL query over a served repository, answered by exec::run_query as `cqlindex run` answers
// it, one page of the matching games at a time.
#include <regex>

#include "exec/run_query.h"
#include "exec/served_query.h"
#include "serve/api_support.h"

namespace cqlindex::serve {
namespace {

// The name the query has in messages ("query:3:7: ...").
constexpr const char* kQueryName = "query";

// A CQL error as the run reported it ("query:L:C: message"), with its line and column when it has them.
Answer query_error(const std::string& diagnostics) {
  static const std::regex located(std::string("(^|\\n)") + kQueryName + ":(\\d+):(\\d+): ([^\\n]*)");
  std::smatch m;
  json answer{{"error", diagnostics}};
  if (std::regex_search(diagnostics, m, located)) {
    answer["line"] = std::stoi(m[2].str());
    answer["column"] = std::stoi(m[3].str());
    answer["error"] = m[4].str();
  }
  answer["diagnostics"] = diagnostics;
  return json_answer(400, answer);
}

}  // namespace

Answer api_run(const ApiContext& context, const std::string& body) {
  Answer refusal;
  auto request = parse_body(body, refusal);
  if (!request) return refusal;
  std::optional<std::string> cql;
  if (!string_field(*request, "cql", cql, refusal)) return refusal;
  if (!cql) return error_answer(400, "the body must hold \"cql\": the text of the query");
  const exec::ServedRepository* repository = chosen_repository(context, *request, refusal);
  if (!repository) return refusal;
  ResultPage page;
  if (!page.read(*request, context.settings.max_results, refusal)) return refusal;
  if (auto why = exec::served_query_refusal(*cql)) {
    json answer{{"error", why->message}};
    if (why->line > 0) {
      answer["line"] = why->line;
      answer["column"] = why->column;
    }
    return json_answer(400, answer);
  }
  if (std::string stale = repository->staleness(); !stale.empty()) return error_answer(503, stale);

  RunLines lines;
  exec::MemoryRun memory;
  memory.text = *cql;
  memory.indexes = repository->indexes();
  memory.tag_keys = repository->tag_keys();  // a player or tag test filters the names held in memory
  memory.messages = &lines.messages;
  memory.diagnostics = &lines.diagnostics;
  memory.on_game = [&](exec::OutputGame&& game) { return page.take(std::move(game)); };
  memory.games_wanted = page.games_wanted();  // the matches past the page are counted, not written
  set_limits(context, memory);
  exec::RunSettings settings;
  settings.query_file = kQueryName;
  // the files opened at the start, in their order (not the list again: an edited list would not match the indexes)
  settings.input = repository->files().front();
  settings.more_inputs.assign(repository->files().begin() + 1, repository->files().end());
  settings.threads = int(context.settings.threads);
  settings.memory = &memory;
  const exec::RunSummary summary = exec::run_query(settings);
  if (summary.status != exec::Status::Ok)
    if (auto stopped = stopped_answer(context, memory)) return *stopped;
  const bool failed = summary.status != exec::Status::Ok;
  if (auto failure = server_side_failure(*repository, failed, lines.diagnostics.str())) return *failure;
  if (summary.status != exec::Status::Ok) {
    if (summary.status == exec::Status::QueryError) return query_error(lines.diagnostics.str());
    json answer{{"error", "the run could not finish"}};
    lines.write(answer);
    return json_answer(500, answer);
  }
  json answer{{"matches", summary.matches}, {"games", summary.games_reported}, {"seconds", summary.seconds},
              {"persistent", summary.persistent}};
  page.write(answer);
  lines.write(answer);
  return json_answer(200, answer);
}

}  // namespace cqlindex::serve
