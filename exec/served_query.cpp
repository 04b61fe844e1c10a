// The checks of a served query: parsed, no file read or written; FENs made into submissions.
#include "exec/served_query.h"

#include <algorithm>
#include <cctype>

#include "engine/chess/position.h"
#include "engine/cql/error.h"
#include "engine/cql/query.h"

namespace cqlindex::exec {
namespace {

// Returns the first node under `node` (itself included) that reads or writes a file, or nullptr.
const cql::Node* file_access(const cql::Node& node) {
  if (node.kind == cql::NodeKind::ReadFile || node.kind == cql::NodeKind::WriteFile ||
      node.kind == cql::NodeKind::SimilarPosition)
    return &node;
  for (const cql::Child& c : node.kids)
    if (c.node)
      if (const cql::Node* found = file_access(*c.node)) return found;
  return nullptr;
}

}  // namespace

std::optional<QueryRefusal> served_query_refusal(std::string_view text) {
  cql::Query query;
  try {
    query = cql::parse_query(text);
  } catch (const cql::CqlError& e) {
    return QueryRefusal{e.line, e.column, e.what()};
  }
  if (const cql::Node* found = query.body ? file_access(*query.body) : nullptr) {
    const std::string what = found->kind == cql::NodeKind::SimilarPosition ? "similarposition reads a file"
                             : found->kind == cql::NodeKind::ReadFile      ? "readfile reads a file"
                                                                           : "writefile writes a file";
    return QueryRefusal{found->line, found->column,
                        what + " of the server's machine: the server runs no query that reads or writes files" +
                            (found->kind == cql::NodeKind::SimilarPosition ? " (send the study to /api/similar)" : "")};
  }
  return std::nullopt;
}

namespace {

// The one-game PGN starting at `position`: its FEN written back, with nothing a tag value cannot hold.
std::string submission_game(const chess::Position& position) {
  return "[Event \"submission\"]\n[SetUp \"1\"]\n[FEN \"" + position.fen() + "\"]\n\n*\n";
}

// Calls `take(line, number)` for each line of `text` (1-based numbers, the line without its end: "\n" or
// "\r\n") until it returns false.
template <class Take>
void for_each_line(std::string_view text, Take take) {
  uint32_t number = 0;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!take(line, ++number)) return;
    text.remove_prefix(std::min(end + 1, text.size()));
  }
}

bool blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

}  // namespace

std::optional<std::string> submission_of_fen(std::string_view fen, std::string* error) {
  const auto position = chess::Position::from_fen(fen, error);
  if (!position) return std::nullopt;
  return submission_game(*position);
}

bool study_is_fens(std::string_view text) {
  bool fens = false;
  for_each_line(text, [&](std::string_view line, uint32_t) {
    if (blank(line)) return true;
    fens = chess::looks_like_fen(line);
    return false;
  });
  return fens;
}

std::optional<FenSubmissions> submissions_of_fens(std::string_view text, StudyRefusal* refusal) {
  FenSubmissions read;
  bool refused = false;
  for_each_line(text, [&](std::string_view line, uint32_t number) {
    if (blank(line)) return true;
    chess::FenError why;
    const auto position = chess::Position::from_fen(line, why, chess::FenSide::Required);
    if (!position) {
      *refusal = StudyRefusal{number, uint32_t(why.offset + 1),
                              std::string("bad FEN (") + chess::fen_field_name(why.field) + "): " + why.message,
                              chess::fen_field_name(why.field)};
      refused = true;
      return false;
    }
    read.fens.push_back(position->fen());
    read.pgn += (read.pgn.empty() ? "" : "\n") + submission_game(*position);
    return true;
  });
  if (refused) return std::nullopt;
  if (read.fens.empty()) {
    *refusal = StudyRefusal{0, 0, "the study is empty: give a FEN, or PGN of one or more games", ""};
    return std::nullopt;
  }
  return read;
}

}  // namespace cqlindex::exec
