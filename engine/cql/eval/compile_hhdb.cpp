// Compiling the hhdb filters (eval_hhdb.cpp) that stay filters: the award forms (the other keys were parsed
// into CQL filters) and the check that the run has variations.
#include "engine/cql/error.h"
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_hhdb(const Node& n) {
  switch (n.kind) {
    case NodeKind::Hhdb: {
      auto o = op(OpCode::HhdbAward, n);
      o->sub = n.has(Option::Prize) ? kHhdbPrize : n.has(Option::Hm) ? kHhdbHonourableMention
               : n.has(Option::Commendation) ? kHhdbCommendation : kHhdbAnyAward;
      o->flag = n.has(Option::Special);
      o->a = n.has(Option::Max) ? 1 : 0;
      return o;
    }
    // CQL 6.2 stops with the message when a filter needs variations and the run has none
    case NodeKind::AssertVariations:
      if (!prog.options.variations) throw CqlError(n.text, n.line, n.column);
      return op(OpCode::True, n);
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
