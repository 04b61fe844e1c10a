#include "planner/strategy.h"

namespace cqlindex::planner {

QueryStrategy choose_strategy(const cql::Query& query, bool plain_output) {
  const cql::Header& h = query.header;
  // the similar pipeline writes every matching game with CQL's comments and nothing else: a header that
  // selects games (gamenumber, matchcount, result, variations) or writes them otherwise keeps the scan
  if (!plain_output || h.gamenumber || h.matchcount || !h.result.empty() || h.variations || h.matchstring ||
      h.silent || h.quiet || !query.body || query.body->kids.size() != 1)
    return {};
  const cql::Node* only = query.body->kids.front().node.get();
  if (only->kind != cql::NodeKind::SimilarPosition) return {};
  return {Strategy::SimilarSearch, only};
}

std::string format_strategy(const QueryStrategy& strategy) {
  if (!strategy.similar_search()) return "";
  return "strategy: similar search (a lone similarposition: the similar pipeline answers it; below, the scan's plan)\n";
}

}  // namespace cqlindex::planner
