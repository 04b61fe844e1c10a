#pragma once
// A full check of an index and of its PGN (`cqlindex verify`): every byte of the index against the checksums
// its build recorded, and the PGN's whole indexed prefix against its hash, which no query reads (an open costs
// the same whatever the size of the index: store/README.md, "Opening in constant time").
#include <cstdint>
#include <string>
#include <vector>

#include "exec/status.h"

namespace cqlindex::exec {

struct VerifySettings {
  std::string input;      // the indexed file; empty: the one the index's meta names
  std::string index_dir;  // --index DIR; empty: the default folder beside `input`
};

// What the hash of the PGN's whole indexed prefix says.
enum class PgnCheck {
  NotRead,     // the index's meta could not be read, or the PGN could not be (pgn_error says why)
  Agrees,      // the indexed bytes are those indexed
  Appended,    // they agree, and games were appended since
  Differs,     // the PGN changed since it was indexed (the index is stale; pgn_error: the refusal)
};

struct VerifySummary {
  Status status = Status::Ok;  // Ok only when the index and the PGN's indexed bytes are intact
  std::string index_dir;
  bool index_found = false;           // a finished index of this schema is in index_dir (else `error` says why)
  std::string error;
  std::vector<std::string> checked;   // one line per check of the index that ran
  std::vector<std::string> damaged;   // one line per damaged file or failed check, naming the file
  // one line per check the system would not let run (the limit of open files, a permission, memory): not damage
  std::vector<std::string> refused;
  bool meta_read = false;             // the index's meta could be read
  std::string pgn;                    // the PGN checked
  uint64_t pgn_size = 0;              // its indexed bytes
  PgnCheck pgn_check = PgnCheck::NotRead;
  std::string pgn_error;              // why the PGN could not be read, or the refusal of a stale index
  bool touched = false;               // the PGN agrees but another time stamp, device or inode than indexed
};

// Reads every byte of the index of `settings` and of its PGN's indexed prefix; prints nothing (the findings
// are in the summary).
VerifySummary verify_index(const VerifySettings& settings);

}  // namespace cqlindex::exec
