// Cutting a share into pieces at the game count's checkpoints (share_pieces.h).
#include "exec/share_pieces.h"

#include <algorithm>

namespace cqlindex::exec {

uint64_t share_start(uint64_t total, int rank, int size, bool rank0_larger) {
  if (rank >= size) return total;
  if (rank <= 0) return 0;
  if (!rank0_larger) return uint64_t((unsigned __int128)total * unsigned(rank) / unsigned(size));
  // total x (5/(4K) + (rank - 1) x (1 - 5/(4K)) / (K - 1)), exactly
  const unsigned __int128 k = unsigned(size);
  const unsigned __int128 num = 5 * (k - 1) + (unsigned(rank) - 1) * (4 * k - 5), den = 4 * k * (k - 1);
  return uint64_t(std::min<unsigned __int128>(total, total * num / den));
}

uint64_t checkpoint_byte(uint64_t bytes, unsigned mark) {
  return bytes * (mark + 1) / (Checkpoint::kCheckpoints + 1);
}

std::vector<SharePiece> cut_pieces(const std::vector<SharePiece>& pieces, const std::vector<uint64_t>& games,
                                   const std::vector<std::vector<Checkpoint>>& checkpoints, uint64_t target) {
  std::vector<SharePiece> out;
  for (const SharePiece& piece : pieces) {
    const std::vector<Checkpoint>* marks = piece.file < checkpoints.size() ? &checkpoints[piece.file] : nullptr;
    if (piece.follows || !marks || marks->empty()) {
      out.push_back(piece);
      continue;
    }
    const uint64_t first = piece.part.first;
    const uint64_t end = piece.part.end == FilePart::kToFileEnd ? games[piece.file] : piece.part.end;
    // Reading from byte 0 is reading the whole file: its first game needs no checkpoint.
    std::optional<GameStart> from = first == 0 ? std::optional<GameStart>(GameStart{}) : piece.part.first_start;
    uint64_t at = first;
    for (const Checkpoint& mark : *marks) {
      if (mark.game <= at || mark.game >= end || mark.game - at < target || end - mark.game < target / 2) continue;
      out.push_back(SharePiece{piece.file, FilePart{at, mark.game, from, mark.start}, piece.offset, false});
      at = mark.game;
      from = mark.start;
    }
    if (at == first) {  // no cut
      out.push_back(piece);
      continue;
    }
    out.push_back(
        SharePiece{piece.file, FilePart{at, piece.part.end, from, piece.part.end_start}, piece.offset, false});
  }
  return out;
}

size_t pieces_to_give(size_t left, double merge_pieces) {
  // rank 0 keeps k with k + merge = left - k, rounded down: the asker takes the rest
  const double keep = (double(left) - std::max(0.0, merge_pieces)) / 2;
  const size_t balanced = keep <= 0 ? left : left - std::min(left, size_t(keep));
  return (balanced + 1) / 2;
}

}  // namespace cqlindex::exec
