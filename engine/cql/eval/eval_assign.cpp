// Operation-assignments (`x += F`, `-=`, `*=`, `/=`, `%=`, `|=`, `&=`) and the conditional assignment
// `x =? F`; also `sqrt`, the numeric helper the user-function examples need.
#include <cmath>

#include "engine/cql/eval/checked_arithmetic.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"

namespace cqlindex::cql::eval {
namespace {

// The integer square root of n (n >= 0).
int64_t integer_sqrt(int64_t n) {
  int64_t r = int64_t(std::sqrt(double(n)));
  while (r * r > n) --r;
  while ((r + 1) * (r + 1) <= n) ++r;
  return r;
}

}  // namespace

bool eval_assign(const Op& op, Ctx& ctx, Value& v) {
  Value x;
  if (op.code == OpCode::Sqrt) {
    if (!evaluate(*op.kids[0], ctx, x) || x.num < 0) return false;
    v.num = integer_sqrt(x.num);
    return true;
  }
  const size_t var = size_t(op.var);
  const bool ok = evaluate(*op.kids[0], ctx, x);
  if (op.text == "=?") {  // assigns only when F matches; matches when it assigned
    if (!ok) return false;
    ctx.vars[var] = std::move(x);
    ctx.bound[var] = 1;
    return true;
  }
  if (!ok && op.kids[0]->type != ValueType::Set) return false;
  if (!ctx.bound[var]) return false;  // an op-assignment needs a value to start from
  Value& cur = ctx.vars[var];
  switch (op.text[0]) {
    case '+':
      if (op.kids[0]->type == ValueType::String) cur.str += x.str;
      else cur.num = checked_arithmetic(op, '+', cur.num, x.num);
      break;
    case '-': cur.num = checked_arithmetic(op, '-', cur.num, x.num); break;
    case '*': cur.num = checked_arithmetic(op, '*', cur.num, x.num); break;
    case '/': if (x.num == 0) return false; cur.num = checked_arithmetic(op, '/', cur.num, x.num); break;
    case '%': if (x.num == 0) return false; cur.num = checked_arithmetic(op, '%', cur.num, x.num); break;
    case '|': cur.set |= x.set; break;
    case '&': cur.set &= x.set; break;
    default: return false;
  }
  v = cur;
  return true;
}

}  // namespace cqlindex::cql::eval
