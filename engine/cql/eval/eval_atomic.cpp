// atomic: a variable declared `atomic x = ...` takes part in a path's backtracking. An assignment made while
// a path matches a constituent is undone when the search comes back from that constituent; once the path is
// over the variable holds the values of the best path (the one the path's value and comments come from), or
// its value from before the path when no path matched. Other variables keep whatever was assigned last.
#include "engine/cql/eval/atomic.h"

#include "engine/cql/eval/evaluator.h"

namespace cqlindex::cql::eval {

void AtomicValues::save(const Ctx& ctx) {
  const std::vector<int>& vars = ctx.prog->atomic_vars;
  values.resize(vars.size());
  bound.resize(vars.size());
  for (size_t i = 0; i < vars.size(); ++i) {
    values[i] = ctx.vars[size_t(vars[i])];
    bound[i] = ctx.bound[size_t(vars[i])];
  }
}

void AtomicValues::restore(Ctx& ctx) const {
  const std::vector<int>& vars = ctx.prog->atomic_vars;
  for (size_t i = 0; i < vars.size() && i < values.size(); ++i) {
    ctx.vars[size_t(vars[i])] = values[i];
    ctx.bound[size_t(vars[i])] = bound[i];
  }
}

}  // namespace cqlindex::cql::eval
