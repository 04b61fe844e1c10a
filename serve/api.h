#pragma once
// The JSON API of `cqlindex serve`, apart from HTTP: each call takes what the request carries (a body, a path
// parameter) and returns the status and JSON text to answer. Everything it answers comes from exec/, as the
// command line would print or write it.
#include <atomic>
#include <string>

#include "exec/served_repository.h"
#include "serve/serve_settings.h"

namespace cqlindex::serve {

struct Answer {
  int status = 200;
  std::string json;
};

// What every call may use: the repository kept open, the limits, and the flag set when the server stops.
struct ApiContext {
  const exec::ServedRepository& repository;
  const ServeSettings& settings;
  const std::atomic<bool>& stopping;
};

// Returns {"error": message} with `status`.
Answer error_answer(int status, const std::string& message);

// GET /api/info: the repository, its index and the server's limits.
Answer api_info(const ApiContext& context);
// POST /api/run {"cql": TEXT, "offset": N, "limit": N}: the matching games of one page, as `cqlindex run`
// writes them, with their tags and the comments the query adds by ply.
Answer api_run(const ApiContext& context, const std::string& body);
// POST /api/similar {"fen": FEN} or {"pgn": TEXT} (+ "sort", "notransform", "offset", "limit"): the games
// `cqlindex similar` finds for the submissions.
Answer api_similar(const ApiContext& context, const std::string& body);
// POST /api/yacpdb {"query": TEXT, "offset": N, "limit": N}: the entries of the problem file (--problems, else
// the served repository) that the YACPDB query matches, as `cqlindex yacpdb QUERY -i FILE` writes them.
Answer api_yacpdb(const ApiContext& context, const std::string& body);
// The problem file of /api/yacpdb: --problems FILE, else the served repository's file.
const std::string& problem_file(const ApiContext& context);
// GET /api/game/N: game N's PGN, tags, mainline moves and the FEN of every mainline position.
Answer api_game(const ApiContext& context, const std::string& number);
// GET /api/explore?fen=FEN[&cap=N]: the moves the repository's games played from that exact position, with game
// counts and White/draw/Black results (exec/explore.h; at most N candidate games replayed, default 2,000).
Answer api_explore(const ApiContext& context, const std::string& fen, const std::string& cap);

}  // namespace cqlindex::serve
