#pragma once
// Exit codes shared by every sub-command (docs/ARCHITECTURE.md, "Command line").
#include "exec/status.h"

namespace cqlindex::cli {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 1;  // a query, flag or usage error
constexpr int kExitInput = 2;  // an input or index that cannot be used

// Returns the exit code of a query that ended with `status`.
constexpr int exit_code(exec::Status status) {
  switch (status) {
    case exec::Status::Ok: return kExitOk;
    case exec::Status::QueryError: return kExitUsage;
    case exec::Status::InputError: return kExitInput;
  }
  return kExitInput;
}

}  // namespace cqlindex::cli
