#pragma once
// A part of one PGN file of a repository: its games [first, end) (0-based, in the file's own order), as an MPI
// rank reads them when a file is cut between ranks (docs/distributed.md). The part's bytes start where its first
// game starts, so that the game splitter, started there, cuts the same games as over the whole file; only the
// line numbers of its messages need the part's first line added (shift_to_part).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/pgn/pgn_error.h"
#include "store/index_store.h"

namespace cqlindex::exec {

// Where a game starts in its file's text (its messages are placed from there).
struct GameStart {
  uint64_t offset = 0;
  uint32_t line = 1, col = 1;
};

// Games [first, end) of a file; end = kToFileEnd: every game from `first` on.
struct FilePart {
  static constexpr uint64_t kToFileEnd = std::numeric_limits<uint64_t>::max();
  FilePart() = default;
  FilePart(uint64_t first, uint64_t end, std::optional<GameStart> first_start = {},
           std::optional<GameStart> end_start = {})
      : first(first), end(end), first_start(first_start), end_start(end_start) {}

  uint64_t first = 0, end = kToFileEnd;
  // Where games `first` and `end` start, when a game count found them already (distributed_pieces.h): the part is
  // then read without a pass of the game splitter over the file before it.
  std::optional<GameStart> first_start, end_start;
  // Returns true when the part is the whole file.
  bool whole() const { return first == 0 && end == kToFileEnd; }
};

// Where a part's bytes lie in the file's text, and where its first byte is (line, column) for its messages.
struct PartBytes {
  uint64_t begin = 0, end = 0;
  uint32_t line = 1, col = 1;
};

// Returns the bytes of `part` in `text`: from the index's game records when `index` is given (its games are the
// file's), else from the part's known starts, else found by the game splitter from the file's start (or from the
// part's known first start: a cheap pass that parses nothing). A part past the last game is empty. Nullopt with
// `error` when the index cannot be read.
std::optional<PartBytes> part_bytes(std::string_view text, const FilePart& part, const store::IndexStore* index,
                                    std::string* error);

// Moves messages found in the part's bytes (read as if they began at line 1, column 1) to their place in the file.
void shift_to_part(std::vector<pgn::PgnError>& errors, const PartBytes& bytes);

}  // namespace cqlindex::exec
