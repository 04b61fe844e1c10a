#pragma once
// The planner's interface: a CQL query -> the games the index cannot rule out, with the plan that says why.
//
// Every rule derives a NECESSARY condition: a game outside the candidates can never match the query. A rule
// that cannot bound its subtree says so ("all games", with the reason) and the plan stays sound.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <roaring/roaring.hh>

#include "engine/cql/query.h"
#include "planner/strategy.h"
#include "store/index_store.h"

namespace cqlindex::store {
class FamilyKeys;  // store/family_keys.h
}
namespace cqlindex::cql::similar {
class SubmissionFiles;  // engine/cql/similar/submission_files.h
}

namespace cqlindex::planner {

// 0-based game ids (file order) that may match.
using CandidateSet = Roaring;

// One node of the plan tree, as `explain` prints it.
struct PlanNode {
  std::string filter;    // the CQL text of the subtree (shortened)
  std::string rule;      // which rule bounded it ("tag: player", "material", "and", ...) or "all games"
  std::string family;    // the index family read, if any
  std::string fallback;  // why it bounds to all games (empty when it bounds)
  std::optional<Roaring> games;  // nullopt: all games
  std::vector<PlanNode> kids;
};

struct PlanReport {
  PlanNode root;
  uint64_t total_games = 0;
  std::string error;  // set when the index could not be read (the plan is then "all games")
  QueryStrategy strategy;  // how `run` answers the query (strategy.h); the plan tree is the scan's
};

// Returns the candidate games of `query` over the index `store` (nullopt: the index cannot bound it, scan
// every game); fills `report` when given. `submissions`: the similarposition files the evaluator read for this
// query (eval::EvalOptions::submissions), so that each is read once; null: the planner reads them.
// `tag_keys`: the keys of `store`'s tags family held in memory (a server's: store/family_keys.h), so that a tag
// test reads only the lists of the values it keeps; null: the family is read (the same candidates either way).
std::optional<CandidateSet> plan_candidates(const cql::Query& query, const store::IndexStore& store,
                                            PlanReport* report = nullptr,
                                            cql::similar::SubmissionFiles* submissions = nullptr,
                                            const store::FamilyKeys* tag_keys = nullptr);

// Returns the plan as indented text for a CQL user (`cqlindex explain`).
std::string format_plan(const PlanReport& report);

}  // namespace cqlindex::planner
