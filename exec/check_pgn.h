#pragma once
// Reading a PGN file through (`cqlindex check`): every game parsed, variations included, its problems reported
// on stderr as `FILE:LINE:COL: game N: message` in file order; with `fen`, every mainline position on stdout as
// `GAME<TAB>PLY<TAB>FEN`. A progress line shows on a terminal's stderr.
#include <cstdint>
#include <string>

#include "exec/status.h"

namespace cqlindex::exec {

struct CheckSettings {
  std::string input;     // the PGN file; "-": standard input
  bool fen = false;      // print every mainline position
  unsigned threads = 0;  // parsing threads; 0: every core
};

struct CheckSummary {
  Status status = Status::Ok;
  uint64_t games = 0, errors = 0, warnings = 0, skipped = 0, plies = 0;
};

// Reads the file; an InputError (message on stderr) when it cannot be opened, holds no PGN at all, or the
// positions could not all be written.
CheckSummary check_pgn(const CheckSettings& settings);

}  // namespace cqlindex::exec
