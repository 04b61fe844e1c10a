#include "engine/yacpdb/instance_index.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

#include "engine/yacpdb/metadata.h"

namespace cqlindex::yacpdb {

namespace {

using Bits = std::vector<uint8_t>;  // one flag per entry

Bits operator&(const Bits& a, const Bits& b) {
  Bits r(a.size());
  for (size_t i = 0; i < a.size(); ++i) r[i] = a[i] & b[i];
  return r;
}
Bits operator|(const Bits& a, const Bits& b) {
  Bits r(a.size());
  for (size_t i = 0; i < a.size(); ++i) r[i] = a[i] | b[i];
  return r;
}
Bits operator~(const Bits& a) {
  Bits r(a.size());
  for (size_t i = 0; i < a.size(); ++i) r[i] = !a[i];
  return r;
}

// A node's result: V = entries where it evaluates true, U = entries where its evaluation met a predicate the
// entry was not analysed for. Combined the way QueryEvaluator evaluates (left to right, short-circuit).
struct Result {
  Bits v, u;
};

void collect_metadata(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == Expr::Kind::Compare && e.call.info->kind == PredicateKind::Metadata) out.push_back(&e);
  for (const auto& child : e.children) collect_metadata(*child, out);
}

class IndexedEvaluator {
 public:
  // The values of the query's metadata predicates are found first, in one pass over the entries (each entry is
  // read once and can be dropped at once: a large collection is never held in memory for them).
  IndexedEvaluator(const InstanceIndex& index, const Expr& root, const EntrySource& entries, bool* entries_ok)
      : index_(index), n_(index.entries()) {
    std::vector<const Expr*> nodes;
    collect_metadata(root, nodes);
    *entries_ok = true;
    if (nodes.empty()) return;
    std::vector<std::optional<text::Regex>> stips(nodes.size());
    std::vector<bool> has_stip(nodes.size(), false);
    std::vector<std::vector<int64_t>*> values;
    for (size_t k = 0; k < nodes.size(); ++k) {
      const PredicateCall& call = nodes[k]->call;
      has_stip[k] = call.info->id == PredicateId::Stip && !call.params[0].wildcard;
      if (has_stip[k]) stips[k].emplace(call.params[0].text, /*ignore_case=*/true);
      values.push_back(&metadata_values_[nodes[k]]);
      values.back()->assign(n_, 0);
    }
    size_t seen = 0;
    *entries_ok = entries([&](uint32_t i, const Entry& e) {
      if (i >= n_) return;
      ++seen;
      for (size_t k = 0; k < nodes.size(); ++k)
        (*values[k])[i] = metadata_value(nodes[k]->call, e, has_stip[k] ? &*stips[k] : nullptr);
    }) && seen == n_;
  }

  Result eval(const Expr& e) const {
    switch (e.kind) {
      case Expr::Kind::Compare: return compare(e);
      case Expr::Kind::Not: {
        Result c = eval(*e.children[0]);
        return {~c.v, c.u};
      }
      case Expr::Kind::And:
      case Expr::Kind::Or: {
        bool is_and = e.kind == Expr::Kind::And;
        Bits alive(n_, 1), v(n_, is_and ? 1 : 0), u(n_, 0);
        for (const auto& child : e.children) {
          Result c = eval(*child);
          u = u | (alive & c.u);
          if (is_and) {
            v = v & c.v;
            alive = alive & c.v;
          } else {
            v = v | c.v;
            alive = alive & ~c.v;
          }
        }
        return {v, u};
      }
    }
    return {Bits(n_, 0), Bits(n_, 0)};
  }

 private:
  const InstanceIndex& index_;
  size_t n_;
  std::map<const Expr*, std::vector<int64_t>> metadata_values_;  // per metadata comparison, per entry

  Result compare(const Expr& e) const {
    Result r{Bits(n_, 0), Bits(n_, 0)};
    std::vector<int64_t> value(n_, 0);
    const PredicateCall& call = e.call;
    if (call.info->kind == PredicateKind::Metadata) {
      value = metadata_values_.at(&e);
    } else {
      std::vector<std::string> wanted;
      for (const Param& p : call.params) wanted.push_back(p.wildcard ? std::string() : to_string(p));
      for (const InstancePostings& inst : index_.instances(call.info->id)) {
        bool ok = true;
        for (size_t k = 0; k < wanted.size() && ok; ++k)
          ok = call.params[k].wildcard || (k < inst.args.size() && inst.args[k] == wanted[k]);
        if (!ok) continue;
        for (const Posting& p : inst.postings) value[p.entry] += p.count;
      }
      for (uint32_t i : index_.not_analysed(call.info->id)) r.u[i] = 1;
    }
    for (size_t i = 0; i < n_; ++i) {
      if (r.u[i]) continue;  // evaluates false, flagged unknown
      int64_t v = value[i];
      r.v[i] = e.cmp == Cmp::Greater ? v > e.value : e.cmp == Cmp::Less ? v < e.value : v == e.value;
    }
    return r;
  }
};

}  // namespace

