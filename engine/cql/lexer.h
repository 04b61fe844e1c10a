#pragma once
// Splits CQL source text into tokens (throws CqlError with line:column on bad input).
#include <string_view>
#include <vector>

#include "engine/cql/token.h"

namespace cqlindex::cql {

// Returns every token of `source` followed by one End token.
std::vector<Token> lex(std::string_view source);

// True if `word` is one of CQL 6.2's reserved words.
bool is_reserved_word(std::string_view word);

}  // namespace cqlindex::cql
