#pragma once
// What an index holds (`cqlindex info`): its PGN and whether it still describes it, its counts, and the keys
// and bytes of each family. Reads the meta family only (and the folder's sizes), as every open does.
#include <cstdint>
#include <string>
#include <vector>

#include "exec/status.h"

namespace cqlindex::exec {

struct IndexInfoSettings {
  std::string input;      // the indexed file; empty: the one the index's meta names
  std::string index_dir;  // --index DIR; empty: the default folder beside `input`
};

// How the PGN relates to the index (indexer/index_location.h decides it in constant time).
enum class PgnState { Fresh, Appended, Stale, Unreadable };

struct FamilyInfo {
  std::string name;   // the column family's name
  uint64_t keys = 0;  // RocksDB's estimate of its keys
  uint64_t bytes = 0;
  bool bucketed = false;            // its keys are buckets of positions (the similar family)
  uint64_t distinct_positions = 0;  // bucketed: the build's estimate of the distinct positions
  uint64_t buckets = 0;             // bucketed: how many buckets the family has
};

struct IndexInfoSummary {
  Status status = Status::Ok;
  std::string index_dir;
  std::string pgn_path;  // as the index recorded it
  uint64_t pgn_size = 0;  // the indexed bytes
  std::string pgn_checked;  // the PGN whose freshness was checked
  PgnState pgn_state = PgnState::Unreadable;
  std::string pgn_error;  // PgnState::Unreadable: why
  uint64_t schema_version = 0, games = 0, positions = 0;
  std::vector<FamilyInfo> families;  // in store::Family order
  uint64_t table_bytes = 0;   // the families' tables
  uint64_t folder_bytes = 0;  // every file of the folder
};

// Returns the bytes of the regular files in `dir` (not below it): an index folder's size.
uint64_t folder_bytes(const std::string& dir);

// Reads what the index of `settings` holds; a missing, foreign or unreadable index is an InputError with its
// message ("cqlindex info: ...") on stderr.
IndexInfoSummary index_info(const IndexInfoSettings& settings);

}  // namespace cqlindex::exec
