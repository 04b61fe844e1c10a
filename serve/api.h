#pragma once
// The JSON API of `cqlindex serve`, apart from HTTP: each call takes what the request carries (a body, a path
// parameter) and returns the status and JSON text to answer. Everything it answers comes from exec/, as the
// command line would print or write it. Every call answers for one repository: the one its request names
// ("repo" in a JSON body, ?repo= in a GET's query; absent: the first served), a name the server does not serve
// refused (400, naming those it does).
#include <atomic>
#include <optional>
#include <string>

#include "serve/repository_catalog.h"
#include "serve/serve_settings.h"

namespace cqlindex::serve {

struct Answer {
  int status = 200;
  std::string json;
};

// What every call may use: the repositories kept open, the limits, and the flag set when the server stops.
struct ApiContext {
  const RepositoryCatalog& repositories;
  const ServeSettings& settings;
  const std::atomic<bool>& stopping;
};

// Returns {"error": message} with `status`.
Answer error_answer(int status, const std::string& message);

// The name a GET request gives in ?repo= (nullopt when it gives none).
using RepoParameter = std::optional<std::string>;

// GET /api/info[?repo=NAME]: every repository served (name, files, games, index facts), the chosen one's facts
// at the top level as before there were several, and the server's limits.
Answer api_info(const ApiContext& context, const RepoParameter& repo);
// POST /api/run {"cql": TEXT, "offset": N, "limit": N, "repo": NAME}: the matching games of one page, as `cqlindex run`
// writes them, with their tags and the comments the query adds by ply.
Answer api_run(const ApiContext& context, const std::string& body);
// POST /api/similar {"fen": FEN} or {"pgn": TEXT} (+ "sort", "notransform", "near", "offset", "limit"): the games
// `cqlindex similar` finds for the submissions; with "near": 1 also the near pairs `similar --near 1` reports
// ("near": distance, pairs, by_distance, and the page's pairs with both boards), from the same offset and limit.
Answer api_similar(const ApiContext& context, const std::string& body);
// POST /api/yacpdb {"query": TEXT, "offset": N, "limit": N}: the entries of the problem file (--problems, else
// the served repository) that the YACPDB query matches, as `cqlindex yacpdb QUERY -i FILE` writes them.
Answer api_yacpdb(const ApiContext& context, const std::string& body);
// The problem file of /api/yacpdb: --problems FILE, else the chosen repository (a PGN file or a .cqlrepo).
const std::string& problem_file(const ApiContext& context, const exec::ServedRepository& repository);
// GET /api/game/N[?repo=NAME]: game N's PGN, tags, mainline moves and the FEN of every mainline position (N is
// the game's number in its repository, as `cqlindex run -i REPO` numbers it).
Answer api_game(const ApiContext& context, const std::string& number, const RepoParameter& repo);
// GET /api/explore?fen=FEN[&cap=N][&repo=NAME]: the moves the repository's games played from that exact
// position, with game counts and White/draw/Black results (exec/explore.h; at most N candidate games replayed,
// default 2,000).
Answer api_explore(const ApiContext& context, const std::string& fen, const std::string& cap,
                   const RepoParameter& repo);

}  // namespace cqlindex::serve
