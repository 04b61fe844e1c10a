// `find [quiet] [all] [<--] [range] F`: search the current position and its subtree (pre-order), or with `<--`
// the current position and its ancestors, for positions where F holds. Without all/range the value is the
// first position found ("Found" is written there); with them the number found ("Found i of n" at each).
#include <string>

#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"

namespace cqlindex::cql::eval {

bool eval_find(const Op& op, Ctx& ctx, Value& v) {
  const bool backward = op.sub & kFindBackward, quiet = op.sub & kFindQuiet, all = op.sub & kFindAll, counting = all || op.flag;
  const EvalOptions& o = ctx.prog->options;
  const bool comment = !quiet && !o.quiet && !o.silent;
  std::vector<int> found;
  Value tmp;
  auto test = [&](int node) {
    ctx.step();
    if (evaluate_at(*op.kids[0], ctx, node, tmp)) found.push_back(node);
    return !counting && !found.empty();  // stop at the first
  };
  if (backward) {
    for (int n = ctx.cur; n >= 0; n = ctx.tree->parent(n))
      if (test(n)) break;
  } else {
    std::vector<int> stack{ctx.cur}, kids;
    while (!stack.empty()) {
      int n = stack.back();
      stack.pop_back();
      if (test(n)) break;
      kids.clear();
      ctx.tree->for_children(n, [&](int c) { kids.push_back(c); });
      for (size_t i = kids.size(); i-- > 0;) stack.push_back(kids[i]);
    }
  }
  if (counting) {
    const int64_t n = int64_t(found.size());
    if (op.flag && !range_holds(op, ctx, n)) return false;
    if (!op.flag && n == 0) return false;
    if (comment)
      for (size_t i = 0; i < found.size(); ++i)
        ctx.comments.push_back({pgn::NodeIndex(found[i]), "Found " + std::to_string(i + 1) + " of " + std::to_string(n)});
    v.num = n;
    return true;
  }
  if (found.empty()) return false;
  if (comment) ctx.comments.push_back({pgn::NodeIndex(found[0]), "Found"});
  v.pos = found[0];
  return true;
}

}  // namespace cqlindex::cql::eval
