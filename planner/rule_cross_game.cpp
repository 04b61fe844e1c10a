// Queries whose result for a game depends on the games evaluated before it (persistent variables, persistent
// dictionaries) or that act beyond their output file (message, readfile, writefile) cannot skip a game: the
// planner keeps them on a full scan, in game order.
#include "planner/planner.h"

namespace cqlindex::planner {
namespace {

using cql::NodeKind;

// The first node kind under n that has effects beyond the game's output, or nullptr.
const char* side_effect(const cql::Node& n) {
  switch (n.kind) {
    case NodeKind::Message: return "'message' prints for every game evaluated";
    case NodeKind::WriteFile: return "'writefile' writes for every game evaluated";
    case NodeKind::ReadFile: return "'readfile' reads a file";
    default: break;
  }
  for (const cql::Child& k : n.kids)
    if (const char* why = side_effect(*k.node)) return why;
  return nullptr;
}

}  // namespace

std::string cross_game_reason(const cql::Query& query) {
  for (const cql::Variable& v : query.variables) {
    if (!v.persistent) continue;
    return v.kind == cql::VariableKind::Dictionary
               ? "dictionary " + v.name + " is persistent: a game's result depends on the games before it"
               : "persistent variable " + v.name + ": its value depends on every game evaluated before";
  }
  if (query.needs_single_thread) return "the query carries state from game to game";
  if (query.body)
    if (const char* why = side_effect(*query.body)) return why;
  return "";
}

}  // namespace cqlindex::planner
