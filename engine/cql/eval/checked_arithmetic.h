#pragma once
// CQL's integer arithmetic, checked. CQL 6.2 computes in 32-bit ints: past their range it wraps silently
// (2147483647 + 1 is -2147483648, 65536 * 65536 is 0) and -2147483648 / -1 kills it (SIGFPE). cqlindex keeps
// every answer CQL gives inside the range and stops the query with an error naming the operation where CQL would
// wrap or crash: never a wrapped number, never a crash.
#include <cstdint>
#include <string>

#include "engine/cql/error.h"
#include "engine/cql/eval/op.h"

namespace cqlindex::cql::eval {

inline constexpr int64_t kCqlIntMin = INT32_MIN, kCqlIntMax = INT32_MAX;

// Throws the overflow error of `what` ("a * b" with the operands written in) at op.
[[noreturn]] inline void integer_overflow(const Op& op, const std::string& what) {
  throw CqlError("integer overflow: " + what + " is outside CQL's integer range (" + std::to_string(kCqlIntMin) +
                     " to " + std::to_string(kCqlIntMax) + ")",
                 op.line, op.column);
}

// The result of `l o r` (o: + - * / %; r != 0 for / and %), or the overflow error at op.
inline int64_t checked_arithmetic(const Op& op, char o, int64_t l, int64_t r) {
  int64_t x = 0;
  bool wrapped = false;
  switch (o) {
    case '+': wrapped = __builtin_add_overflow(l, r, &x); break;
    case '-': wrapped = __builtin_sub_overflow(l, r, &x); break;
    case '*': wrapped = __builtin_mul_overflow(l, r, &x); break;
    case '/': if (r == -1) wrapped = __builtin_sub_overflow(int64_t{0}, l, &x); else x = l / r; break;
    default: x = r == -1 ? 0 : l % r; break;
  }
  if (wrapped || x < kCqlIntMin || x > kCqlIntMax)
    integer_overflow(op, std::to_string(l) + ' ' + o + ' ' + std::to_string(r));
  return x;
}

// -l, or the overflow error at op (`what`: "-" or "abs").
inline int64_t checked_negation(const Op& op, int64_t l, const char* what) {
  if (l < -kCqlIntMax) integer_overflow(op, what + ("(" + std::to_string(l) + ")"));
  return -l;
}

}  // namespace cqlindex::cql::eval
