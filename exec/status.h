#pragma once
// How a query ended, for the command line to map to an exit code (cli/exit_codes.h): the messages that say
// why were written to standard error where the run stopped.

namespace cqlindex::exec {

enum class Status {
  Ok,           // the run finished (its output is in place)
  QueryError,   // the query, a flag or the usage is wrong
  InputError,   // an input, the output or the index cannot be used
};

// Returns `summary` with `status` set: what a pipeline returns where it stops.
template <class Summary>
Summary stopped(Summary summary, Status status) {
  summary.status = status;
  return summary;
}

}  // namespace cqlindex::exec
