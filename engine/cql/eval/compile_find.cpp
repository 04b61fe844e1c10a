// Compiling `find` (eval_find.cpp) and `sort` (its slots: evaluator.cpp, sorted_before).
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_find(const Node& n) {
  switch (n.kind) {
    case NodeKind::Find: {
      auto o = op(OpCode::Find, n);
      o->sub = (n.has(Option::Backward) ? kFindBackward : 0) | (n.has(Option::Quiet) ? kFindQuiet : 0) |
               (n.has(Option::All) ? kFindAll : 0);
      o->flag = range(n, *o);
      o->kids.push_back(child(n, Role::Body));
      return o;
    }
    case NodeKind::Sort: {
      // spec/cql-sort.txt: a number, a set (its count) or a string (the parser refuses a position, as CQL 6.2)
      auto o = op(OpCode::Sort, n);
      const bool min = n.has(Option::Min);
      o->var = sort_slot(n, n.text, min, n.has(Option::Quiet), n.type == ValueType::String);
      o->flag = min;
      o->kids.push_back(child(n, Role::Body));
      return o;
    }
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
