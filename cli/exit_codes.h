#pragma once
// Exit codes shared by every sub-command (DESIGN.md, "Command line").

namespace cqlindex::cli {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 1;  // a query, flag or usage error
constexpr int kExitInput = 2;  // an input or index that cannot be used

}  // namespace cqlindex::cli
