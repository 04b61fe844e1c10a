#pragma once
// A query error with the 1-based line and column (UTF-8 code points) where CQL text stops making sense.
#include <stdexcept>
#include <string>

namespace cqlindex::cql {

struct CqlError : std::runtime_error {
  // Query: the CQL text is wrong. Input: a file the query names cannot be used (a similarposition's submissions).
  enum class Kind { Query, Input };
  int line;    // 1-based; 0 when the error has no position (e.g. empty file)
  int column;  // 1-based, counted in code points
  Kind kind;
  CqlError(std::string message, int line_, int column_, Kind kind_ = Kind::Query)
      : std::runtime_error(std::move(message)), line(line_), column(column_), kind(kind_) {}
};

// "FILE:LINE:COL: message" plus the offending line and a caret (no position: "FILE: message").
std::string format_error(const CqlError& e, const std::string& file, const std::string& source);

}  // namespace cqlindex::cql
