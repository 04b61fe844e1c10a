// The metadata predicates (Author, Stip, With, Matrix, ...): values read from the entry alone, 0/1 for the
// boolean ones, real counts for PCount and Option(*) (research/yacpdb.md 4.3).
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/text/regex.h"
#include "engine/yacpdb/entry.h"
#include "engine/yacpdb/query_ast.h"

namespace cqlindex::yacpdb {

// Case-insensitive whole-value match where '*' and '%' stand for any run of characters.
bool like_match(std::string_view pattern, std::string_view value);

// Case-insensitive "contains", '%' standing for any run (Text).
bool text_contains(std::string_view needle, std::string_view haystack);

// Matrix / MatrixExtended: the pieces of `list` stand, relative to one another, as in the diagram, under one of
// the transforms (All: the 8 symmetries of the board, Mirror: identity and left-right, None: identity), moved
// along files only if xshift, along ranks only if yshift. Extra diagram pieces do not matter.
bool matrix_match(const Entry& e, std::string_view list, bool xshift, bool yshift, std::string_view transforms);

// The value of a metadata predicate call for an entry. `stip_regex` is the compiled Stip pattern when the
// call is Stip with a value. Throws QueryError (at the pattern) when the pattern needs more work on the entry's
// stipulation than a match may take.
int64_t metadata_value(const PredicateCall& call, const Entry& e, const text::Regex* stip_regex);

}  // namespace cqlindex::yacpdb
