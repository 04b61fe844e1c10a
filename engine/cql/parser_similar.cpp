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
  // CQL 6.2 reads one submissions file a query
  if (!similar_file_.empty() && similar_file_ != n->text)
    error("attempt to use two different predecessor Dbs. This feature is not yet supported.");
  similar_file_ = n->text;
  forward();
  return n;
}

}  // namespace cqlindex::cql
