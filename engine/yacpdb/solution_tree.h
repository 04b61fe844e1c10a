// The solution tree the predicates analyse: legal moves from the diagram, twins as depth-1 nodes, null moves
// where a side passes (threats, set play, series play). Every node keeps the position it leads to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/chess/position.h"

namespace cqlindex::yacpdb {

struct TreeNode {
  enum class Kind : uint8_t { Root, Twin, Move, Null } kind = Kind::Move;
  chess::Move move = chess::Move::none();  // Kind::Move: the move; Kind::Null: Move::null()
  int32_t parent = -1;
  std::vector<int32_t> children;
  chess::Position position;  // after the move; a twin's diagram for Kind::Twin; the diagram for the root
  std::string label;         // Kind::Twin: "a", "b", ...
  // Kind::Twin: the identity of the piece on each square (-1 when empty). Diagram pieces are known by their
  // diagram square (0..63) in every twin, a piece added by a twin by 64 + 64 * twin number + square, so the
  // same unit can be followed across twins (YACPDB's "origin"). Empty means "identity = square".
  std::vector<int16_t> origins;
};

struct SolutionTree {
  std::vector<TreeNode> nodes;  // nodes[0] is the root; a twin for every twin (one virtual twin when none)
  // True when every move of the solution was replayed: only then do analysis predicates count anything.
  bool complete = false;
  std::string error;  // why not complete ("line:col: ..." in the solution text or the PGN game)

  const TreeNode& root() const { return nodes[0]; }
  // Adds a node under `parent` and returns its index.
  int32_t add(int32_t parent, TreeNode node);
  // Number of twin nodes.
  int twin_count() const;
};

}  // namespace cqlindex::yacpdb
