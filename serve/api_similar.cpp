// POST /api/similar: a study (a FEN, or PGN text of submissions) against a served repository, answered by
// exec::run_similar as `cqlindex similar` answers it.
#include "exec/served_query.h"
#include "exec/similar_query.h"
#include "serve/api_support.h"

namespace cqlindex::serve {

Answer api_similar(const ApiContext& context, const std::string& body) {
  Answer refusal;
  auto request = parse_body(body, refusal);
  if (!request) return refusal;
  std::optional<std::string> fen, pgn;
  bool sort = true, notransform = false;
  if (!string_field(*request, "fen", fen, refusal) || !string_field(*request, "pgn", pgn, refusal) ||
      !bool_field(*request, "sort", true, sort, refusal) ||
      !bool_field(*request, "notransform", false, notransform, refusal))
    return refusal;
  if (fen.has_value() == pgn.has_value())
    return error_answer(400, "the body must hold either \"fen\" (one position) or \"pgn\" (submission games)");
  const exec::ServedRepository* repository = chosen_repository(context, *request, refusal);
  if (!repository) return refusal;
  ResultPage page;
  if (!page.read(*request, context.settings.max_results, refusal)) return refusal;
  page.stop_after_page();
  std::string submissions;
  if (fen) {
    std::string error;
    auto text = exec::submission_of_fen(*fen, &error);
    if (!text) return error_answer(400, "bad FEN: " + error);
    submissions = std::move(*text);
  } else {
    submissions = std::move(*pgn);
  }
  if (std::string stale = repository->staleness(); !stale.empty()) return error_answer(503, stale);

  RunLines lines;
  exec::MemoryRun memory;
  memory.text = std::move(submissions);
  memory.indexes = repository->indexes();
  memory.messages = &lines.messages;
  memory.diagnostics = &lines.diagnostics;
  memory.on_game = [&](exec::OutputGame&& game) { return page.take(std::move(game)); };
  set_limits(context, memory);
  exec::SimilarRequest similar;
  similar.submissions = "submissions.pgn";  // as CQL names a submissions file in its comments
  similar.repository = repository->files().front();  // the files opened at the start, in their order
  similar.more_inputs.assign(repository->files().begin() + 1, repository->files().end());
  similar.sort = sort;
  similar.notransform = notransform;
  similar.threads = context.settings.threads;
  similar.memory = &memory;
  const exec::SimilarSummary summary = exec::run_similar(similar);
  if (summary.status != exec::Status::Ok) {
    if (auto stopped = stopped_answer(context, memory)) return *stopped;
    // The repository was checked above: what failed is the submissions (no game could be read from them).
    json answer{{"error", "the submissions could not be used"}};
    lines.write(answer);
    return json_answer(400, answer);
  }
  json answer{{"matches", summary.matches}, {"games", summary.games}, {"seconds", summary.seconds}};
  page.write(answer);
  answer["complete"] = true;  // every match was found; only the page's games were written
  lines.write(answer);
  return json_answer(200, answer);
}

}  // namespace cqlindex::serve
