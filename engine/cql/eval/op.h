#pragma once
// The executable form of a CQL query: the bound tree (node.h) compiled into Ops whose sub-kinds are
// resolved to enums once per query, so that evaluation never compares strings. Transforms are already
// expanded (transform.h): an Orbit op holds the distinct transformed images of its body.
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "engine/text/regex.h"

#include "engine/cql/value_type.h"

namespace cqlindex::cql::similar {
class SubmissionDb;
}

namespace cqlindex::cql::eval {

class SquarePattern;

enum class OpCode : uint8_t {
  // literals
  Number, String, Squares, PieceSet, True, False,
  // logic
  Compound, And, Or, Not, If,
  // sets
  Union, Intersect, Complement, Subset, StringIn, Attacks, AttackedBy, Between, Ray, Pin, LightDark,
  Direction, FromSquare, ToSquare, SquareLoop, PieceLoop, PieceAssign, PawnStructure,
  // numbers, comparison
  Arithmetic, Negate, Relation, SetEquality, CountSquares, StringLength, Abs, MinMax, Power, Concat,
  // position state
  Check, Mate, Stalemate, Wtm, Btm, Initial, Terminal, MainlineP, VariationP,
  Ply, MoveNumber, PositionId, GameNumber, SideToMove, Year, Depth,
  Result, TagValue, Player, Elo, PastMove, Fen,
  // positions
  CurrentPosition, InitialPosition, Parent, WithPosition,
  // moves and sequences
  Move, Dash, LegalDash, CountMoves, Line, SeqFilter, SeqChain, SeqRepeat,
  // variables
  Variable, Assign,
  // transforms, output, hooks
  Orbit, Comment, SimilarPosition, Find,
  // piece attributes, strings
  PieceType, Coordinate, RegexMatch, OriginalComment, Sort,
  OriginalNag,
  GenericEqual,  // equal(x y): both have a value, of one type, and the same one  // originalcomment "!" (a NAG's glyph or "$N"): the move leading here has the NAG $a
  // language (eval_control.cpp, eval_assign.cpp, eval_dictionary.cpp, eval_strings.cpp)
  FunctionCall, Loop, While, Assert, Unbind, IsBound, OpAssign, DictGet, DictAssign, DictIterate, DictCount,
  DictUnbind, GroupRef, Substring, SubstringAssign, IndexOf, CaseConvert, StringToInt, Ascii, ToString, ReadFile,
  WriteFile, Message, Sqrt, SetTag,
  Path, PathInfo, PathCount, PathCountUnfocused,  // path (eval_path.cpp)
  // echo and position navigation, piece names (eval_echo.cpp)
  Echo, PositionIntersect, PositionOrder, Lca, Distance, Child, Try, PieceName, PieceId, MakeSquare,
  PositionById, ConsecutiveMoves,
  CountCompare,  // speed: `#designator <relation> number` in one step (eval_count_compare.cpp)
  MatePurity,  // mates: puremate modelmate idealmate purestalemate modelstalemate idealstalemate (eval_mates.cpp)
  RemoveComment,  // removecomment: drops the input's comment at the position (eval_remove_comment.cpp)
  HhdbAward, HhdbCooked,  // hhdb: the award read from Event, "<cook" anywhere in the game (eval_hhdb.cpp)
  PathDebug,  // pathdebug: the state of the path search as a message line (eval_path.cpp)
  EnPassantSquare,  // enpassantsquare: the pawn captured en passant by the move that led here (eval_moves.cpp)
  // a literal (number, string, bare `fen`) or `lastgamenumber` matched as a position filter: CQL 6.2 stops the run
  // with op.text when it gets there (evaluator.cpp)
  RuntimeError,
  CurrentTransform,  // currenttransform: text = "<name>" of the transforms applied to this image
  LastGameNumber,    // lastgamenumber: a = the estimated number of games of the input (compile.cpp)
};

// The value of a sort: a number (a set counts its squares), or a string for a sort of a string. Sorts that share a
// description have one type, so two values of a sort always hold the same alternative.
using SortValue = std::variant<int64_t, std::string>;

// Sub-kinds carried in Op::sub.
enum ArithOp : uint8_t { kAdd, kSub, kMul, kDiv, kMod };
enum RelOp : uint8_t { kLt, kLe, kGt, kGe, kEq, kNe };
enum PastMoveKind : uint8_t { kCastle, kOO, kOOO, kEnPassant, kNullMove, kPrimary, kSecondary };
enum PawnKind : uint8_t { kConnected, kIsolated, kDoubled, kPassed };
// Flags of `echo` in Op::sub. Speed: kEchoDescendants when its filter starts with `s ≺ t` or `s ≼ t`, kEchoLater
// when with `s < t` or `s <= t`.
enum EchoFlag : uint8_t { kEchoQuiet = 1, kEchoInAll = 2, kEchoDescendants = 4, kEchoLater = 8 };
enum MoveMode : uint8_t { kPlayed, kPrevious, kLegal, kPseudoLegal };
// Flags of `find` in Op::sub (eval_find.cpp).
enum FindFlag : uint8_t { kFindBackward = 1, kFindQuiet = 2, kFindAll = 4 };
// Flags of `line` in Op::sub (eval_line.cpp); its `quiet` is Op::flag.
enum LineFlag : uint8_t {
  kLineBackward = 1, kLinePrimary = 2, kLineFirstMatch = 4, kLineSingleColor = 8, kLineLastPosition = 16,
  kLineSecondary = 32, kLineNestBan = 64
};
// Flags of `consecutivemoves` in Op::sub (eval_echo.cpp).
enum ConsecutiveMovesFlag : uint8_t { kConsecutiveMovesQuiet = 1 };
// The set a `pin` yields, in Op::sub: the one named first (eval_sets.cpp).
enum PinValue : uint8_t { kPinFrom, kPinThrough, kPinTo };
// The purity a MatePurity op asks for, in Op::sub; Op::flag: a stalemate (eval_mates.cpp).
enum MatePurity : uint8_t { kMatePure, kMateModel, kMateIdeal };
// The award an `hhdb` award form asks for, in Op::sub (eval_hhdb.cpp).
enum HhdbAwardKind : uint8_t { kHhdbAnyAward, kHhdbPrize, kHhdbHonourableMention, kHhdbCommendation };
// Flags of `move` in Op::b.
// Options of `path` in Op::pieces.
enum PathFlag : uint16_t {
  kPathPrimary = 1, kPathFirstMatch = 2, kPathKeepAllBest = 4, kPathNestBan = 8, kPathPiecePath = 16,
  kPathVerbose = 32, kPathQuiet = 64, kPathFocusCapture = 128, kPathSingleColor = 256
};
enum MoveFlag : int64_t {
  kMoveCastle = 1, kMoveOO = 2, kMoveOOO = 4, kMoveEnPassant = 8, kMoveNull = 16, kMovePrimary = 32,
  kMoveSecondary = 64, kMoveCount = 128
};

struct Op {
  OpCode code;
  ValueType type = ValueType::Logical;
  uint8_t sub = 0;
  bool flag = false;          // code-specific: all (loops), capture (dash), min (MinMax), quiet (line) ...
  int64_t a = 0, b = 0;        // numbers, ranges (b = -1: unbounded)
  uint64_t squares = ~uint64_t{0};
  uint16_t pieces = 0;         // piece_bits (token.h)
  int var = -1;
  std::string text;
  // Children in a fixed order documented per op in compile.cpp; absent optional children are nullptr.
  std::vector<std::unique_ptr<Op>> kids;
  int line = 0, column = 0;
  std::shared_ptr<const text::Regex> regex;  // RegexMatch: compiled once per query
  // Range bounds that are numeric filters (a variable: CQL's "numeric variable as a range element"), read each time
  // the filter is; a and b hold the constant bounds. See range_holds (context.h).
  std::unique_ptr<Op> range_low, range_high;
  std::shared_ptr<const SquarePattern> pattern;  // Orbit: screens the images by their leading designators, or null
  const similar::SubmissionDb* submissions = nullptr;  // SimilarPosition: its database (EvalOptions::submissions)

  const Op* kid(size_t i) const { return i < kids.size() ? kids[i].get() : nullptr; }
};

using OpPtr = std::unique_ptr<Op>;

}  // namespace cqlindex::cql::eval
