// Test helper: the problems of Popeye's solver output files (diagram, stipulation, conditions, solution text),
// read from the output alone so that no Popeye input language is needed.
#pragma once

#include <string>
#include <vector>

#include "engine/yacpdb/entry.h"

namespace cqlindex::yacpdb::testing {

struct PopeyeProblem {
  Entry entry;            // pieces, stipulation, solution; file and line of the block
  bool orthodox = false;  // orthodox pieces, no conditions, a plain stipulation (#n, h#n, s=n, ser-h#n, ...)
  std::vector<std::string> conditions;  // lines printed under the stipulation
};

// Every problem of one Popeye output text (blocks end with "solution finished.").
std::vector<PopeyeProblem> read_popeye_output(const std::string& text, const std::string& file);

}  // namespace cqlindex::yacpdb::testing
