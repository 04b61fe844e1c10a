#pragma once
// The text of a query file (run, explain): read whole, or refused with one message for every command.
#include <optional>
#include <string>

namespace cqlindex::exec {

// Returns the bytes of `path`; nullopt, with "cqlindex COMMAND: cannot read query file 'PATH'" on stderr, when
// it cannot be opened or is a folder (which would otherwise read as an empty query).
std::optional<std::string> read_query_file(const std::string& command, const std::string& path);

}  // namespace cqlindex::exec
