// Popeye solution text ("1.Sf2-g4 + !  1...Kg2-f1  2.Rg8-a8 threat: ...") -> a tree of textual moves, the way
// YACPDB builds its solution tree (research/yacpdb.md 2.2): every half-move gets a depth ("n." = 2n, "n..." =
// 2n+1, an unnumbered move = previous + 1), twins are depth-1 nodes, and the flat list becomes a tree by depth
// alone, with a null node (a side-to-move flip) wherever a depth is skipped (threats, set play, series play).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cqlindex::yacpdb {

// One move as written. Squares are 0..63 (a1 = 0), -1 when not written (short algebraic "Nxe5" has no from).
struct TextMove {
  std::string piece;  // Popeye/SAN piece code in upper case ("S", "N", "EH"), empty for a pawn
  int from = -1, to = -1;
  int from_file = -1, from_rank = -1;  // short algebraic disambiguation ("Rbd1", "R1a3"), 0-based
  bool capture = false;
  std::string promotion;  // "Q", "S", "EH", ... empty when none
  int castle = 0;         // 1 = 0-0, 2 = 0-0-0
  bool en_passant = false;
  std::string check;       // "+", "#", "=" (stalemate) or empty
  std::string annotation;  // "!", "?", "!?", ...
  std::string extras;      // fairy effects in brackets, e.g. "[+wPf2]" (their presence means fairy play)
  std::string text;        // the token as written
};

// Popeye's board transforms (twinning "rotate 90", "mirror a1<-->h1", ...); rotate 90 takes a1 to h1.
enum class BoardTransform { Rotate90, Rotate180, Rotate270, MirrorA1H1, MirrorA1A8, MirrorA1H8, MirrorA8H1 };

// Returns `square` (0..63, a1 = 0) under `t`, as Popeye's transformSquare does.
int transformed_square(BoardTransform t, int square);

// A twin command as printed in the solution ("bRb4-->f3", "bKc3<-->bPf4", "+wSf8", "-wPe2", "rotate 90",
// "mirror a1<-->h8", "shift a1 ==> b3", "PolishType", "Imitator c5 d6").
struct TwinCommand {
  enum class Kind { Move, Exchange, Add, Remove, Transform, Shift, Other, PolishType, Imitator } kind = Kind::Other;
  BoardTransform transform = BoardTransform::Rotate90;  // Transform
  // Shift: every piece moves by the vector from `from` to `to`.
  // PolishType: every white piece turns black and every black one white, on its square (Popeye's
  // total_side_exchange; neutral pieces stay neutral).
  // Imitator: the imitators now stand on `squares` (a fairy condition: Popeye writes "Imitator c5").
  std::vector<int> squares;
  char color = 'w';   // of the piece (Move/Add/Remove), 'w'/'b'/'n'
  std::string piece;  // Popeye code, upper case
  int from = -1, to = -1;
  char color2 = 'w';  // Exchange: the second piece
  std::string piece2;
  std::string text;  // as written
};

struct SolutionNode {
  enum class Kind { Root, Twin, Move, Null } kind = Kind::Move;
  int depth = 0;
  TextMove move;                // Kind::Move
  std::string twin_label;       // Kind::Twin: "a", "b", ...
  bool twin_continued = false;  // "+b)": applies to the previous twin, not to the diagram
  std::vector<TwinCommand> twin_commands;
  std::string comment;       // {text} following the node
  int line = 0, column = 0;  // position in the solution text (1-based)
  std::vector<std::unique_ptr<SolutionNode>> children;
};

struct SolutionParse {
  std::unique_ptr<SolutionNode> root;  // Root -> Twin(s) -> moves; a virtual twin "a" when none is written
  std::optional<std::string> error;    // "line:col: message" for the first thing not understood
  bool has_twins = false;              // twin labels were written
};

// The textual tree of a solution text. Never throws: what cannot be read is reported in error, and root then
// holds what was read before it.
SolutionParse parse_solution_text(std::string_view text);

// Number of nodes under (and including) n.
size_t node_count(const SolutionNode& n);

}  // namespace cqlindex::yacpdb
