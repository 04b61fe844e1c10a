// Compiling the set filters (eval_sets.cpp): piece designators, set algebra, attacks, rays, pins, directions,
// the square and piece loops; and the attributes of pieces (type, name, id, pawn structure).
#include <map>

#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/directions.h"

namespace cqlindex::cql::eval {
namespace {

// Returns the direction op of `n` (up, diagonal, ...): its distances fixed, or computed at run time.
OpPtr compile_direction(Compiler& c, const Node& n) {
  auto o = c.op(OpCode::Direction, n);
  o->sub = direction_mask(n.text);
  const Node* lo = n.child(Role::Low);
  if (lo && lo->kind != NodeKind::Number && !n.has(Option::Count)) {
    // distances computed at run time (echo: chameleon.cql `up DeltaRank`): kids 1, 2
    o->kids.push_back(c.child(n, Role::Arg));
    o->kids.push_back(c.child(n, Role::Low));
    o->kids.push_back(c.child(n, Role::High));
    return o;
  }
  if (!c.range(n, *o)) {
    o->a = 1;
    o->b = 7;
  }
  o->kids.push_back(c.child(n, Role::Arg));
  return o;
}

}  // namespace

OpPtr Compiler::compile_sets(const Node& n) {
  auto with_kids = [&](OpCode code) {
    auto o = op(code, n);
    all_kids(n, *o);
    return o;
  };
  switch (n.kind) {
    case NodeKind::PieceSet: return op(n.pieces == 0 ? OpCode::Squares : OpCode::PieceSet, n);
    case NodeKind::AllSquares:
    case NodeKind::EmptySet: {
      auto o = op(OpCode::Squares, n);
      o->squares = n.kind == NodeKind::AllSquares ? ~uint64_t{0} : 0;
      return o;
    }
    case NodeKind::Union: return with_kids(OpCode::Union);
    case NodeKind::Intersect: return with_kids(OpCode::Intersect);
    case NodeKind::Complement: return with_kids(OpCode::Complement);
    case NodeKind::Subset: return with_kids(OpCode::Subset);
    case NodeKind::Attacks: return with_kids(OpCode::Attacks);
    case NodeKind::AttackedBy: return with_kids(OpCode::AttackedBy);
    case NodeKind::Between: return with_kids(OpCode::Between);
    case NodeKind::AttackRay: {
      auto o = with_kids(OpCode::Ray);
      o->flag = true;           // attack
      o->sub = kAllDirections;  // along any direction (path: turton, likeinterference)
      return o;
    }
    case NodeKind::Ray: {
      auto o = op(OpCode::Ray, n);
      o->flag = n.has(Option::Attack) || n.text == "xray";
      uint8_t mask = 0;
      for (Option d : n.options) mask |= direction_mask(option_name(d));
      o->sub = mask ? mask : kAllDirections;
      all_kids(n, *o);
      return o;
    }
    case NodeKind::Pin: {
      auto o = op(OpCode::Pin, n);
      o->kids.push_back(child(n, Role::From));
      o->kids.push_back(child(n, Role::Through));
      o->kids.push_back(child(n, Role::To));
      o->sub = n.text == "from" ? kPinFrom : n.text == "to" ? kPinTo : kPinThrough;
      return o;
    }
    case NodeKind::LightDark: {
      auto o = with_kids(OpCode::LightDark);
      o->flag = n.text == "light";
      return o;
    }
    case NodeKind::Direction: return compile_direction(*this, n);
    case NodeKind::Power: return with_kids(OpCode::Power);
    case NodeKind::SquareLoop:
    case NodeKind::PieceLoop: {
      auto o = op(n.kind == NodeKind::SquareLoop ? OpCode::SquareLoop : OpCode::PieceLoop, n);
      if (n.kind == NodeKind::PieceLoop) prog.uses_piece_ids = true;
      o->flag = n.has(Option::All);
      o->kids.push_back(child(n, Role::Domain));
      o->kids.push_back(child(n, Role::Body));
      return o;
    }
    case NodeKind::PieceAssign: {
      prog.uses_piece_ids = true;
      auto o = op(OpCode::PieceAssign, n);
      o->kids.push_back(child(n, Role::Value));
      return o;
    }
    default: return nullptr;
  }
}

OpPtr Compiler::compile_piece_attributes(const Node& n) {
  if (n.kind != NodeKind::PieceAttribute) return nullptr;
  if (n.text == "type" || n.text == "colortype") {
    auto o = op(OpCode::PieceType, n);
    o->flag = n.text == "colortype";
    all_kids(n, *o);
    return o;
  }
  if (n.text == "piecename" || n.text == "typename" || n.text == "pieceid") {  // eval_echo.cpp
    if (n.text == "pieceid") prog.uses_piece_ids = true;
    auto o = op(n.text == "pieceid" ? OpCode::PieceId : OpCode::PieceName, n);
    o->flag = n.text == "typename";
    all_kids(n, *o);
    return o;
  }
  static const std::map<std::string, PawnKind> pawns = {
      {"connectedpawns", kConnected}, {"isolatedpawns", kIsolated}, {"doubledpawns", kDoubled}, {"passedpawns", kPassed}};
  auto it = pawns.find(n.text);
  if (it == pawns.end()) unsupported(n, n.text);
  auto o = op(OpCode::PawnStructure, n);
  o->sub = it->second;
  return o;
}

}  // namespace cqlindex::cql::eval
