// The predicate instances of a whole problem file, found once (YACPDB's design, research 4.5): for every
// instance (e.g. ArealCycle|wR|4|true) the entries that have it, with their counts. A query's analysis
// predicates are then answered from these postings, its metadata predicates from the entries, and the answer
// is exactly the one direct evaluation gives (QueryEvaluator), "not analysed" entries included.
// The postings are what the store layer persists in the `yacpdb` family.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/yacpdb/analysis.h"
#include "engine/yacpdb/problem.h"
#include "engine/yacpdb/query_parser.h"

namespace cqlindex::yacpdb {

struct Posting {
  uint32_t entry;  // 0-based position of the problem in its file
  int64_t count;
};

struct InstancePostings {
  std::vector<std::string> args;  // canonical parameter texts
  std::vector<Posting> postings;  // by entry
};

class InstanceIndex {
 public:
  // Adds the analysis of entry `entry` (entries must be added in increasing order).
  void add(uint32_t entry, const Analysis& a);

  uint32_t entries() const { return entries_; }
  // The instances of one predicate.
  const std::vector<InstancePostings>& instances(PredicateId id) const;
  // Every instance, by predicate: what the store writes (under the keys of store/keys/yacpdb_key.h).
  const std::map<PredicateId, std::vector<InstancePostings>>& all() const { return by_predicate_; }
  // The entries not analysed for a predicate.
  const std::set<uint32_t>& not_analysed(PredicateId id) const;
  // Every predicate with entries not analysed for it.
  const std::map<PredicateId, std::set<uint32_t>>& all_not_analysed() const { return not_analysed_; }

  // Loading a stored index: one instance with its postings (by entry), entries not analysed, the entry count.
  void add_instance(PredicateId id, std::vector<std::string> args, std::vector<Posting> postings);
  void add_not_analysed(PredicateId id, uint32_t entry) { not_analysed_[id].insert(entry); }
  void set_entries(uint32_t entries) { entries_ = entries; }

 private:
  uint32_t entries_ = 0;
  std::map<PredicateId, std::vector<InstancePostings>> by_predicate_;
  std::map<PredicateId, std::set<uint32_t>> not_analysed_;
  std::map<std::pair<PredicateId, std::vector<std::string>>, size_t> slots_;  // instance -> its place
};

// The analysis predicates the query calls (those the index answers).
std::set<PredicateId> analysis_predicates(const Query& q);

// True when the query has a metadata predicate (its answer needs the entries themselves, not only the index).
bool needs_entries(const Query& q);

// True when the query reads the entries' texts (Text()).
bool needs_entry_text(const Query& q);

// True when the query reads the entries' diagram pieces (Matrix, MatrixExtended, PCount, With, Fairy).
bool needs_entry_pieces(const Query& q);

// Calls `visit(i, entry)` for the entries of a problem file in order (entry i); false when they cannot be read.
using EntrySource = std::function<bool(const std::function<void(uint32_t, const Entry&)>& visit)>;

// The 0-based entries matching the query, answered from the index (analysis predicates) and the entries
// `entries` visits once, in one pass (metadata predicates; not called when !needs_entries(q)); nullopt when
// `entries` fails or visits fewer entries than the index has. *undetermined as below.
std::optional<std::vector<uint32_t>> indexed_matches_from(const Query& q, const InstanceIndex& index,
                                                          const EntrySource& entries,
                                                          std::vector<uint32_t>* undetermined = nullptr);

// The 0-based entries matching the query, answered from the index (analysis predicates) and the problems'
// entries (metadata predicates; `problems` may be empty when !needs_entries(q)). *undetermined receives the entries that did not match only because a
// predicate they needed was not analysed.
std::vector<uint32_t> indexed_matches(const Query& q, const InstanceIndex& index, const std::vector<Problem>& problems,
                                      std::vector<uint32_t>* undetermined = nullptr);

}  // namespace cqlindex::yacpdb
