#include "engine/yacpdb/trajectory.h"

#include <algorithm>
#include <set>

namespace cqlindex::yacpdb {

namespace {

using chess::Piece;

struct Pattern {
  PredicateId id;
  std::vector<std::pair<int, int>> offsets;  // (file, rank) steps, rank up
};

const std::vector<Pattern>& star_patterns() {
  static const std::vector<Pattern> patterns = {
      {PredicateId::Star, {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}},
      {PredicateId::BigStar, {{2, 2}, {2, -2}, {-2, 2}, {-2, -2}}},
      {PredicateId::Cross, {{0, 1}, {0, -1}, {-1, 0}, {1, 0}}},
      {PredicateId::BigCross, {{0, 2}, {0, -2}, {-2, 0}, {2, 0}}},
      {PredicateId::Wheel, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}},
      // the guide's vectors have y pointing to rank 8 (research 2.6): White's pawn moves and Black's
      {PredicateId::Albino, {{-1, 1}, {1, 1}, {0, 1}, {0, 2}}},
      {PredicateId::Pickaninny, {{-1, -1}, {1, -1}, {0, -1}, {0, -2}}},
  };
  return patterns;
}

bool is_corner(int sq) { return sq == 0 || sq == 7 || sq == 56 || sq == 63; }

// All squares of s lie on one straight line (the line through the first two).
bool collinear(const std::vector<int>& s) {
  if (s.size() < 3) return true;
  int x0 = s[0] % 8, y0 = s[0] / 8, dx = s[1] % 8 - x0, dy = s[1] / 8 - y0;
  for (int sq : s)
    if ((sq % 8 - x0) * dy - (sq / 8 - y0) * dx != 0) return false;
  return true;
}

struct Walk {
  std::vector<int> squares;
  std::vector<Piece> pieces;
  std::vector<bool> captures;
};

void add(std::map<Instance, int64_t>& counts, PredicateId id, std::vector<std::string> args) {
  ++counts[Instance{id, std::move(args), 0}];
}

// The greedy closed-walk scan of research 4.3 over w[from..to]; generic walks are reported only at the top
// level (`closed_walks`), and their inside is scanned again for the special kinds.
void scan_walk(const Walk& w, size_t from, size_t to, bool closed_walks, std::map<Instance, int64_t>& counts) {
  size_t i = from;
  while (i <= to) {
    size_t j = i;
    for (size_t k = to; k > i; --k)
      if (w.squares[k] == w.squares[i]) {
        j = k;
        break;
      }
    if (j == i) {
      ++i;
      continue;
    }
    bool cap = false;
    for (size_t k = i + 1; k <= j; ++k) cap = cap || w.captures[k];  // only the walk's own moves (decision 6.2)
    std::string type = piece_text(w.pieces[i]), len, c = cap ? "true" : "false";
    bool palindrome = true;
    for (size_t a = i, b = j; a < b && palindrome; ++a, --b) palindrome = w.squares[a] == w.squares[b];
    std::vector<int> body(w.squares.begin() + i, w.squares.begin() + j);
    std::set<int> distinct(body.begin(), body.end());
    if (palindrome) {
      add(counts, PredicateId::TraceBack, {type, std::to_string((j - i) / 2), c});
    } else if (distinct.size() == body.size()) {
      add(counts, collinear(body) ? PredicateId::LinearCycle : PredicateId::ArealCycle,
          {type, std::to_string(j - i), c});
    } else {
      // a generic closed walk; the special walks inside it (without its final return) are reported too, as
      // upstream's test expects LinearCycle(wB, 3) inside ClosedWalk(wB, 7)
      if (closed_walks) add(counts, PredicateId::ClosedWalk, {type, std::to_string(j - i), c});
      scan_walk(w, i, j - 1, false, counts);
    }
    i = j + 1;
  }
}

}  // namespace

std::string piece_text(Piece p) {
  static const char codes[] = "?PSBRQK";
  std::string s(1, chess::color_of(p) == chess::WHITE ? 'w' : 'b');
  s += codes[chess::type_of(p) < 7 ? chess::type_of(p) : 0];
  return s;
}

int Trajectories::add_root(int square, Piece piece, int /*unit*/) {
  nodes_.push_back(TrajectoryNode{square, piece, false, -1, 0, {}});
  roots_.push_back(static_cast<int>(nodes_.size()) - 1);
  return roots_.back();
}

int Trajectories::add_child(int parent, int square, Piece piece, bool capture) {
  int index = static_cast<int>(nodes_.size());
  nodes_.push_back(TrajectoryNode{square, piece, capture, parent, nodes_[parent].depth + 1, {}});
  nodes_[parent].children.push_back(index);
  return index;
}

void Trajectories::find_instances(std::map<Instance, int64_t>& counts) const {
  for (size_t n = 0; n < nodes_.size(); ++n) {
    const TrajectoryNode& t = nodes_[n];
    // walks end at trajectory leaves
    if (t.children.empty() && t.depth > 0) {
      Walk w;
      for (int k = static_cast<int>(n); k >= 0; k = nodes_[k].parent) {
        w.squares.push_back(nodes_[k].square);
        w.pieces.push_back(nodes_[k].piece);
        w.captures.push_back(nodes_[k].capture);
      }
      std::reverse(w.squares.begin(), w.squares.end());
      std::reverse(w.pieces.begin(), w.pieces.end());
      std::reverse(w.captures.begin(), w.captures.end());
      scan_walk(w, 0, w.squares.size() - 1, true, counts);
    }
    // the Star family around this node
    if (t.children.size() >= 4) {
      std::set<int> next;
      for (int c : t.children) next.insert(nodes_[c].square);
      for (const Pattern& p : star_patterns()) {
        bool all = true;
        for (auto [dx, dy] : p.offsets) {
          int f = t.square % 8 + dx, r = t.square / 8 + dy;
          all = all && f >= 0 && f < 8 && r >= 0 && r < 8 && next.count(r * 8 + f);
        }
        if (all) add(counts, p.id, {piece_text(t.piece)});
      }
    }
    // CornerToCorner: arriving on a corner after having visited another one on this line
    if (t.depth > 0 && is_corner(t.square)) {
      for (int k = t.parent; k >= 0; k = nodes_[k].parent)
        if (is_corner(nodes_[k].square) && nodes_[k].square != t.square) {
          add(counts, PredicateId::CornerToCorner, {piece_text(nodes_[k].piece)});
          break;
        }
    }
    // Excelsior: a pawn's promotion after `depth` moves
    if (t.depth > 0 && chess::type_of(nodes_[t.parent].piece) == chess::PAWN && chess::type_of(t.piece) != chess::PAWN)
      add(counts, PredicateId::Excelsior, {piece_text(t.piece), std::to_string(t.depth)});
  }
  // FourCorners: a unit's whole trajectory tree visits the four corners
  for (int root : roots_) {
    if (nodes_[root].children.empty()) continue;
    int corners = 0;
    std::vector<int> stack = {root};
    while (!stack.empty()) {
      int k = stack.back();
      stack.pop_back();
      int sq = nodes_[k].square;
      if (sq == 0) corners |= 1;
      if (sq == 7) corners |= 2;
      if (sq == 56) corners |= 4;
      if (sq == 63) corners |= 8;
      for (int c : nodes_[k].children) stack.push_back(c);
    }
    if (corners == 15) add(counts, PredicateId::FourCorners, {piece_text(nodes_[root].piece)});
  }
}

}  // namespace cqlindex::yacpdb
