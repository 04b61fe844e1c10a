#pragma once
// Test support for the evaluator: run a CQL query on PGN text in-process (as `cqlindex run` does, one thread)
// and read files.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <initializer_list>

#include "engine/cql/eval/evaluator.h"
#include "engine/cql/query.h"
#include "engine/pgn/reader.h"
#include "engine/pgn/writer.h"

namespace cqlindex::test {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct QueryRun {
  uint64_t matches = 0, games = 0;
  std::string output;  // the output file CQL would write
};

// Runs `cql` (a whole CQL file) over `pgn`; throws CqlError when the query is rejected.
inline QueryRun run_query(const std::string& cql, std::string_view pgn, cql::eval::EvalOptions options = {}) {
  cql::Query q = cql::parse_query(cql);
  options.variations = options.variations || q.header.variations;
  if (q.header.quiet) options.quiet = true;
  if (q.header.silent) options.silent = true;
  if (q.header.matchstring) options.matchstring = *q.header.matchstring;
  if (q.header.matchcount && !options.matchcount) options.matchcount = q.header.matchcount;
  options.sort_matchcount = options.sort_matchcount || q.header.sort_matchcount;
  cql::eval::Program program = cql::eval::compile(q, options);
  cql::eval::GameScanner scanner(program);
  pgn::GameReader reader(pgn);
  pgn::Game game;
  QueryRun r;
  while (reader.next(game)) {
    ++r.games;
    cql::eval::GameOutcome o = scanner.scan(game);
    if (!o.matched) continue;
    ++r.matches;
    cql::eval::apply_set_tags(o, game);  // as `cqlindex run` writes a game
    pgn::write_game(game, o.comments, {}, r.output);
  }
  return r;
}

// A speed-up's check: each of `bodies`, after `header`, runs on `pgn` as it does with `guard` put first inside its
// (first) braces, a filter chosen to turn the fast path off without changing the answer: the same matches and the
// same output.
inline void check_fast_path_agrees(const std::string& header, std::initializer_list<const char*> bodies,
                                   const std::string& guard, std::string_view pgn) {
  for (const std::string body : bodies) {
    const size_t brace = body.find('{');
    REQUIRE(brace != std::string::npos);
    const std::string plain = body.substr(0, brace + 1) + guard + " " + body.substr(brace + 1);
    const QueryRun fast = run_query(header + "\n" + body + "\n", pgn);
    const QueryRun every = run_query(header + "\n" + plain + "\n", pgn);
    INFO(body);
    CHECK(fast.matches == every.matches);
    CHECK(fast.output == every.output);
  }
}

// One PGN game per FEN (no moves), as reti's test runner builds its datasets.
inline std::string games_from_fens(const std::string& fen_list) {
  std::string out;
  std::istringstream in(fen_list);
  std::string line;
  while (std::getline(in, line)) {
    size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
    if (a == std::string::npos || line[a] == '#') continue;
    line = line.substr(a, b - a + 1);
    out += "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
           "[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"" + line + "\"]\n\n*\n\n";
  }
  return out;
}

}  // namespace cqlindex::test
