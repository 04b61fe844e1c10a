#pragma once
// A node of the bound, typed CQL tree that the parser builds and the evaluator walks.
//
// Every node has a kind, a value type, the source position of the token that introduced it, and
// kind-specific data: `text` (names, operators, literals), `a`/`b` (integers, ranges), `pieces` +
// `squares` (piece designators), `options` (keyword flags such as quiet, all, legal: node_option.h) and
// children, each tagged with a role (arg, left, right, body, from, to, ...: node_role.h).
// Ranges are children with role Low/High (Number or Variable). Transforms stay nodes (kind
// Transform, text = transform name) and are expanded by the evaluator, not at parse time.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/cql/node_kind.h"
#include "engine/cql/node_option.h"
#include "engine/cql/node_role.h"
#include "engine/cql/value_type.h"

namespace cqlindex::cql {

struct Node;
using NodePtr = std::unique_ptr<Node>;

// The deepest bound tree a query may have. Chains of one binary operator (`a and b and c ...`) are left-deep,
// one level per operator, and nesting ({ }, not, parentheses) adds levels. 1000 levels keep the recursive
// stages far inside the 8 MB stack of the main and worker threads (10,000 levels overflowed the planner's
// printer), while no written query comes near: CQL users nest a few levels, and even a generated list of
// alternatives (`player "A" or player "B" or ...`) stays in the hundreds.
constexpr uint32_t kMaxTreeDepth = 1000;

struct Child {
  Role role;
  NodePtr node;
};

struct Node {
  NodeKind kind;
  ValueType type = ValueType::Logical;
  int line = 0, column = 0;     // position of the introducing token
  std::string text;             // name / operator / literal
  int64_t a = 0, b = 0;         // integers (Number: a; BraceRep/SeqRepeat: a..b, b = -1 unbounded)
  uint64_t squares = ~uint64_t{0};
  uint16_t pieces = 0;          // PieceSet: piece_bits (0 = the squares themselves)
  int var = -1;                 // Variable / loops / Assign: index into Query::variables
  std::vector<Option> options;  // in the order written, or sorted by spelling where any order means the same
  // CurrentTransform inside an expanded orbit (eval/transform.cpp): the transforms applied, outermost first
  std::string applied_transforms;
  std::vector<Child> kids;
  // Levels of the subtree (1 for a leaf), kept by add(). Every stage after the parser (binding, compiling,
  // planning, evaluating, printing) walks the tree recursively, so add() refuses a tree deeper than
  // kMaxTreeDepth with a CqlError at this node's position.
  uint32_t height = 1;

  Node(NodeKind k, ValueType t) : kind(k), type(t) {}

  // True when the option was written.
  bool has(Option option) const;
  // As has(Option), for callers that spell the option (checked at compile time, node_option.h).
  bool has(OptionSpelling spelled) const { return has(spelled.option); }
  // The first child with this role, or nullptr.
  const Node* child(Role role) const;
  // The child added (n), after checking the tree's depth.
  Node* add(Role role, NodePtr n);
  // As add(Role, ...), for callers that spell the role (checked at compile time, node_role.h).
  Node* add(RoleSpelling spelled, NodePtr n) { return add(spelled.role, std::move(n)); }
  NodePtr clone() const;
  // The node with all its fields but no children.
  NodePtr copy_without_kids() const;
};

NodePtr make_node(NodeKind k, ValueType t, int line = 0, int column = 0);

// True for a capture dash, `[x]` or `×` (the lexer spells `×` as "[x]" and `――` as "--").
bool is_capture_dash(const Node& dash);

}  // namespace cqlindex::cql
