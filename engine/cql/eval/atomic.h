#pragma once
// Internal to the evaluator: the values of a query's atomic variables, saved and put back around the steps
// of a path search (eval_atomic.cpp).
#include <cstdint>
#include <vector>

#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

struct AtomicValues {
  std::vector<Value> values;   // by position in Program::atomic_vars
  std::vector<uint8_t> bound;
  void save(const Ctx& ctx);
  void restore(Ctx& ctx) const;
};

}  // namespace cqlindex::cql::eval
