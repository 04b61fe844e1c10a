// The typed tree of a YACPDB query: predicate calls with validated parameters, comparisons, NOT/AND/OR.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/yacpdb/predicate_catalog.h"

namespace cqlindex::yacpdb {

// A PIECE parameter: colour 'w', 'b' or 'n' and an upper-case Popeye code ("S" is the knight; a query's "N"
// is read as the knight too, see piece_code.h).
struct PieceSpec {
  char color = 'w';
  std::string code;
  bool operator==(const PieceSpec&) const = default;
};

// A DATE parameter: YYYY[-MM[-DD]]; month and day are 0 when not given.
struct DateSpec {
  int year = 0, month = 0, day = 0;
  bool operator==(const DateSpec&) const = default;
};

// One validated parameter. Only the member that belongs to `domain` is meaningful, and none when `wildcard`.
struct Param {
  Domain domain = Domain::String;
  bool wildcard = false;
  int column = 0;        // 1-based column of the parameter in the query
  std::string text;      // String; RefType in lower case; Transformations as "All"/"Mirror"/"None"
  int64_t integer = 0;   // Integer
  bool boolean = false;  // Boolean
  char color = 'w';      // Color
  PieceSpec piece;       // Piece
  DateSpec date;         // Date
};

struct PredicateCall {
  const PredicateInfo* info = nullptr;
  std::vector<Param> params;
  int column = 0;
};

enum class Cmp { Greater, Less, Equal };

// A node of the query. Compare: `call CMP value` (a bare predicate is `> 0`). Not: one child. And/Or: two or
// more children (nested ANDs and ORs are flattened; evaluation is left to right).
struct Expr {
  enum class Kind { Compare, Not, And, Or } kind = Kind::Compare;
  PredicateCall call;
  Cmp cmp = Cmp::Greater;
  int64_t value = 0;
  std::vector<std::unique_ptr<Expr>> children;
  int column = 0;
};

}  // namespace cqlindex::yacpdb
