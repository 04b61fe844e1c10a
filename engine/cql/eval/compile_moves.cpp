// Compiling the move filters (eval_moves.cpp): move, the dashes, legal and pseudolegal dashes, countmoves,
// the move just played (castle, enpassant, ...) and its squares.
#include <map>

#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {
namespace {

// Returns the op of `move`: kids from, to, capture, promote, comment, enpassantsquare; its options as bits in b.
OpPtr compile_move(Compiler& c, const Node& n) {
  auto o = c.op(OpCode::Move, n);
  o->sub = n.has(Option::Previous) ? kPrevious : n.has(Option::Legal) ? kLegal : n.has(Option::PseudoLegal) ? kPseudoLegal : kPlayed;
  // move comment: written at the position each matching move leads to (turton-old.pgn; previous: here)
  o->kids.push_back(c.child(n, Role::From));
  o->kids.push_back(c.child(n, Role::To));
  o->kids.push_back(c.child(n, Role::Capture));
  o->kids.push_back(c.child(n, Role::Promote));
  o->kids.push_back(c.child(n, Role::Comment));  // echo: move comment
  o->kids.push_back(c.child(n, Role::EnPassantSquare));
  // options: castle o-o o-o-o enpassant null primary secondary count
  static const std::map<Option, int64_t> bits = {
      {Option::Castle, kMoveCastle}, {Option::OO, kMoveOO}, {Option::OOO, kMoveOOO},
      {Option::EnPassant, kMoveEnPassant}, {Option::Null, kMoveNull}, {Option::Primary, kMovePrimary},
      {Option::Secondary, kMoveSecondary}, {Option::Count, kMoveCount}};
  o->b = 0;
  for (Option opt : n.options) {
    auto it = bits.find(opt);
    if (it != bits.end()) o->b |= it->second;
  }
  return o;
}

}  // namespace

OpPtr Compiler::compile_moves(const Node& n) {
  switch (n.kind) {
    case NodeKind::FromSquare: return op(n.text == "to" ? OpCode::ToSquare : OpCode::FromSquare, n);
    case NodeKind::EnPassantSquare: return op(OpCode::EnPassantSquare, n);
    case NodeKind::ToSquare: return op(OpCode::ToSquare, n);
    case NodeKind::PastMove: {
      static const std::map<std::string, PastMoveKind> kinds = {
          {"castle", kCastle}, {"o-o", kOO}, {"o-o-o", kOOO}, {"enpassant", kEnPassant},
          {"nullmove", kNullMove}, {"primary", kPrimary}, {"secondary", kSecondary}};
      auto o = op(OpCode::PastMove, n);
      o->sub = kinds.at(n.text);
      return o;
    }
    case NodeKind::Move: return compile_move(*this, n);
    case NodeKind::Dash: {
      auto o = op(OpCode::Dash, n);
      o->flag = is_capture_dash(n);
      o->kids.push_back(child(n, Role::Left));
      o->kids.push_back(child(n, Role::Right));
      o->kids.push_back(child(n, Role::Promote));
      all_kids(n, *o, Role::Target);
      return o;
    }
    case NodeKind::LegalDash: {
      auto o = op(OpCode::LegalDash, n);
      o->sub = n.text == "pseudolegal" ? kPseudoLegal : kLegal;
      o->kids.push_back(child(n, Role::Dash));
      // its dash has no promotion and at most one target, castle o-o o-o-o or enpassant (check_legal_dash)
      return o;
    }
    case NodeKind::CountMoves: {
      auto o = op(OpCode::CountMoves, n);
      o->sub = n.has(Option::Legal) ? kLegal : n.has(Option::PseudoLegal) ? kPseudoLegal : kPlayed;
      o->kids.push_back(child(n, Role::Dash));
      return o;
    }
    default: return nullptr;
  }
}

}  // namespace cqlindex::cql::eval
