#include "engine/yacpdb/analysis.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "engine/chess/movegen.h"
#include "engine/yacpdb/diagram.h"
#include "engine/yacpdb/finale.h"
#include "engine/yacpdb/solution_text.h"
#include "engine/yacpdb/trajectory.h"
#include "engine/yacpdb/zilahi.h"

namespace cqlindex::yacpdb {

namespace {

using namespace chess;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Walks every line of the solution tree following the units, building their trajectories, and finds the
// Platzwechsel, Zilahi and HundredDollar facts that need whole lines.
class TreeWalker {
 public:
  TreeWalker(const Problem& problem, Trajectories& traj, std::map<Instance, int64_t>& counts)
      : p_(problem), t_(problem.tree), traj_(traj), counts_(counts) {}

  void run() {
    for (int32_t twin : t_.root().children) {
      State s;
      s.id_on.fill(-1);
      const TreeNode& tw = t_.nodes[twin];
      for (int sq = 0; sq < 64; ++sq) {
        if (tw.position.empty(Square(sq))) continue;
        int id = tw.origins.empty() ? sq : tw.origins[sq];
        if (id < 0) id = 10000 + sq;  // defensive: a piece without identity
        s.id_on[sq] = id;
        s.traj_at[id] = traj_.add_root(sq, tw.position.piece_on(Square(sq)), id);
      }
      path_.clear();
      line_.clear();
      walk(twin, s);
    }
  }

  const std::vector<FinaliserLeaf>& finaliser_leaves() const { return leaves_; }

 private:
  struct State {
    std::array<int, 64> id_on;      // unit on each square
    std::map<int, int> traj_at;     // unit -> its current trajectory node
    std::vector<Capture> captured;  // on the line so far
  };
  // What a real move did, for the Platzwechsel search: the units before it and the units it displaced.
  struct PathMove {
    std::array<int, 64> before;
    std::vector<int> movers;
    std::vector<int> square_of;  // the square of each unit id in `before` (-1: not on the board)
  };
  // Returns the path entry of a move made from the units `before`.
  static PathMove path_move(const std::array<int, 64>& before, std::vector<int> movers) {
    PathMove pm{before, std::move(movers), {}};
    for (int sq = 0; sq < 64; ++sq)
      if (before[sq] >= 0) {
        if (static_cast<size_t>(before[sq]) >= pm.square_of.size()) pm.square_of.resize(before[sq] + 1, -1);
        pm.square_of[before[sq]] = sq;
      }
    return pm;
  }
  struct LineMove {
    int mover;
    Piece piece_before, piece_after;
    bool null;
  };

  const Problem& p_;
  const SolutionTree& t_;
  Trajectories& traj_;
  std::map<Instance, int64_t>& counts_;
  std::vector<PathMove> path_;
  std::vector<int> sq_now_;  // platzwechsel's tables, kept to reuse their memory
  std::vector<char> done_;
  std::vector<LineMove> line_;
  std::vector<FinaliserLeaf> leaves_;
  std::set<std::string> finales_;  // final positions seen (Models counts each once)

  void add(PredicateId id, std::vector<std::string> args) { ++counts_[Instance{id, std::move(args), 0}]; }

  void walk(int32_t n, const State& s) {
    const TreeNode& node = t_.nodes[n];
    if (node.children.empty() && node.kind == TreeNode::Kind::Move) finaliser(node, s);
    for (int32_t c : node.children) {
      const TreeNode& child = t_.nodes[c];
      State s2 = s;
      if (child.kind == TreeNode::Kind::Null) {
        line_.push_back({-1, NO_PIECE, NO_PIECE, true});
        walk(c, s2);
        line_.pop_back();
        continue;
      }
      const Position& before = node.position;
      const Position& after = child.position;
      Move m = child.move;
      std::vector<std::pair<int, Square>> displaced;  // unit, destination
      int mover = s.id_on[m.from()];
      bool captured = false;
      if (m.kind() == CASTLING) {
        int rook = s.id_on[m.to()];
        s2.id_on[m.from()] = -1;
        s2.id_on[m.to()] = -1;
        Square kto = Position::castling_king_to(m), rto = Position::castling_rook_to(m);
        s2.id_on[kto] = mover;
        s2.id_on[rto] = rook;
        displaced = {{mover, kto}, {rook, rto}};
      } else {
        Square cap = m.kind() == EN_PASSANT ? Square(m.to() - pawn_push(before.side_to_move())) : m.to();
        if (s.id_on[cap] >= 0) {
          int victim = s.id_on[cap];
          captured = true;
          auto it = s.traj_at.find(victim);
          bool unmoved = it == s.traj_at.end() || traj_.node(it->second).depth == 0;
          s2.captured.push_back({victim, piece_text(before.piece_on(cap)), unmoved});
          s2.id_on[cap] = -1;
          s2.traj_at.erase(victim);
        }
        s2.id_on[m.from()] = -1;
        s2.id_on[m.to()] = mover;
        displaced = {{mover, m.to()}};
      }
      std::vector<int> movers;
      for (auto [id, sq] : displaced) {
        movers.push_back(id);
        auto it = s2.traj_at.find(id);
        int parent = it == s2.traj_at.end() ? -1 : it->second;
        if (parent < 0) continue;
        s2.traj_at[id] = traj_.add_child(parent, sq, after.piece_on(sq), captured && id == mover);
      }
      platzwechsel(s2.id_on, movers, after);
      path_.push_back(path_move(s.id_on, movers));
      line_.push_back({mover, before.piece_on(m.from()),
                       after.piece_on(m.kind() == CASTLING ? Position::castling_king_to(m) : m.to()), false});
      walk(c, s2);
      line_.pop_back();
      path_.pop_back();
    }
  }

