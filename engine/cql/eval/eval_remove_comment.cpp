// removecomment: the comment the input game has at the current position (after the move that led there; the
// game comment before the first move at the start position) is left out of the written game. As in CQL 6.2
// (RemoveCommentNode marks the position) the mark stays whatever the filters around it do: only whether the
// game is written decides. Texts CQL adds at that position stay.
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

bool eval_remove_comment(const Op&, Ctx& ctx, Value&) {
  ctx.removed_comments.push_back(ctx.cur);
  return true;
}

}  // namespace cqlindex::cql::eval
