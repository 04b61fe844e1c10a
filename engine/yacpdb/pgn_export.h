// Problems as PGN: PGN entries as their original text, YAML entries as one game per twin with the twin's
// diagram as FEN, the metadata as tags and the solution tree as the movetext (variations, "--" for nulls).
#pragma once

#include <string>

#include "engine/yacpdb/problem.h"

namespace cqlindex::yacpdb {

// The PGN text of a problem (ends with a blank line).
std::string problem_to_pgn(const Problem& p);

}  // namespace cqlindex::yacpdb