  // PW: the units now (after this move) against the units before each earlier move of the line.
  void platzwechsel(const std::array<int, 64>& now, const std::vector<int>& movers2, const Position& after) {
    // Flat tables indexed by unit id (ids are small: squares, or 64 per twin above them); this runs at every
    // node against every earlier move of its line, so no maps.
    int max_id = -1;
    for (int id : now) max_id = std::max(max_id, id);
    const size_t n = static_cast<size_t>(max_id + 1);
    auto on_board_now = [&](int id) { return id >= 0 && id <= max_id && sq_now_[id] >= 0; };
    sq_now_.assign(n, -1);
    std::vector<int> ids;  // units on the board now, in id order
    for (int sq = 0; sq < 64; ++sq)
      if (now[sq] >= 0) {
        sq_now_[now[sq]] = sq;
        ids.push_back(now[sq]);
      }
    std::sort(ids.begin(), ids.end());
    for (const PathMove& pm : path_) {
      done_.assign(n, 0);
      for (int id : ids) {
        const int sq_before = static_cast<size_t>(id) < pm.square_of.size() ? pm.square_of[id] : -1;
        if (done_[id] || sq_before < 0 || sq_before == sq_now_[id]) continue;
        // follow p -> the unit that stood (before) where p stands now
        std::vector<int> cycle;
        int cur = id;
        bool closed = false;
        for (int guard = 0; guard < 64; ++guard) {
          cycle.push_back(cur);
          int next = pm.before[sq_now_[cur]];
          if (!on_board_now(next)) break;
          if (next == id) {
            closed = true;
            break;
          }
          if (std::find(cycle.begin(), cycle.end(), next) != cycle.end()) break;
          cur = next;
        }
        if (!closed) continue;
        for (int m : cycle) done_[m] = 1;
        auto has = [&](const std::vector<int>& ms) {
          return std::any_of(ms.begin(), ms.end(),
                             [&](int m) { return std::find(cycle.begin(), cycle.end(), m) != cycle.end(); });
        };
        if (cycle.size() < 2 || !has(pm.movers) || !has(movers2)) continue;
        add(PredicateId::PW, {std::to_string(cycle.size())});
        for (int m : cycle) add(PredicateId::PWPiece, {piece_text(after.piece_on(Square(sq_now_[m])))});
      }
    }
  }

  void finaliser(const TreeNode& leaf, const State& s) {
    if (!is_checkmate(leaf.position) && !is_stalemate(leaf.position)) return;
    Square to = leaf.move.kind() == CASTLING ? Position::castling_king_to(leaf.move) : leaf.move.to();
    leaves_.push_back({s.id_on[to], s.captured});
    hundred_dollar(leaf);
    // Models: once per distinct final position (placement + side to move), research 4.3 / decision 6.2
    std::string fen = leaf.position.fen();
    std::string key = fen.substr(0, fen.find(' ', fen.find(' ') + 1));
    if (!finales_.insert(key).second) return;
    if (auto f = model_finale(leaf.position))
      add(PredicateId::Models, {std::to_string(f->pins), f->ideal ? "true" : "false"});
  }

