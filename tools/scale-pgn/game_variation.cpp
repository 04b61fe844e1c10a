#include "tools/scale-pgn/game_variation.h"

#include <xxhash.h>

#include "engine/chess/movegen.h"
#include "engine/chess/san.h"

namespace cqlindex::tools {
namespace {

// SplitMix64: a small, well-mixed, seedable generator (the outputs only need to look random, not be secret).
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // A number in [0, n) (n > 0; the modulo bias is irrelevant for n this small).
  uint32_t below(uint32_t n) { return uint32_t(next() % n); }
};

// Appends `line` to `out`, breaking it at spaces so that no line reaches column 80 (PGN export style).
void append_wrapped(std::string& out, std::string_view line) {
  constexpr size_t kWidth = 79;
  size_t column = 0;
  while (!line.empty()) {
    const size_t space = line.find(' ');
    const std::string_view word = line.substr(0, space);
    if (column > 0 && column + 1 + word.size() > kWidth) {
      out += '\n';
      column = 0;
    } else if (column > 0) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    if (space == std::string_view::npos) break;
    line.remove_prefix(space + 1);
  }
  out += '\n';
}

}  // namespace

GameText write_game(const SourceGame& game, uint64_t index, uint64_t copy, uint64_t seed, uint32_t salt,
                    std::string& out) {
  GameText text;
  std::string movetext;
  std::string result = game.result;
  if (copy == 0) {
    movetext = game.movetext;
    text.plies = uint32_t(game.moves.size());
  } else {
    SplitMix64 rng{seed ^ (index * 0xD1B54A32D192ED03ULL) ^ (copy * 0xABC98388FB8FAC03ULL) ^
                   (uint64_t(salt) * 0x8CB92BA72F3D8DD7ULL)};
    rng.next();
    const uint32_t plies = uint32_t(game.moves.size());
    const uint32_t branch = game.window_ply + rng.below(plies - game.window_ply);
    chess::Position pos = game.window_start;
    for (uint32_t i = game.window_ply; i < branch; ++i) pos.do_move(game.moves[i]);
    movetext.assign(game.movetext, 0, game.ply_offset[branch]);
    const uint32_t random_plies = 1 + rng.below(kMaxRandomPlies);
    uint32_t ply = branch;
    for (uint32_t i = 0; i < random_plies; ++i, ++ply) {
      const chess::MoveList legal = chess::legal_moves(pos);
      if (legal.empty()) break;
      uint32_t pick = rng.below(uint32_t(legal.size));
      if (i == 0 && legal.moves[pick] == game.moves[branch] && legal.size > 1) pick = (pick + 1) % legal.size;
      const chess::Move m = legal.moves[pick];
      const chess::Position after = pos.after(m);
      if (pos.side_to_move() == chess::WHITE) {
        movetext += std::to_string(pos.fullmove_number());
        movetext += ". ";
      }
      movetext += chess::to_san(pos, m, after);
      movetext += ' ';
      pos = after;
    }
    text.plies = ply;
    // A continuation that ends the game decides its result; otherwise the game keeps its own.
    if (chess::is_checkmate(pos)) result = pos.side_to_move() == chess::WHITE ? "0-1" : "1-0";
    else if (chess::is_stalemate(pos)) result = "1/2-1/2";
  }
  text.moves_hash = XXH3_64bits(movetext.data(), movetext.size());

  out += "[Event \"";
  if (copy == 0 || game.event != "?") out += game.event;  // "?" (unknown) becomes "vK", not "? vK"
  if (copy > 0) {
    if (game.event != "?") out += ' ';
    out += 'v';
    out += std::to_string(copy);
  }
  out += "\"]\n";
  out += game.roster;
  out += "[Result \"";
  out += result;
  out += "\"]\n";
  out += game.extra_tags;
  if (game.has_ply_count) {
    out += "[PlyCount \"";
    out += std::to_string(text.plies);
    out += "\"]\n";
  }
  out += '\n';
  movetext += result;
  append_wrapped(out, movetext);
  out += '\n';
  return text;
}

}  // namespace cqlindex::tools
