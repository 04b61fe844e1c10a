// From an entry's piece list to a chess position: orthodoxy checks, side to move, twin commands.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/position.h"
#include "engine/yacpdb/entry.h"
#include "engine/yacpdb/solution_text.h"

namespace cqlindex::yacpdb {

// K, Q, R, B, S, P: the Popeye codes of the orthodox pieces.
bool is_orthodox_code(std::string_view code);

// The side that makes the first move of the solution: Black for help play ("h#2", "h=3", "ser-h#5"), White
// otherwise (research/yacpdb.md 2.1). Help-self play ("hs#3") starts with White.
chess::Color first_mover(std::string_view stipulation);

// True when an entry has fairy elements: a piece that is not orthodox, a neutral piece, piece specs, or an
// option that is a fairy condition rather than a solving option (SetPlay, Defence, Try, ...).
bool is_fairy(const Entry& e);

// The first option of e that is a fairy condition, or empty.
std::string fairy_condition(const Entry& e);

// The position of an orthodox piece list with `side` to move; castling rights where king and rook stand on
// their initial squares (Popeye's default); an en-passant square only when `en_passant` names one (Popeye's
// option "EnPassant f3": the square passed over, or the pawn's square). nullopt and *why when the list is not
// orthodox or not a legal setup.
std::optional<chess::Position> diagram_position(const std::vector<DiagramPiece>& pieces, chess::Color side,
                                                std::string* why, int en_passant = -1);

// The square of an entry's "EnPassant xx" option, or -1.
int en_passant_option(const Entry& e);

// Applies a twin command (as printed in a solution: move, exchange, add, remove, rotate, mirror, shift,
// PolishType; Imitator leaves the pieces as they are) to a piece list; false and *why for commands we cannot
// apply (condition changes, a shift off the board, a command that does not fit the position).
bool apply_twin_command(std::vector<DiagramPiece>& pieces, const TwinCommand& command, std::string* why);

}  // namespace cqlindex::yacpdb
