// The checks of a served query: parsed, no file read or written; a FEN made into a submission.
#include "exec/served_query.h"

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

std::optional<std::string> submission_of_fen(std::string_view fen, std::string* error) {
  const auto position = chess::Position::from_fen(fen, error);
  if (!position) return std::nullopt;
  // The position as the parser will read it again: the FEN written back, with nothing a tag value cannot hold.
  return "[Event \"submission\"]\n[SetUp \"1\"]\n[FEN \"" + position->fen() + "\"]\n\n*\n";
}

}  // namespace cqlindex::exec
