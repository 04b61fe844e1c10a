// Compiling the string filters (eval_strings.cpp): regex groups, substrings, case, conversions, files,
// settag, message; and the comments a match writes (comment) or removes (removecomment).
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_strings(const Node& n) {
  auto with_kids = [&](OpCode code) {
    auto o = op(code, n);
    all_kids(n, *o);
    return o;
  };
  switch (n.kind) {
    case NodeKind::GroupRef: {
      auto o = op(OpCode::GroupRef, n);
      o->flag = n.has(Option::Index);
      return o;
    }
    case NodeKind::Substring: {
      auto o = op(n.has(Option::Assign) ? OpCode::SubstringAssign : OpCode::Substring, n);
      o->flag = n.has(Option::Slice);
      o->kids.push_back(child(n, Role::Arg));
      o->kids.push_back(child(n, Role::From));
      o->kids.push_back(child(n, Role::To));
      o->kids.push_back(child(n, Role::Value));
      return o;
    }
    case NodeKind::IndexOf: case NodeKind::WriteFile: {
      auto o = op(n.kind == NodeKind::IndexOf ? OpCode::IndexOf : OpCode::WriteFile, n);
      o->kids.push_back(child(n, Role::Left));
      o->kids.push_back(child(n, Role::Right));
      return o;
    }
    case NodeKind::CaseConvert: {
      auto o = with_kids(OpCode::CaseConvert);
      o->flag = n.text == "uppercase";
      return o;
    }
    case NodeKind::StringToInt: return with_kids(OpCode::StringToInt);
    case NodeKind::Ascii: return with_kids(OpCode::Ascii);
    case NodeKind::ReadFile:
      prog.may_fail = true;  // a bad file name stops the run where it is evaluated
      return with_kids(OpCode::ReadFile);
    case NodeKind::ToString: return with_kids(OpCode::ToString);
    case NodeKind::SetTag: {
      auto o = op(OpCode::SetTag, n);
      o->kids.push_back(child(n, Role::Value));
      return o;
    }
    case NodeKind::Message: {
      auto o = op(OpCode::Message, n);
      o->flag = n.has(Option::Quiet);
      all_kids(n, *o);
      return o;
    }
    case NodeKind::Comment: return with_kids(OpCode::Comment);
    // removecomment (-noremovecomment: matches and does nothing)
    case NodeKind::RemoveComment: return op(prog.options.noremovecomment ? OpCode::True : OpCode::RemoveComment, n);
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
