// Finding a part of a PGN file by its games: through the index's game records, else with the game splitter.
#include "exec/repository_part.h"

#include "engine/pgn/game_splitter.h"

namespace cqlindex::exec {

std::optional<PartBytes> part_bytes(std::string_view text, const FilePart& part, const store::IndexStore* index,
                                    std::string* error) {
  PartBytes bytes{0, text.size(), 1, 1};
  if (part.whole()) return bytes;
  if (index) {
    const uint64_t games = index->meta().game_count;
    if (part.first >= games) return PartBytes{text.size(), text.size(), 1, 1};
    auto first = index->game(uint32_t(part.first), error);
    if (!first) return std::nullopt;
    bytes = PartBytes{first->offset, text.size(), first->first_line, first->first_col};
    if (part.end < games) {
      auto end = index->game(uint32_t(part.end), error);
      if (!end) return std::nullopt;
      bytes.end = end->offset;
    }
    return bytes;
  }
  if (part.first_start) {  // the splitter, if the end is not known, runs over the part alone
    const GameStart& at = *part.first_start;
    bytes = PartBytes{at.offset, text.size(), at.line, at.col};
    if (part.end_start) {
      bytes.end = part.end_start->offset;
    } else if (part.end != FilePart::kToFileEnd) {
      pgn::GameSplitter splitter(text.substr(at.offset));
      pgn::GameSpan span;
      for (uint64_t game = part.first; splitter.next(span); ++game)
        if (game == part.end) {
          bytes.end = at.offset + span.offset;
          break;
        }
    }
    return bytes;
  }
  // Without an index the splitter finds the first game and the end: it only looks for game starts, so a pass
  // over the file's prefix costs a small share of replaying it.
  pgn::GameSplitter splitter(text);
  pgn::GameSpan span;
  bool found_first = false;
  uint64_t game = 0;
  for (; splitter.next(span); ++game) {
    if (game == part.first) {
      bytes = PartBytes{span.offset, text.size(), span.first_line, span.first_col};
      found_first = true;
    }
    if (game == part.end) {
      bytes.end = span.offset;
      break;
    }
  }
  if (!found_first) return PartBytes{text.size(), text.size(), 1, 1};
  return bytes;
}

void shift_to_part(std::vector<pgn::PgnError>& errors, const PartBytes& bytes) {
  if (bytes.line == 1 && bytes.col == 1) return;
  for (pgn::PgnError& e : errors) {
    if (e.line == 0) continue;  // no place in the file
    if (e.line == 1) e.col += bytes.col - 1;
    e.line += bytes.line - 1;
  }
}

}  // namespace cqlindex::exec
