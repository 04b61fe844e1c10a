#pragma once
// Options of `cqlindex run`: CQL 6.2's command line (one or two dashes, case-insensitive) plus ours.
#include <optional>
#include <string>

#include "exec/run_query.h"

namespace cqlindex::cli {

// The settings of a run, filled from the command line.
using RunOptions = exec::RunSettings;

// Parses argv (argv[0] = "run"); returns an error message on a bad command line.
std::optional<std::string> parse_run_options(int argc, char** argv, RunOptions& out);

}  // namespace cqlindex::cli
