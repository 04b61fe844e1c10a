#pragma once
// The role of a child in the bound CQL tree (Child::role), declared once with its spelling, which the canonical
// printer writes ("left=") and error messages quote. A role named wrongly is a compile error, not a silent miss.
#include <cstdint>
#include <string_view>

namespace cqlindex::cql {

#define CQL_NODE_ROLES(X)                                                                                   \
  /* operands */                                                                                            \
  X(Arg, "arg") X(Left, "left") X(Right, "right") X(Body, "body") X(Value, "value") X(Key, "key")           \
  X(Target, "target") X(Source, "source") X(Domain, "domain") X(Dictionary, "dictionary")                 \
  X(Position, "position") X(Comment, "comment")                                                             \
  /* if then else */                                                                                        \
  X(If, "if") X(Then, "then") X(Else, "else")                                                               \
  /* ranges (`low`/`high`: a Number or a numeric Variable) */                                              \
  X(Low, "low") X(High, "high")                                                                             \
  /* moves, pins, dashes */                                                                                 \
  X(From, "from") X(To, "to") X(Through, "through") X(Capture, "capture") X(Promote, "promote")             \
  X(EnPassantSquare, "enpassantsquare") X(Dash, "dash")                                                     \
  /* path, transforms */                                                                                    \
  X(Focus, "focus") X(Max, "max") X(Image, "image")

enum class Role : uint8_t {
#define X(name, spelling) name,
  CQL_NODE_ROLES(X)
#undef X
};

inline constexpr const char* kRoleNames[] = {
#define X(name, spelling) spelling,
    CQL_NODE_ROLES(X)
#undef X
};

// The role as the canonical printer and error messages spell it ("arg", "enpassantsquare", ...).
constexpr const char* role_name(Role r) { return kRoleNames[static_cast<uint8_t>(r)]; }

// A role written as its spelling, checked while compiling: `add("arg", ...)` is `add(Role::Arg, ...)`, and a
// spelling that names no role does not compile. Kept for callers outside engine/cql that still spell roles.
struct RoleSpelling {
  Role role;
  consteval RoleSpelling(const char* spelling) : role(Role{}) {
    for (uint8_t i = 0; i < sizeof kRoleNames / sizeof kRoleNames[0]; ++i)
      if (std::string_view(kRoleNames[i]) == spelling) {
        role = static_cast<Role>(i);
        return;
      }
    throw "not the spelling of any cql::Role";  // consteval: a compile error
  }
};

}  // namespace cqlindex::cql