void InstanceIndex::add(uint32_t entry, const Analysis& a) {
  for (const Instance& inst : a.instances) {
    auto& list = by_predicate_[inst.id];
    auto [slot, fresh] = slots_.try_emplace({inst.id, inst.args}, list.size());
    if (fresh) list.push_back({inst.args, {}});
    list[slot->second].postings.push_back({entry, inst.count});
  }
  for (PredicateId id : a.not_analysed) not_analysed_[id].insert(entry);
  entries_ = std::max(entries_, entry + 1);
}

void InstanceIndex::add_instance(PredicateId id, std::vector<std::string> args, std::vector<Posting> postings) {
  auto& list = by_predicate_[id];
  auto [slot, fresh] = slots_.try_emplace({id, args}, list.size());
  if (fresh) list.push_back({std::move(args), {}});
  auto& into = list[slot->second].postings;
  into.insert(into.end(), postings.begin(), postings.end());
}

const std::vector<InstancePostings>& InstanceIndex::instances(PredicateId id) const {
  static const std::vector<InstancePostings> none;
  auto it = by_predicate_.find(id);
  return it == by_predicate_.end() ? none : it->second;
}

const std::set<uint32_t>& InstanceIndex::not_analysed(PredicateId id) const {
  static const std::set<uint32_t> none;
  auto it = not_analysed_.find(id);
  return it == not_analysed_.end() ? none : it->second;
}

namespace {

bool has_metadata(const Expr& e) {
  if (e.kind == Expr::Kind::Compare) return e.call.info->kind == PredicateKind::Metadata;
  for (const auto& child : e.children)
    if (has_metadata(*child)) return true;
  return false;
}

bool has_predicate(const Expr& e, PredicateId id) {
  if (e.kind == Expr::Kind::Compare && e.call.info->id == id) return true;
  for (const auto& child : e.children)
    if (has_predicate(*child, id)) return true;
  return false;
}

void collect_analysis(const Expr& e, std::set<PredicateId>& out) {
  if (e.kind == Expr::Kind::Compare && e.call.info->kind == PredicateKind::Analysis) out.insert(e.call.info->id);
  for (const auto& child : e.children) collect_analysis(*child, out);
}

}  // namespace

std::set<PredicateId> analysis_predicates(const Query& q) {
  std::set<PredicateId> out;
  if (q.root) collect_analysis(*q.root, out);
  return out;
}

bool needs_entries(const Query& q) { return q.root && has_metadata(*q.root); }

bool needs_entry_text(const Query& q) { return q.root && has_predicate(*q.root, PredicateId::Text); }

bool needs_entry_pieces(const Query& q) {
  if (!q.root) return false;
  for (PredicateId id : {PredicateId::Matrix, PredicateId::MatrixExtended, PredicateId::PCount, PredicateId::With,
                         PredicateId::Fairy})
    if (has_predicate(*q.root, id)) return true;
  return false;
}

std::optional<std::vector<uint32_t>> indexed_matches_from(const Query& q, const InstanceIndex& index,
                                                          const EntrySource& entries,
                                                          std::vector<uint32_t>* undetermined) {
  std::vector<uint32_t> out;
  if (!q.root) return out;
  bool entries_ok = true;
  IndexedEvaluator evaluator(index, *q.root, entries, &entries_ok);
  if (!entries_ok) return std::nullopt;
  Result r = evaluator.eval(*q.root);
  for (uint32_t i = 0; i < index.entries(); ++i) {
    if (r.v[i] && !r.u[i]) out.push_back(i);
    if (undetermined && r.u[i]) undetermined->push_back(i);
  }
  return out;
}

std::vector<uint32_t> indexed_matches(const Query& q, const InstanceIndex& index, const std::vector<Problem>& problems,
                                      std::vector<uint32_t>* undetermined) {
  if (needs_entries(q) && problems.size() != index.entries())
    throw std::logic_error("indexed_matches: the query needs all entries");
  auto out = indexed_matches_from(q, index, [&](const std::function<void(uint32_t, const Entry&)>& visit) {
    for (uint32_t i = 0; i < problems.size(); ++i) visit(i, problems[i].entry);
    return true;
  }, undetermined);
  return out ? *out : std::vector<uint32_t>{};
}

}  // namespace cqlindex::yacpdb
