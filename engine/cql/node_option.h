#pragma once
// The keyword flags of a node of the bound CQL tree (Node::options), declared once with their spelling, which the
// printers write back and error messages quote. An option named wrongly is a compile error, not a silent miss.
#include <cstdint>
#include <optional>
#include <string_view>

namespace cqlindex::cql {

#define CQL_NODE_OPTIONS(X)                                                                                 \
  /* loops, find, echo, sort, messages */                                                                   \
  X(All, "all") X(InAll, "in all") X(Quiet, "quiet") X(Backward, "<--") X(Min, "min") X(Max, "max")         \
  X(Count, "count") X(Implicit, "implicit")                                                                 \
  /* variables, assignments, dictionaries */                                                                \
  X(Assign, "assign") X(Slice, "slice") X(Index, "index") X(Persistent, "persistent")                       \
  X(PersistentQuiet, "persistent quiet") X(Atomic, "atomic") X(Local, "local") X(Dictionary, "dictionary")   \
  X(Not, "not")                                                                                             \
  /* moves and dashes */                                                                                    \
  X(Legal, "legal") X(PseudoLegal, "pseudolegal") X(Previous, "previous") X(Castle, "castle") X(OO, "o-o")  \
  X(OOO, "o-o-o") X(EnPassant, "enpassant") X(Null, "null") X(Primary, "primary") X(Secondary, "secondary") \
  /* line and path */                                                                                       \
  X(SingleColor, "singlecolor") X(NestBan, "nestban") X(FirstMatch, "firstmatch")                           \
  X(LastPosition, "lastposition") X(Verbose, "verbose") X(KeepAllBest, "keepallbest")                       \
  X(FocusCapture, "focus capture") X(PiecePath, "piecepath")                                                \
  /* ray: `attack` or its directions */                                                                     \
  X(Attack, "attack") X(Up, "up") X(Down, "down") X(Left, "left") X(Right, "right")                         \
  X(NorthEast, "northeast") X(NorthWest, "northwest") X(SouthEast, "southeast") X(SouthWest, "southwest")   \
  X(Horizontal, "horizontal") X(Vertical, "vertical") X(Diagonal, "diagonal") X(Orthogonal, "orthogonal")   \
  X(MainDiagonal, "maindiagonal") X(OffDiagonal, "offdiagonal") X(AnyDirection, "anydirection")             \
  /* similarposition, hhdb */                                                                               \
  X(NoSort, "nosort") X(NoTransform, "notransform") X(Award, "award") X(Commendation, "commendation")        \
  X(Hm, "hm") X(Prize, "prize") X(Special, "special")

enum class Option : uint8_t {
#define X(name, spelling) name,
  CQL_NODE_OPTIONS(X)
#undef X
};

inline constexpr const char* kOptionNames[] = {
#define X(name, spelling) spelling,
    CQL_NODE_OPTIONS(X)
#undef X
};

// The option as CQL text and the printers spell it ("quiet", "o-o-o", "focus capture", ...).
constexpr const char* option_name(Option o) { return kOptionNames[static_cast<uint8_t>(o)]; }

// The option spelled so (a keyword read from the query: a direction, a castling, an hhdb award), if there is one.
std::optional<Option> option_named(std::string_view spelling);

// True when a's spelling sorts before b's: options written in any order are kept in this one.
bool option_spelled_before(Option a, Option b);

// An option written as its spelling, checked while compiling: `has("nosort")` is `has(Option::NoSort)`, and a
// spelling that names no option does not compile. Kept for callers outside engine/cql that still spell options.
struct OptionSpelling {
  Option option;
  consteval OptionSpelling(const char* spelling) : option(Option{}) {
    for (uint8_t i = 0; i < sizeof kOptionNames / sizeof kOptionNames[0]; ++i)
      if (std::string_view(kOptionNames[i]) == spelling) {
        option = static_cast<Option>(i);
        return;
      }
    throw "not the spelling of any cql::Option";  // consteval: a compile error
  }
};

}  // namespace cqlindex::cql
