// `Q == 0`, `P <= 2`, `#[Rr] > 1`: a piece designator's count compared with a number. Material conditions are
// the commonest filters of all; as one op they cost one popcount instead of four op evaluations.
#include <bit>

#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

namespace {

// True when op is CountSquares of a plain designator (piece kinds and/or squares, nothing evaluated).
bool counts_designator(const Op& op) {
  if (op.code != OpCode::CountSquares || op.kids.size() != 1 || !op.kids[0]) return false;
  const Op& set = *op.kids[0];
  return (set.code == OpCode::PieceSet || set.code == OpCode::Squares) && set.kids.empty();
}

}  // namespace

void fuse_count_compares(Op& root) {
  for (const OpPtr& k : root.kids)
    if (k) fuse_count_compares(*k);
  if (root.code == OpCode::Relation && root.kids.size() == 2 && root.kids[0] && root.kids[1] &&
      counts_designator(*root.kids[0]) && root.kids[1]->code == OpCode::Number)
    root.code = OpCode::CountCompare;  // kids kept: [0] CountSquares(designator), [1] Number
}

bool eval_count_compare(const Op& op, Ctx& ctx, Value& v) {
  const Op& set = *op.kids[0]->kids[0];
  const uint64_t squares = set.code == OpCode::PieceSet ? pieces_of(ctx.position(), set.pieces) & set.squares
                                                        : set.squares;
  const int64_t n = std::popcount(squares), k = op.kids[1]->a;
  bool ok = false;
  switch (op.sub) {
    case kLt: ok = n < k; break;
    case kLe: ok = n <= k; break;
    case kGt: ok = n > k; break;
    case kGe: ok = n >= k; break;
    case kEq: ok = n == k; break;
    default: ok = n != k; break;
  }
  if (!ok) return false;
  // the value a Relation gives: its left side's (the count)
  v.set = 0;
  v.num = n;
  v.pos = -1;
  v.str.clear();
  return true;
}

}  // namespace cqlindex::cql::eval
