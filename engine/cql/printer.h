#pragma once
// Printers of the bound tree: a canonical, fully parenthesised form (what `run -parse` shows) and CQL
// text that parses back to the same tree (round trip).
#include <string>

#include "engine/cql/query.h"

namespace cqlindex::cql {

// One node per line, indented: "(Kind:type text [options] role=...)".
std::string print_canonical(const Query& q);
std::string print_canonical(const Node& n);

// CQL 6.2 source text for the query (header + body) that parses to the same tree.
std::string print_cql(const Query& q);
std::string print_cql(const Node& n);

}  // namespace cqlindex::cql
