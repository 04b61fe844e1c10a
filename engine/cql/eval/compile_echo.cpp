// Compiling `echo` and the navigation between positions (eval_echo.cpp): position order, lca, distance,
// child, position ids, makesquare, consecutivemoves.
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {
namespace {

// speed: the echo flag (kEchoDescendants, kEchoLater, or 0) that says which targets can match, when `body`
// starts with `s ≺ t`, `s ≼ t` (ancestry: t in the source's subtree), `s < t` or `s <= t` (position ids: t
// later in the pre-order) for the echo's variables s and t
uint8_t target_range(const Op& body, int s, int t) {
  const Op* first = body.code == OpCode::Compound ? body.kid(0) : &body;
  if (!first || (first->sub != kLt && first->sub != kLe)) return 0;
  const Op *a = first->kid(0), *b = first->kid(1);
  if (!a || !b || a->code != OpCode::Variable || a->var != s || b->code != OpCode::Variable || b->var != t) return 0;
  if (first->code == OpCode::PositionOrder) return kEchoDescendants;
  if (first->code == OpCode::Relation && a->type == ValueType::Position) return kEchoLater;
  return 0;
}

}  // namespace

OpPtr Compiler::compile_echo(const Node& n) {
  auto with_kids = [&](OpCode code) {
    auto o = op(code, n);
    all_kids(n, *o);
    return o;
  };
  switch (n.kind) {
    case NodeKind::Echo: {
      auto o = op(OpCode::Echo, n);
      o->sub = (n.has(Option::Quiet) ? kEchoQuiet : 0) | (n.has(Option::InAll) ? kEchoInAll : 0);
      o->a = n.child(Role::Source)->var;
      o->b = n.child(Role::Target)->var;
      o->kids.push_back(child(n, Role::Body));
      o->sub |= target_range(*o->kids[0], int(o->a), int(o->b));
      return o;
    }
    case NodeKind::PositionIntersect: return with_kids(OpCode::PositionIntersect);
    case NodeKind::PositionOrder: {
      auto o = with_kids(OpCode::PositionOrder);
      const std::string& t = n.text;
      o->sub = t == "[<]" ? kLt : t == "[<=]" ? kLe : t == "[>]" ? kGt : kGe;
      return o;
    }
    // ancestor(x y): x is a strict ancestor of y, x ≺ y; descendant(x y): x ≻ y (the manual, ancestor.html)
    case NodeKind::Descendant: {
      auto o = with_kids(OpCode::PositionOrder);
      o->sub = n.text == "ancestor" ? kLt : kGt;
      return o;
    }
    case NodeKind::Lca: return with_kids(OpCode::Lca);
    case NodeKind::Distance: return with_kids(OpCode::Distance);
    case NodeKind::Child: return with_kids(OpCode::Child);
    case NodeKind::MakeSquare: return with_kids(OpCode::MakeSquare);
    case NodeKind::PositionById: return with_kids(OpCode::PositionById);
    case NodeKind::ConsecutiveMoves: {
      auto o = op(OpCode::ConsecutiveMoves, n);
      o->sub = n.has(Option::Quiet) ? kConsecutiveMovesQuiet : 0;
      o->flag = range(n, *o);
      o->kids.push_back(child(n, Role::Left));
      o->kids.push_back(child(n, Role::Right));
      return o;
    }
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
