// Compiling the reads of dictionaries (eval_dictionary.cpp); their assignment is compiled with the others
// (compile_logic.cpp), their unbinding with unbind (compile_control.cpp).
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_dictionary(const Node& n) {
  switch (n.kind) {
    case NodeKind::DictionaryGet: {
      auto o = op(OpCode::DictGet, n);
      o->kids.push_back(child(n, Role::Key));
      return o;
    }
    case NodeKind::DictionaryIterate: {
      auto o = op(OpCode::DictIterate, n);
      o->b = n.child(Role::Dictionary)->var;
      o->kids.push_back(child(n, Role::Body));
      return o;
    }
    case NodeKind::DictionaryCount: {
      auto o = op(OpCode::DictCount, n);
      o->var = n.child(Role::Arg)->var;
      return o;
    }
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
