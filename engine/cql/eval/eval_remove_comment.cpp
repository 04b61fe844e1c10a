// removecomment: the comment the input game has at the current position (after the move that led there; the
// game comment before the first move at the start position) is left out of the written game. The request
// travels with the comments the query makes, so it is undone with them (smart comments) when the filter
// around it fails, and it only shows when the game is written. Texts CQL adds at that position stay.
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {

bool eval_remove_comment(const Op&, Ctx& ctx, Value&) {
  pgn::AddedComment c;
  c.node = pgn::NodeIndex(ctx.cur);
  c.remove_original = true;
  ctx.comments.push_back(std::move(c));
  return true;
}

}  // namespace cqlindex::cql::eval