  // h#5 where one black pawn makes all black moves and one white pawn all white moves, both promoting to
  // knights, the white one mating.
  void hundred_dollar(const TreeNode& leaf) {
    if (lower(p_.entry.stipulation) != "h#5" || line_.size() != 10 || !is_checkmate(leaf.position)) return;
    for (int side = 0; side < 2; ++side) {
      int unit = line_[side].mover;
      for (size_t i = side; i < 10; i += 2) {
        const LineMove& lm = line_[i];
        if (lm.null || lm.mover != unit || type_of(lm.piece_before) != PAWN) return;
      }
      if (type_of(line_[8 + side].piece_after) != KNIGHT) return;
    }
    add(PredicateId::HundredDollar, {});
  }
};

bool is_help_play(std::string_view stipulation) {
  std::string s = lower(stipulation);
  return s.rfind("h", 0) == 0 || s.rfind("ser-h", 0) == 0;
}

// Phases: per twin the distinct first moves; when a twin's only first move is a null (set play only), the
// distinct moves after it.
int64_t phases(const SolutionTree& t) {
  int64_t total = 0;
  for (int32_t twin : t.root().children) {
    std::vector<uint16_t> firsts;
    for (int32_t c : t.nodes[twin].children) firsts.push_back(t.nodes[c].move.raw());
    std::sort(firsts.begin(), firsts.end());
    firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
    if (firsts.size() == 1 && firsts[0] == Move::null().raw()) {
      std::vector<uint16_t> after;
      for (int32_t c : t.nodes[twin].children)
        for (int32_t g : t.nodes[c].children) after.push_back(t.nodes[g].move.raw());
      std::sort(after.begin(), after.end());
      after.erase(std::unique(after.begin(), after.end()), after.end());
      total += static_cast<int64_t>(after.size());
    } else {
      total += static_cast<int64_t>(firsts.size());
    }
  }
  return total;
}

// Phases read from the solution text, for entries whose tree cannot be replayed (fairy play): moves are told
// apart by what is written (piece, squares, promotion, castling).
int64_t phases_from_text(const SolutionParse& parse) {
  auto key = [](const SolutionNode& n) {
    if (n.kind == SolutionNode::Kind::Null) return std::string("~");
    const TextMove& m = n.move;
    return m.piece + "|" + std::to_string(m.from) + "|" + std::to_string(m.to) + "|" + m.promotion + "|" +
           std::to_string(m.castle);
  };
  int64_t total = 0;
  for (const auto& twin : parse.root->children) {
    std::set<std::string> firsts;
    for (const auto& c : twin->children) firsts.insert(key(*c));
    if (firsts.size() == 1 && *firsts.begin() == "~") {
      std::set<std::string> after;
      for (const auto& c : twin->children)
        for (const auto& g : c->children) after.insert(key(*g));
      total += static_cast<int64_t>(after.size());
    } else {
      total += static_cast<int64_t>(firsts.size());
    }
  }
  return total;
}

}  // namespace

Analysis analyse(const Problem& problem, const AnalysisLimits& limits) {
  Analysis a;
  std::map<Instance, int64_t> counts;
  const SolutionTree& t = problem.tree;
  int64_t twins = t.complete ? t.twin_count() : static_cast<int64_t>(problem.entry.twins.size()) + 1;
  counts[Instance{PredicateId::Twins, {}, 0}] = std::max<int64_t>(twins, 1);
  if (t.complete) {
    if (t.nodes.size() > limits.max_nodes) {
      for (const PredicateInfo& info : all_predicates())
        if (info.kind == PredicateKind::Analysis && info.id != PredicateId::Twins) a.not_analysed.insert(info.id);
    } else {
      if (int64_t ph = phases(t)) counts[Instance{PredicateId::Phases, {}, 0}] = ph;
      Trajectories traj;
      TreeWalker walker(problem, traj, counts);
      walker.run();
      traj.find_instances(counts);
      if (!find_zilahi(walker.finaliser_leaves(), is_help_play(problem.entry.stipulation), counts)) {
        a.not_analysed.insert(PredicateId::Zilahi);
        a.not_analysed.insert(PredicateId::ZilahiPiece);
      }
    }
  } else {
    // Fairy play cannot be replayed by an orthodox engine: its orthodox-only predicates count 0 (research
    // 4.2). An orthodox solution that could not be replayed (a broken PGN game, an unreadable text) is
    // unknown instead: never a silent 0.
    if (!is_fairy(problem.entry))
      for (const PredicateInfo& info : all_predicates())
        if (info.kind == PredicateKind::Analysis && info.id != PredicateId::Twins) a.not_analysed.insert(info.id);
    SolutionParse parse = parse_solution_text(problem.entry.solution);
    bool readable = problem.entry.format == Entry::Format::Yaml && !parse.error;
    if (readable) {  // Phases supports fairy play: read it from the text
      a.not_analysed.erase(PredicateId::Phases);
      if (int64_t ph = phases_from_text(parse)) counts[Instance{PredicateId::Phases, {}, 0}] = ph;
    } else {
      a.not_analysed.insert(PredicateId::Phases);
    }
  }
  for (auto& [inst, count] : counts) {
    if (count <= 0) continue;
    Instance i = inst;
    i.count = count;
    a.instances.push_back(std::move(i));
  }
  return a;
}

}  // namespace cqlindex::yacpdb
