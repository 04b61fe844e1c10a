#include "engine/yacpdb/evaluator.h"

#include <algorithm>
#include <functional>

#include "engine/yacpdb/metadata.h"

namespace cqlindex::yacpdb {

QueryEvaluator::QueryEvaluator(const Query& q) : query_(q) {
  std::function<void(const Expr&)> visit = [&](const Expr& e) {
    for (const auto& c : e.children) visit(*c);
    if (e.kind != Expr::Kind::Compare) return;
    if (e.call.info->kind == PredicateKind::Analysis) needs_analysis_ = true;
    if (e.call.info->id == PredicateId::Stip && !e.call.params[0].wildcard)
      stip_.emplace(&e.call, text::Regex(e.call.params[0].text, /*ignore_case=*/true));
  };
  if (q.root) visit(*q.root);
}

int64_t instance_sum(const PredicateCall& call, const Analysis& a) {
  Instance probe{call.info->id, {}, 0};
  auto it = std::lower_bound(a.instances.begin(), a.instances.end(), probe,
                             [](const Instance& x, const Instance& y) { return x.id < y.id; });
  std::vector<std::string> wanted;
  for (const Param& p : call.params) wanted.push_back(p.wildcard ? std::string() : to_string(p));
  int64_t sum = 0;
  for (; it != a.instances.end() && it->id == call.info->id; ++it) {
    bool ok = true;
    for (size_t i = 0; i < wanted.size() && ok; ++i)
      ok = call.params[i].wildcard || (i < it->args.size() && it->args[i] == wanted[i]);
    if (ok) sum += it->count;
  }
  return sum;
}

int64_t QueryEvaluator::value(const PredicateCall& call, const Problem& p, const Analysis& a) const {
  if (call.info->kind == PredicateKind::Metadata) {
    auto it = stip_.find(&call);
    return metadata_value(call, p.entry, it == stip_.end() ? nullptr : &it->second);
  }
  return instance_sum(call, a);
}

bool QueryEvaluator::eval(const Expr& e, const Problem& p, const Analysis& a, bool* undetermined) const {
  switch (e.kind) {
    case Expr::Kind::Compare: {
      if (a.not_analysed.count(e.call.info->id)) {
        if (undetermined) *undetermined = true;
        return false;
      }
      int64_t v = value(e.call, p, a);
      switch (e.cmp) {
        case Cmp::Greater: return v > e.value;
        case Cmp::Less: return v < e.value;
        case Cmp::Equal: return v == e.value;
      }
      return false;
    }
    case Expr::Kind::Not: return !eval(*e.children[0], p, a, undetermined);
    case Expr::Kind::And:
      for (const auto& c : e.children)
        if (!eval(*c, p, a, undetermined)) return false;
      return true;
    case Expr::Kind::Or:
      for (const auto& c : e.children)
        if (eval(*c, p, a, undetermined)) return true;
      return false;
  }
  return false;
}

bool QueryEvaluator::matches(const Problem& p, const Analysis& a, bool* undetermined) const {
  bool unknown = false;
  bool result = query_.root && eval(*query_.root, p, a, &unknown);
  if (undetermined) *undetermined = unknown;
  return result && !unknown;
}

}  // namespace cqlindex::yacpdb
