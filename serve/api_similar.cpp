// POST /api/similar: a study (FENs, one a line, or PGN text of submissions) against a served repository, answered
// by exec::run_similar as `cqlindex similar` answers it, with "near": 1 as `cqlindex similar --near 1` does. A
// study is searched as typed or refused where it goes wrong: a FEN with a field wrong or missing, a game the
// PGN reader would cut at a move it cannot play (which `cqlindex similar` searches up to there, as CQL does).
#include "exec/near_facts.h"
#include "exec/near_search.h"
#include "exec/served_query.h"
#include "exec/similar_comment.h"
#include "exec/similar_query.h"
#include "serve/api_support.h"

namespace cqlindex::serve {
namespace {

// Reads "near" (absent: 0) into `out`; false with `refusal` when it is not 0 or 1. Beyond the index's distance
// (exec::kIndexedNearLimit) the command line scans every game, which a server does not.
bool near_field(const json& request, unsigned& out, Answer& refusal) {
  static_assert(exec::kIndexedNearLimit == 1, "the refusal says 0 or 1");
  out = 0;
  auto it = request.find("near");
  if (it == request.end()) return true;
  if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > int64_t(exec::kIndexedNearLimit)) {
    refusal = error_answer(400, "\"near\" must be 0 (exact matches only) or 1 (also the positions one square "
                                "away: a piece added, removed or replaced), as cqlindex similar --near 1 finds them");
    return false;
  }
  out = it->get<unsigned>();
  return true;
}

// A near pair as `cqlindex similar --near` states it on stderr, with both boards.
json near_json(exec::NearFacts&& f) {
  json tags = json::array();
  for (auto& [name, value] : f.tags) tags.push_back(json::array({std::move(name), std::move(value)}));
  return json{{"submission_game", f.submission_game}, {"move", f.move}, {"side", f.white_to_move ? "wtm" : "btm"},
              {"game", f.game}, {"ply", f.ply}, {"distance", f.distance}, {"transform", std::move(f.transform)},
              {"date", std::move(f.date)}, {"fen", std::move(f.fen)}, {"repository_fen", std::move(f.repository_fen)},
              {"oriented", std::move(f.oriented)}, {"differs", std::move(f.differs)}, {"dropped", f.dropped},
              {"moves", std::move(f.moves)}, {"tags", std::move(tags)}};
}

// The positions of a game that CQL's comments say are like a submission's, in words: [{ply, submission_game,
// move, side, transform}], in the comments' order.
json matched_positions(const json& comments) {
  json out = json::array();
  for (const json& c : comments) {
    if (!c["mainline"].get<bool>()) continue;
    auto said = exec::read_similar_comment(c["text"].get<std::string>());
    if (!said) continue;
    out.push_back(json{{"ply", c["ply"]}, {"submission_game", said->submission_game}, {"move", said->move},
                       {"side", said->white_to_move ? "wtm" : "btm"}, {"transform", std::move(said->transform)}});
  }
  return out;
}

// The 400 answer to a study that is not what it means to be: why, and where in the text typed.
Answer study_refusal(const exec::StudyRefusal& why) {
  json answer{{"error", why.message}};
  if (why.line) {
    answer["line"] = why.line;
    answer["column"] = why.column;
  }
  if (!why.field.empty()) answer["field"] = why.field;
  return json_answer(400, answer);
}

}  // namespace

Answer api_similar(const ApiContext& context, const std::string& body) {
  Answer refusal;
  auto request = parse_body(body, refusal);
  if (!request) return refusal;
  std::optional<std::string> fen, pgn;
  bool sort = true, notransform = false;
  unsigned near = 0;
  if (!string_field(*request, "fen", fen, refusal) || !string_field(*request, "pgn", pgn, refusal) ||
      !bool_field(*request, "sort", true, sort, refusal) ||
      !bool_field(*request, "notransform", false, notransform, refusal) || !near_field(*request, near, refusal))
    return refusal;
  if (fen.has_value() == pgn.has_value())
    return error_answer(400, "the body must hold either \"fen\" (positions, one FEN a line) or \"pgn\" "
                             "(submission games)");
  const exec::ServedRepository* repository = chosen_repository(context, *request, refusal);
  if (!repository) return refusal;
  if (near && repository->files().size() > 1)  // as `cqlindex similar --near` refuses it
    return error_answer(400, "\"near\" searches a repository of one PGN file, not " +
                                 std::to_string(repository->files().size()));
  ResultPage page;
  if (!page.read(*request, context.settings.max_results, refusal)) return refusal;
  page.stop_after_page();
  // "fen": FENs, one a line; "pgn": PGN, or FENs when its first line is meant as one (never read as movetext).
  std::string submissions;
  std::optional<std::vector<std::string>> submission_fens;
  if (fen || exec::study_is_fens(*pgn)) {
    exec::StudyRefusal why;
    auto read = exec::submissions_of_fens(fen ? *fen : *pgn, &why);
    if (!read) return study_refusal(why);
    submissions = std::move(read->pgn);
    submission_fens = std::move(read->fens);
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
  json near_results = json::array();  // the page's pairs: the same offset and limit as the games
  uint64_t near_seen = 0;
  memory.on_near = [&](exec::NearFacts&& facts) {
    if (near_seen++ >= page.offset()) near_results.push_back(near_json(std::move(facts)));
    return near_seen < page.games_wanted();
  };
  set_limits(context, memory);
  exec::SimilarRequest similar;
  similar.submissions = "submissions.pgn";  // as CQL names a submissions file in its comments
  similar.repository = repository->files().front();  // the files opened at the start, in their order
  similar.more_inputs.assign(repository->files().begin() + 1, repository->files().end());
  similar.sort = sort;
  similar.notransform = notransform;
  if (near) similar.near = near;
  similar.threads = context.settings.threads;
  similar.memory = &memory;
  similar.whole_submissions = true;
  const exec::SimilarSummary summary = exec::run_similar(similar);
  if (summary.status != exec::Status::Ok)
    if (auto stopped = stopped_answer(context, memory)) return *stopped;
  const bool failed = summary.status != exec::Status::Ok;
  if (auto failure = server_side_failure(*repository, failed, lines.diagnostics.str())) return *failure;
  if (summary.status != exec::Status::Ok) {
    if (const auto& e = summary.submission_error)  // a game that would be searched up to its error only
      return json_answer(400, json{{"error", "game " + std::to_string(e->game) + ": " + e->message},
                                   {"line", e->line},
                                   {"column", e->col},
                                   {"game", e->game}});
    // The repository was checked above: what failed is the submissions (no game could be read from them).
    json answer{{"error", "the submissions could not be used"}};
    lines.write(answer);
    return json_answer(400, answer);
  }
  json answer{{"matches", summary.matches}, {"games", summary.games}, {"seconds", summary.seconds},
              {"submissions", summary.submissions}, {"warnings", summary.warnings}};
  if (submission_fens) answer["submission_fens"] = std::move(*submission_fens);
  page.write(answer);
  for (json& game : answer["results"]) game["matched"] = matched_positions(game["comments"]);
  answer["complete"] = true;  // every match was found; only the page's games were written
  if (summary.near)
    answer["near"] = json{{"distance", summary.near->limit}, {"pairs", summary.near->pairs},
                          {"by_distance", summary.near->by_distance}, {"results", std::move(near_results)}};
  lines.write(answer);
  return json_answer(200, answer);
}

}  // namespace cqlindex::serve
