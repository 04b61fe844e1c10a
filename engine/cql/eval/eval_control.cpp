// User functions, `loop`, `while` (also over the matches of a regular expression), `assert`, `unbind`,
// `isbound`, `position N` and `child`. Functions are macros: the parser bound each call's body with its
// arguments substituted, so a call is its body.
#include "engine/cql/error.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"

namespace cqlindex::cql::eval {
namespace {

// A bound on the iterations of loop and while: a query whose loop never ends must not hang the run.
constexpr int kMaxIterations = 1'000'000;

// loop F: F again and again until it fails; matches when F matched at least once.
bool eval_loop_filter(const Op& op, Ctx& ctx) {
  Value tmp;
  bool any = false;
  for (int i = 0; i < kMaxIterations && evaluate_smart(*op.kids[0], ctx, tmp); ++i) {
    ctx.step();
    any = true;
  }
  return any;
}

// while (T) F: F after each success of T; `while (s ~~ "re") F` runs F once per match of re in s, with \0 \1 ...
// the groups of that match. Always matches (the body's failure does not stop the iteration).
bool eval_while(const Op& op, Ctx& ctx) {
  const Op& cond = *op.kids[0];
  const Op& body = *op.kids[1];
  Value tmp;
  if (cond.code == OpCode::RegexMatch) {
    Value subject;
    if (!evaluate(*cond.kids[0], ctx, subject)) return true;
    const std::string text = subject.str;  // the body may change the variable the subject came from
    int n = 0;
    try {
      cond.regex->for_each_match(text, [&](const std::vector<text::RegexGroup>& groups) {
        ctx.step();
        set_captures(ctx, text, groups);
        evaluate_smart(body, ctx, tmp);
        return ++n < kMaxIterations;
      });
    } catch (const text::RegexTooCostly& e) {
      throw CqlError(e.what(), cond.line, cond.column);
    }
    return true;
  }
  for (int i = 0; i < kMaxIterations && evaluate_smart(cond, ctx, tmp); ++i) {
    ctx.step();
    evaluate_smart(body, ctx, tmp);
  }
  return true;
}

}  // namespace

bool eval_control(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::FunctionCall: return evaluate(*op.kids[0], ctx, v);
    case OpCode::Loop: return eval_loop_filter(op, ctx);
    case OpCode::While: return eval_while(op, ctx);
    case OpCode::Assert: {
      Value tmp;
      if (evaluate_smart(*op.kids[0], ctx, tmp)) return true;
      // CQL stops the run; we report the failed assertion (with the game) and let the filter fail
      ctx.messages.push_back("assertion failed at line " + std::to_string(op.line) + ", column " +
                             std::to_string(op.column) + " (game number " + std::to_string(ctx.game_number) +
                             ", " + position_name(ctx, ctx.cur) + ")");
      return false;
    }
    case OpCode::Unbind:
      if (ctx.prog->variable_kinds[size_t(op.var)] == VariableKind::Dictionary) {
        ctx.state->dicts[size_t(op.var)].clear();
      } else {
        ctx.bound[size_t(op.var)] = 0;
        ctx.vars[size_t(op.var)] = Value{};
      }
      return true;
    case OpCode::IsBound: {
      bool bound = false;
      if (op.var >= 0) {
        const size_t i = size_t(op.var);
        bound = ctx.prog->variable_kinds[i] == VariableKind::Dictionary ? !ctx.state->dicts[i].empty()
                                                                      : ctx.bound[i] != 0;
      }
      return op.flag ? !bound : bound;
    }
    default: return false;
  }
}

}  // namespace cqlindex::cql::eval
