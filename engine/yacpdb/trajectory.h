// Trajectory trees of the units of a solution (research/yacpdb.md 4.3): for each unit, the squares it arrives
// on, branching where the lines of play branch, and the instances found on them: closed walks (TraceBack,
// LinearCycle, ArealCycle, ClosedWalk), the Star family, CornerToCorner, FourCorners, Excelsior.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/chess/types.h"
#include "engine/yacpdb/analysis.h"

namespace cqlindex::yacpdb {

// "wR", "bS" for a chess piece (Popeye letters: S is the knight).
std::string piece_text(chess::Piece p);

struct TrajectoryNode {
  int square = 0;
  chess::Piece piece = chess::NO_PIECE;  // the unit's type on arrival (a promoted pawn changes type)
  bool capture = false;                  // the arrival captured
  int parent = -1;
  int depth = 0;  // moves the unit made from its twin diagram to here
  std::vector<int> children;
};

class Trajectories {
 public:
  // A unit standing on `square` in a twin's diagram; returns its trajectory root.
  int add_root(int square, chess::Piece piece, int unit);
  // The unit's arrival on `square` after its trajectory node `parent`.
  int add_child(int parent, int square, chess::Piece piece, bool capture);
  const TrajectoryNode& node(int i) const { return nodes_[i]; }

  // Adds every instance found on the trajectory trees to counts.
  void find_instances(std::map<Instance, int64_t>& counts) const;

 private:
  std::vector<TrajectoryNode> nodes_;
  std::vector<int> roots_;
};

}  // namespace cqlindex::yacpdb
