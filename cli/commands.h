#pragma once
// The sub-commands of cqlindex. Each returns the process exit code (see exit_codes.h).

namespace cqlindex::cli {

// Runs the sub-command named by argv[1]; returns the exit code.
int dispatch(int argc, char** argv);

// `run QUERY.cql [options]`: parse (and later evaluate) a CQL query; returns the exit code.
int run_command(int argc, char** argv);

}  // namespace cqlindex::cli
