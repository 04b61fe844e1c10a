// Helpers shared by the PGN tests: file access, whole-file reads, SAN of mainlines.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/chess/san.h"
#include "engine/pgn/reader.h"
#include "support/shared_data.h"

namespace pgntest {

using namespace cqlindex;

inline std::string data_path(const std::string& rel) { return cqlindex::test::shared_data(rel); }

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// What a test wants to know about one game, independent of the text's lifetime.
struct Summary {
  uint64_t number = 0, offset = 0, length = 0;
  uint32_t first_line = 0;
  pgn::GameStatus status = pgn::GameStatus::Ok;
  uint32_t plies = 0;
  std::vector<pgn::PgnError> errors;
  std::vector<std::pair<std::string, std::string>> tags;  // name, unescaped value
  std::string mainline_san;                               // "e4 e5 Nf3"
  std::string final_fen;
  std::string result;
};

// SAN of the mainline, space-separated.
inline std::string mainline_san(const pgn::Game& g, std::string* final_fen = nullptr) {
  std::string s;
  chess::Position p = g.start;
  for (pgn::NodeIndex n = g.root().first_child; n != pgn::kNoNode; n = g.nodes[n].first_child) {
    if (!s.empty()) s += ' ';
    s += chess::to_san(p, g.nodes[n].move);
    p.do_move(g.nodes[n].move);
  }
  if (final_fen) *final_fen = p.fen();
  return s;
}

inline Summary summarize(const pgn::Game& g) {
  Summary s;
  s.number = g.number;
  s.offset = g.offset;
  s.length = g.length;
  s.first_line = g.first_line;
  s.status = g.status;
  s.plies = g.mainline_plies();
  s.errors = g.errors;
  for (const pgn::Tag& t : g.tags) s.tags.emplace_back(std::string(t.name), std::string(t.value));
  s.mainline_san = mainline_san(g, &s.final_fen);
  s.result = std::string(g.result_token);
  return s;
}

// Every game of a text, read sequentially.
inline std::vector<Summary> read_all(std::string_view text, pgn::ParseOptions options = {}) {
  std::vector<Summary> out;
  pgn::GameReader reader(text, options);
  pgn::Game g;
  while (reader.next(g)) out.push_back(summarize(g));
  return out;
}

inline std::vector<Summary> read_file(const std::string& rel) {
  std::string text = slurp(data_path(rel));
  return read_all(text);
}

inline size_t count_severity(const std::vector<Summary>& games, pgn::Severity sev) {
  size_t n = 0;
  for (const Summary& s : games)
    for (const pgn::PgnError& e : s.errors) n += e.severity == sev;
  return n;
}

}  // namespace pgntest
