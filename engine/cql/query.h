#pragma once
// A parsed and bound CQL query: the cql(...) header, variables and the typed body.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/node.h"

namespace cqlindex::cql {

enum class VariableKind : uint8_t { Square, Piece, Position, Numeric, String, Set, Dictionary };

struct Variable {
  std::string name;
  VariableKind kind;
  ValueType type;        // value type of the variable (Dictionary: of its values once known)
  bool persistent = false;
  bool quiet = false;    // persistent quiet: not printed after the run
  bool atomic = false;
  ValueType value_type = ValueType::Logical;  // Dictionary: type of its values (Logical = not yet known)
  ValueType key_type = ValueType::Logical;    // Dictionary: type of its keys (Logical = not yet known)
};

struct Range {
  int64_t min = 0, max = 0;
};

struct Header {
  std::string input, output;           // empty when absent
  std::optional<Range> gamenumber;
  std::optional<Range> matchcount;
  bool sort_matchcount = false;
  std::string result;                  // "", "1-0", "0-1", "1/2-1/2"
  bool variations = false;
  std::optional<std::string> matchstring;
  bool silent = false, quiet = false;
};

struct Query {
  Header header;
  std::vector<Variable> variables;
  NodePtr body;  // Compound of the top-level filters (logical AND at each position)
  bool needs_single_thread = false;  // persistent, dictionary, readfile, writefile
};

// Parses and binds a whole CQL file (header + body). Throws CqlError. An empty body is allowed only when
// `body_may_be_empty` (the command line supplies filters, e.g. `-similarposition F` with `cql()`).
Query parse_query(std::string_view source, bool body_may_be_empty = false);

// Parses a body-only text (e.g. a -cql preamble) against an existing query's variables. Throws CqlError.
NodePtr parse_filters(std::string_view source, Query& query);

}  // namespace cqlindex::cql
