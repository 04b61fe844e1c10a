// similarposition [nosort] [notransform] "FILE.pgn" (spec/cql-similarposition.txt).
#include "engine/cql/parser.h"

namespace cqlindex::cql {

// The similarposition filter: its submissions file and options.
NodePtr Parser::similar_position() {
  const Token& t = cur();
  forward();
  NodePtr n = mk(NodeKind::SimilarPosition, ValueType::Logical, t);
  while (true) {
    if (keyword("nosort")) n->options.push_back(Option::NoSort);
    else if (keyword("notransform")) n->options.push_back(Option::NoTransform);
    else break;
  }
  if (cur().kind != TokenKind::String || cur().text.empty()) error("expected a quoted .pgn file name following 'similarposition'");
  n->text = cur().text;
  forward();
  return n;
}

}  // namespace cqlindex::cql
