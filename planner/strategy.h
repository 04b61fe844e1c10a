#pragma once
// How a query is answered: by the scan plan (its candidate games replayed by the evaluator), or, for a lone
// similarposition, by the similar search (the judges' pipeline: the similar family's candidates when the index
// has them, a scan otherwise; the same output). `explain` prints the strategy above the scan plan.
#include <string>

#include "engine/cql/query.h"

namespace cqlindex::planner {

enum class Strategy {
  Scan,           // the plan's candidates, replayed (plan_candidates)
  SimilarSearch,  // a lone similarposition: the similar pipeline answers it
};

struct QueryStrategy {
  Strategy kind = Strategy::Scan;
  const cql::Node* similar = nullptr;  // SimilarSearch: the similarposition filter (in the query's tree)
  bool similar_search() const { return kind == Strategy::SimilarSearch; }
};

// Returns the strategy of `query`: SimilarSearch when its body is one similarposition and nothing in its header
// changes which games match or how they are written; else Scan. `plain_output`: false when the run's own
// settings (outside the query) do change them, which keeps the scan.
QueryStrategy choose_strategy(const cql::Query& query, bool plain_output = true);

// Returns the line `explain` prints for a strategy other than the scan ("" for the scan).
std::string format_strategy(const QueryStrategy& strategy);

}  // namespace cqlindex::planner
