#pragma once
// A manifest of every file of a finished index (name, size, XXH3-64), written last by a build. Its presence
// says the build finished. An open checks only that every file is there with its size (a stat each, constant
// time in the size of the index); `cqlindex verify` also checks every hash, which catches an altered file that
// RocksDB's own checks do not cover (OPTIONS, CURRENT, ...) and names it.
#include <cstdint>
#include <string>
#include <vector>

namespace cqlindex::store {

constexpr const char* kChecksumManifestName = "CQLINDEX-CHECKSUMS";

// Writes the manifest of the regular files in `dir`; returns false (with `error`) on failure.
bool write_checksum_manifest(const std::string& dir, std::string* error);

// What a check of the manifest found.
struct ManifestCheck {
  int files = 0;                      // files listed
  uint64_t bytes = 0;                 // their bytes (hashed, when contents were checked)
  std::vector<std::string> problems;  // "NAME is missing" / "... has changed size ..." / "... has changed ..."
};

// Checks every file the manifest of `dir` lists: that it is there with its size, and with `contents` its hash.
// Returns false (with `error`) when the manifest is missing or unreadable (the build did not finish), else
// true with the problems of the files in `check` (all of them, not only the first).
bool check_checksum_manifest(const std::string& dir, bool contents, ManifestCheck& check, std::string* error);

}  // namespace cqlindex::store
