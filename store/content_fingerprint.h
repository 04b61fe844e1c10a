#pragma once
// Fingerprints of PGN content, so an index can tell whether its PGN changed (or only grew).
#include <cstdint>
#include <optional>
#include <string>

namespace cqlindex::store {

// Returns the XXH3-64 hash of the first `length` bytes of the file at `path`, or nullopt (with `error`)
// when the file cannot be read or is shorter than `length`.
std::optional<uint64_t> fingerprint_file_prefix(const std::string& path, uint64_t length, std::string* error);

}  // namespace cqlindex::store
