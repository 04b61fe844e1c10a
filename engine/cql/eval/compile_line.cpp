// Compiling `line` (eval_line.cpp) and the constituents of a line or a path (sequence_search.cpp).
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_line(const Node& n) {
  auto with_kids = [&](OpCode code) {
    auto o = op(code, n);
    all_kids(n, *o);
    return o;
  };
  switch (n.kind) {
    case NodeKind::Line: {
      auto o = op(OpCode::Line, n);
      o->flag = n.has(Option::Quiet);
      o->sub = (n.text == "<--" ? kLineBackward : 0) | (n.has(Option::Primary) ? kLinePrimary : 0) |
               (n.has(Option::FirstMatch) ? kLineFirstMatch : 0) | (n.has(Option::SingleColor) ? kLineSingleColor : 0) |
               (n.has(Option::LastPosition) ? kLineLastPosition : 0) | (n.has(Option::Secondary) ? kLineSecondary : 0) |
               (n.has(Option::NestBan) ? kLineNestBan : 0);
      if (!range(n, *o)) {
        o->a = -1;
        o->b = -1;
      }
      all_kids(n, *o, Role::Arg);
      return o;
    }
    case NodeKind::SeqFilter: return with_kids(OpCode::SeqFilter);
    case NodeKind::SeqChain: return with_kids(OpCode::SeqChain);
    case NodeKind::SeqRepeat: return with_kids(OpCode::SeqRepeat);
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
