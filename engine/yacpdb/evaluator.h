// Evaluates a parsed query on problems: metadata predicates from the entry, analysis predicates as the sum of
// the counts of the problem's instances that agree with the query's non-'*' parameters.
#pragma once

#include <cstdint>
#include <map>

#include "engine/text/regex.h"
#include "engine/yacpdb/analysis.h"
#include "engine/yacpdb/problem.h"
#include "engine/yacpdb/query_parser.h"

namespace cqlindex::yacpdb {

class QueryEvaluator {
 public:
  // Keeps a reference to q (which must outlive the evaluator) and compiles its Stip patterns.
  explicit QueryEvaluator(const Query& q);

  // True when the query holds for the problem. *undetermined is set when the answer depends on a predicate
  // the problem was not analysed for (work cap); such a problem does not match.
  bool matches(const Problem& p, const Analysis& a, bool* undetermined = nullptr) const;

  // The value of one predicate call.
  int64_t value(const PredicateCall& call, const Problem& p, const Analysis& a) const;

  // True when some predicate of the query needs the solution analysed.
  bool needs_analysis() const { return needs_analysis_; }

 private:
  bool eval(const Expr& e, const Problem& p, const Analysis& a, bool* undetermined) const;

  const Query& query_;
  std::map<const PredicateCall*, text::Regex> stip_;
  bool needs_analysis_ = false;
};

// The sum of the counts of the instances of `call`'s predicate whose arguments agree with its parameters.
int64_t instance_sum(const PredicateCall& call, const Analysis& a);

}  // namespace cqlindex::yacpdb
