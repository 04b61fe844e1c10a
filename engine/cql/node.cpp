// Node helpers: option and child look-up, deep copy, type, kind and option names.
#include "engine/cql/node.h"

#include "engine/cql/error.h"

namespace cqlindex::cql {

bool Node::has(Option option) const {
  for (Option o : options)
    if (o == option) return true;
  return false;
}

const Node* Node::child(Role role) const {
  for (const Child& c : kids)
    if (c.role == role) return c.node.get();
  return nullptr;
}

Node* Node::add(Role role, NodePtr n) {
  Node* raw = n.get();
  if (n && n->height + 1 > height) {
    if (n->height + 1 > kMaxTreeDepth)
      throw CqlError("filters nested too deeply (a query may have at most " + std::to_string(kMaxTreeDepth) +
                         " levels; each operator of a chain like 'a and b and c' counts as one)",
                     line, column);
    height = n->height + 1;
  }
  kids.push_back(Child{role, std::move(n)});
  return raw;
}

NodePtr Node::copy_without_kids() const {
  auto n = std::make_unique<Node>(kind, type);
  n->line = line;
  n->column = column;
  n->text = text;
  n->a = a;
  n->b = b;
  n->squares = squares;
  n->pieces = pieces;
  n->var = var;
  n->options = options;
  n->applied_transforms = applied_transforms;
  return n;
}

NodePtr Node::clone() const {
  NodePtr n = copy_without_kids();
  for (const Child& c : kids) n->kids.push_back(Child{c.role, c.node ? c.node->clone() : nullptr});
  n->height = height;
  return n;
}

NodePtr make_node(NodeKind k, ValueType t, int line, int column) {
  auto n = std::make_unique<Node>(k, t);
  n->line = line;
  n->column = column;
  return n;
}

const char* type_name(ValueType t) {
  switch (t) {
    case ValueType::Logical: return "logical";
    case ValueType::Set: return "set";
    case ValueType::Numeric: return "numeric";
    case ValueType::Position: return "position";
    case ValueType::String: return "string";
    case ValueType::Dictionary: return "dictionary";
  }
  return "?";
}

const char* kind_name(NodeKind k) {
  switch (k) {
#define X(name) \
  case NodeKind::name: return #name;
    CQL_NODE_KINDS(X)
#undef X
  }
  return "?";
}

std::optional<Option> option_named(std::string_view spelling) {
  for (uint8_t i = 0; i < sizeof kOptionNames / sizeof kOptionNames[0]; ++i)
    if (spelling == kOptionNames[i]) return static_cast<Option>(i);
  return std::nullopt;
}

bool option_spelled_before(Option a, Option b) { return std::string_view(option_name(a)) < option_name(b); }

bool is_capture_dash(const Node& dash) { return dash.text == "[x]"; }

}  // namespace cqlindex::cql
