#pragma once
// Fingerprints of PGN content, so an index can tell whether its PGN changed (or only grew): a whole-prefix hash
// (what `verify` and `build --append` check) and a sample hash over a few small blocks (what every open checks).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cqlindex::store {

// Returns the XXH3-64 hash of the first `length` bytes of the file at `path` (read with pread, a buffer at a
// time), or nullopt (with `error`) when the file cannot be read or is shorter than `length`.
std::optional<uint64_t> fingerprint_file_prefix(const std::string& path, uint64_t length, std::string* error);

// Returns the byte ranges (offset, length) sampled from a prefix of `length` bytes: its first and last 64 KiB and
// 14 blocks of 4 KiB evenly spaced between them (ranges may overlap in a short prefix).
std::vector<std::pair<uint64_t, uint64_t>> sampled_ranges(uint64_t length);

// Returns the XXH3-64 hash of the sampled_ranges(length) of the file at `path` (at most 184 KiB read), or nullopt
// (with `error`) when the file cannot be read or is shorter than `length`.
std::optional<uint64_t> fingerprint_file_samples(const std::string& path, uint64_t length, std::string* error);

}  // namespace cqlindex::store
