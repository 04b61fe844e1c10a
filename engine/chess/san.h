// Standard Algebraic Notation in and out (plus UCI long algebraic and null-move forms in).
#pragma once

#include <string>
#include <string_view>

#include "engine/chess/position.h"

namespace cqlindex::chess {

enum class SanError { None, Syntax, Illegal, Ambiguous };

// Short name of an error kind ("syntax", "illegal", "ambiguous", "none").
const char* san_error_name(SanError e);

// Resolves a move token written in SAN (lenient: N1c3, Ng1e2, e8Q, e8(Q), exd6 e.p., 0-0, o-o, ':' captures,
// annotation suffixes), UCI (g1f3, e1g1, e1h1, d7d8r) or null-move forms (--, Z0, 0000, @@@@).
// Returns Move::none() and sets *error on failure; a null move is returned as Move::null().
// Does not generate the full move list: origins come from reverse attacks on the destination.
Move parse_move(const Position& pos, std::string_view token, SanError* error = nullptr);

// SAN of a legal move with minimal disambiguation, =Q promotion, O-O/O-O-O, and a +/# suffix;
// "--" for a null move.
std::string to_san(const Position& pos, Move m);
// The same when the position after the move is at hand (`after` = pos.after(m)): saves replaying it.
std::string to_san(const Position& pos, Move m, const Position& after);
// The longest SAN: "Qa1xb2+" or "exd8=Q#".
constexpr size_t kMaxSanBytes = 7;
// Writes to_san(pos, m, after) into `san` (kMaxSanBytes at most) and returns its length.
size_t write_san(const Position& pos, Move m, const Position& after, char* san);

}  // namespace cqlindex::chess
