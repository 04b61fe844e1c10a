// Transforms: flipcolor, flip, rotate90, shift, ... (the orbit is expanded by the evaluator and the planner).
#include "engine/cql/parser.h"

namespace cqlindex::cql {

NodePtr Parser::transform() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Transform, ValueType::Logical, start);
  n->text = start.text == "dihedral" || start.text == "flipdihedral" ? "flip" : start.text;
  // reversecolor takes no range in CQL 6.2 (`reversecolor 1 {check}`: the 1 is its filter)
  bool ranged = start.text != "reversecolor" && match_range(*n);
  NodePtr body = require(node(), "expected a filter following '" + start.text + "'");
  // a transform of a position is not a position (CQL 6.2: `flipcolor count {flipcolor (parent == child)} >= 1`
  // counts, random-differential C32-1): its images are tried as filters
  n->type = ranged ? ValueType::Numeric : body->type == ValueType::Position ? ValueType::Logical : body->type;
  n->add(Role::Body, std::move(body));
  return n;
}

}  // namespace cqlindex::cql
