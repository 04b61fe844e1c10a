// The real games a scale repository is made of: read once from PGN files, kept in memory in the compact form
// the variation step needs (rendered tags, mainline moves, SAN movetext with a byte offset per ply).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/chess/position.h"
#include "engine/chess/types.h"

namespace cqlindex::tools {

// How many of the last plies of a game a variation may start from.
constexpr uint32_t kVariationWindow = 12;

struct SourceGame {
  std::string event;        // the Event tag's value as written (escapes kept)
  std::string roster;       // `[Site ...]` .. `[Black ...]` lines (Seven Tag Roster minus Event and Result)
  std::string extra_tags;   // every other tag line except Result and PlyCount, in file order
  bool has_ply_count = false;  // the game had a PlyCount tag (a variation writes its own count)
  std::string result;       // "1-0", "0-1", "1/2-1/2" or "*"
  std::vector<chess::Move> moves;   // the mainline
  std::string movetext;     // "1. e4 e5 2. Nf3 ..." without the result
  std::vector<uint32_t> ply_offset;  // byte in movetext where ply i's token (with its move number) starts
  chess::Position window_start;      // the position before ply window_ply
  uint32_t window_ply = 0;           // max(0, plies - kVariationWindow)
};

struct SourceStats {
  uint64_t read = 0;        // games read
  uint64_t unusable = 0;    // errors, FEN starts, variants, null moves, no moves
  uint64_t duplicates = 0;  // the same game text as an earlier source game
};

// Appends the usable games of a PGN file to `games` (standard start, legal mainline, at least one move);
// false and a message in *error when the file cannot be read.
bool read_source_games(const std::string& path, unsigned threads, std::vector<SourceGame>& games,
                       SourceStats& stats, std::string* error);

}  // namespace cqlindex::tools
