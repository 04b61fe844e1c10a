#include "engine/yacpdb/solution_tree.h"

namespace cqlindex::yacpdb {

int32_t SolutionTree::add(int32_t parent, TreeNode node) {
  node.parent = parent;
  int32_t index = static_cast<int32_t>(nodes.size());
  nodes.push_back(std::move(node));
  if (parent >= 0) nodes[parent].children.push_back(index);
  return index;
}

int SolutionTree::twin_count() const {
  int n = 0;
  for (const TreeNode& node : nodes) n += node.kind == TreeNode::Kind::Twin;
  return n;
}

}  // namespace cqlindex::yacpdb
