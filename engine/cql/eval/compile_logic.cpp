// Compiling the filters the evaluator runs itself (evaluator.cpp): literals, and/or/not/if, arithmetic,
// relations; variables and assignment, the current and other positions, transforms.
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/square_pattern.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_logic(const Node& n) {
  auto with_kids = [&](OpCode code) {
    auto o = op(code, n);
    all_kids(n, *o);
    return o;
  };
  switch (n.kind) {
    case NodeKind::Number: return op(OpCode::Number, n);
    case NodeKind::StringLiteral: return op(OpCode::String, n);
    case NodeKind::True: return op(OpCode::True, n);
    case NodeKind::False: return op(OpCode::False, n);
    case NodeKind::ColorValue: {
      auto o = op(OpCode::Number, n);
      o->a = n.text == "white" ? 1 : -1;
      return o;
    }
    case NodeKind::Compound: return with_kids(OpCode::Compound);
    case NodeKind::And: return with_kids(OpCode::And);
    case NodeKind::Or: return with_kids(OpCode::Or);
    case NodeKind::GenericEqual: return with_kids(OpCode::GenericEqual);
    case NodeKind::Not: return with_kids(OpCode::Not);
    case NodeKind::If: {
      auto o = op(OpCode::If, n);
      o->kids.push_back(child(n, Role::If));
      o->kids.push_back(child(n, Role::Then));
      o->kids.push_back(child(n, Role::Else));
      return o;
    }
    case NodeKind::Arithmetic: {
      auto o = with_kids(OpCode::Arithmetic);
      const std::string& t = n.text;
      o->sub = t == "+" ? kAdd : t == "-" ? kSub : t == "*" ? kMul : t == "/" ? kDiv : kMod;
      return o;
    }
    case NodeKind::Negate: return with_kids(OpCode::Negate);
    case NodeKind::Relation:
    case NodeKind::SetEquality: {
      auto o = with_kids(n.kind == NodeKind::Relation ? OpCode::Relation : OpCode::SetEquality);
      const std::string& t = n.text;
      o->sub = t == "<" ? kLt : t == "<=" ? kLe : t == ">" ? kGt : t == ">=" ? kGe : t == "==" ? kEq : kNe;
      return o;
    }
    case NodeKind::CountSquares: return with_kids(OpCode::CountSquares);
    case NodeKind::StringLength: return with_kids(OpCode::StringLength);
    case NodeKind::Abs: return with_kids(OpCode::Abs);
    case NodeKind::Sqrt: return with_kids(OpCode::Sqrt);  // lang
    case NodeKind::MinMax: {
      auto o = with_kids(OpCode::MinMax);
      o->flag = n.text == "min";
      return o;
    }
    case NodeKind::Concat: return with_kids(OpCode::Concat);
    default: return nullptr;
  }
}

OpPtr Compiler::compile_variables(const Node& n) {
  switch (n.kind) {
    case NodeKind::Variable: return op(OpCode::Variable, n);
    case NodeKind::Assign: {
      if (n.has(Option::Dictionary)) {  // lang
        auto o = op(OpCode::DictAssign, n);
        o->kids.push_back(child(n, Role::Key));
        o->kids.push_back(child(n, Role::Value));
        return o;
      }
      // lang: op-assignment and =?
      auto o = op(n.text != "=" ? OpCode::OpAssign : OpCode::Assign, n);
      o->kids.push_back(child(n, Role::Value));
      return o;
    }
    case NodeKind::CurrentPosition: return op(OpCode::CurrentPosition, n);
    case NodeKind::InitialPosition: return op(OpCode::InitialPosition, n);
    case NodeKind::Parent: return op(OpCode::Parent, n);
    case NodeKind::WithPosition: {
      auto o = op(OpCode::WithPosition, n);
      o->kids.push_back(child(n, Role::Position));
      o->kids.push_back(child(n, Role::Body));
      return o;
    }
    case NodeKind::Transform: {
      auto o = op(OpCode::Orbit, n);
      o->flag = range(n, *o);
      all_kids(n, *o, Role::Image);
      o->pattern = SquarePattern::of(*o);  // speed
      return o;
    }
    case NodeKind::NoTransform: return compile(*n.kids.front().node);
    case NodeKind::CurrentTransform: {
      auto o = op(OpCode::CurrentTransform, n);
      o->text = "<" + (n.applied_transforms.empty() ? std::string("identity") : n.applied_transforms) + ">";
      return o;
    }
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
