// Compiling the control filters (eval_control.cpp): user functions, loop, while, assert, unbind, isbound.
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_control(const Node& n) {
  auto with_body = [&](OpCode code) {
    auto o = op(code, n);
    o->kids.push_back(child(n, Role::Body));
    return o;
  };
  switch (n.kind) {
    // a definition, like a dictionary's declaration, matches like true
    case NodeKind::FunctionDef: case NodeKind::DictionaryDecl: return op(OpCode::True, n);
    case NodeKind::FunctionCall: return with_body(OpCode::FunctionCall);
    case NodeKind::Loop: return with_body(OpCode::Loop);
    case NodeKind::Assert: return with_body(OpCode::Assert);
    case NodeKind::While: {
      auto o = op(OpCode::While, n);
      o->kids.push_back(child(n, Role::If));
      o->kids.push_back(child(n, Role::Body));
      return o;
    }
    case NodeKind::Unbind: {
      auto o = op(n.child(Role::Key) ? OpCode::DictUnbind : OpCode::Unbind, n);
      o->kids.push_back(child(n, Role::Key));
      return o;
    }
    case NodeKind::IsBound: {
      auto o = op(OpCode::IsBound, n);
      o->flag = n.has(Option::Not);
      for (size_t i = 0; i < prog.variables.size(); ++i)
        if (prog.variables[i].name == n.text) o->var = int(i);
      return o;
    }
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
