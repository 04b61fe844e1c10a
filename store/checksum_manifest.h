#pragma once
// A manifest of every file of a finished index (name, size, XXH3-64), written last by a build and checked
// by every open. RocksDB checks the blocks it reads; the manifest also catches a truncated or altered file
// in a part a query would not read, so a damaged index is refused as a whole.
#include <string>

namespace cqlindex::store {

constexpr const char* kChecksumManifestName = "CQLINDEX-CHECKSUMS";

// Writes the manifest of the regular files in `dir`; returns false (with `error`) on failure.
bool write_checksum_manifest(const std::string& dir, std::string* error);

// Returns true when every file the manifest of `dir` lists is there with the same size and hash.
bool verify_checksum_manifest(const std::string& dir, std::string* error);

}  // namespace cqlindex::store
