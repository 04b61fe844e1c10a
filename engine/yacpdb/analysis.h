// The analysis predicates of one problem, found once (as YACPDB does): every instance, e.g.
// ArealCycle(wR, 4, true) x 1, with its count. Queries then sum the counts of the instances they match.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "engine/yacpdb/predicate_catalog.h"
#include "engine/yacpdb/problem.h"

namespace cqlindex::yacpdb {

struct Instance {
  PredicateId id;
  std::vector<std::string> args;  // canonical parameter texts: "wR", "4", "true"
  int64_t count = 0;
  bool operator<(const Instance& o) const { return id != o.id ? id < o.id : args < o.args; }
};

struct Analysis {
  std::vector<Instance> instances;     // sorted by (id, args), counts merged
  std::set<PredicateId> not_analysed;  // predicates skipped because the problem exceeded the work cap
};

// Limits on per-problem work; a problem above them is "not analysed" for the predicates concerned.
struct AnalysisLimits {
  size_t max_nodes = 20000;  // solution-tree nodes for the trajectory and twin predicates
};

// All analysis-predicate instances of a problem. When the tree could not be replayed: a fairy entry has no
// instances of the orthodox-only predicates (count 0, research 4.2), an orthodox one (broken PGN game,
// unreadable text) is "not analysed" for them; Twins is read from the entry and Phases from the solution
// text when it can be read (both support fairy play).
Analysis analyse(const Problem& problem, const AnalysisLimits& limits = {});

}  // namespace cqlindex::yacpdb
