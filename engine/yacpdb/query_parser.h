// Parses a YACPDB query ("With('wR wR') AND Stip('#2')") into the typed tree of query_ast.h.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/yacpdb/query_ast.h"

namespace cqlindex::yacpdb {

// A query that does not parse or whose parameters are outside their domains. column is 1-based and counts
// characters (UTF-8 code points); what() is "column N: message".
class QueryError : public std::runtime_error {
 public:
  QueryError(int column, const std::string& message);
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  int column_;
  std::string message_;
};

struct Query {
  std::unique_ptr<Expr> root;
};

// The query's tree; throws QueryError.
Query parse_query(std::string_view text);

// The canonical text of a query: keywords in upper case, parameters in canonical form (strings double-quoted
// unless they hold a double quote), `> 0` left out, parentheses only where precedence needs them.
// parse_query(to_string(q)) gives the same tree.
std::string to_string(const Query& q);
std::string to_string(const Expr& e);
std::string to_string(const Param& p);

}  // namespace cqlindex::yacpdb
