#pragma once
// Every kind of node of the bound, typed CQL tree. Child layout per kind is documented in node.h.
#include <cstdint>

namespace cqlindex::cql {

#define CQL_NODE_KINDS(X)                                                                                   \
  /* literals and designators */                                                                            \
  X(Number) X(StringLiteral) X(PieceSet) X(AllSquares) X(EmptySet) X(True) X(False) X(ColorValue)            \
  /* grouping */                                                                                            \
  X(Compound)                                                                                               \
  /* logic */                                                                                               \
  X(And) X(Or) X(Not) X(If)                                                                                 \
  /* set algebra and relations */                                                                           \
  X(Union) X(Intersect) X(PositionIntersect) X(Complement) X(Subset) X(StringIn) X(Attacks) X(AttackedBy)   \
  X(AttackRay) X(Between) X(Ray) X(Pin) X(LightDark) X(Direction) X(FromSquare) X(EnPassantSquare)     \
  X(ToSquare) X(MakeSquare) X(SquareLoop) X(PieceLoop) X(PieceAssign)                                       \
  /* arithmetic, comparison, strings */                                                                     \
  X(Arithmetic) X(Negate) X(Concat) X(Relation) X(SetEquality) X(CountSquares) X(StringLength)               \
  X(DictionaryCount) X(Abs) X(Sqrt) X(MinMax) X(Power) X(PieceAttribute) X(Coordinate) X(Substring)          \
  X(RegexMatch) X(GroupRef) X(IndexOf) X(CaseConvert) X(StringToInt) X(Ascii) X(ToString) X(ReadFile)       \
  X(WriteFile)                                                                                              \
  /* position state, game info */                                                                           \
  X(Predicate) X(Counter) X(Result) X(Tag) X(TagBuiltin) X(SetTag) X(Player) X(Elo) X(Fen) X(HasComment)     \
  X(PastMove) X(RemoveComment)                                                                              \
  /* positions and navigation */                                                                            \
  X(CurrentPosition) X(InitialPosition) X(Parent) X(Child) X(PositionById) X(WithPosition) X(Lca)           \
  X(Distance) X(Descendant) X(PositionOrder) X(GenericEqual)                                                \
  /* moves */                                                                                               \
  X(Move) X(Dash) X(LegalDash) X(CountMoves) X(PreviousDash)                                                \
  /* sequences */                                                                                           \
  X(Line) X(Path) X(SeqFilter) X(SeqChain) X(SeqRepeat) X(PathInfo)                                         \
  /* search, loops, echo */                                                                                 \
  X(Find) X(Echo) X(ConsecutiveMoves) X(Loop) X(While) X(Sort)                                              \
  /* variables */                                                                                             \
  X(Variable) X(Assign) X(Unbind) X(IsBound) X(DictionaryDecl) X(DictionaryGet) X(DictionaryIterate)          \
  X(FunctionDef) X(FunctionCall)                                                                                           \
  /* transforms */                                                                                          \
  X(Transform) X(NoTransform) X(CurrentTransform)                                                           \
  /* output */                                                                                              \
  X(Comment) X(Message)                                                                                     \
  /* special */                                                                                             \
  X(SimilarPosition) X(Assert) X(Abort) X(Hhdb) X(Extension) X(AssertVariations)

enum class NodeKind : uint8_t {
#define X(k) k,
  CQL_NODE_KINDS(X)
#undef X
};

// Name of a node kind as the canonical printer writes it ("Union", "SquareLoop", ...).
const char* kind_name(NodeKind k);

}  // namespace cqlindex::cql
