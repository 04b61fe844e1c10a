#include "engine/yacpdb/zilahi.h"

#include <algorithm>
#include <functional>

namespace cqlindex::yacpdb {

namespace {

constexpr int kMaxFinaliserLeaves = 64;        // Zilahi: leaves whose cycles we enumerate
constexpr int64_t kMaxCycleSteps = 2'000'000;  // Zilahi: search steps before giving up

}  // namespace

bool find_zilahi(const std::vector<FinaliserLeaf>& leaves, bool help_play, std::map<Instance, int64_t>& counts) {
  if (static_cast<int>(leaves.size()) > kMaxFinaliserLeaves) return false;
  const int n = static_cast<int>(leaves.size());
  // edge i -> k when the finaliser of i is captured in k; the capture record of that unit in k
  std::vector<std::vector<std::pair<int, const Capture*>>> out(n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      if (i == k) continue;
      for (const Capture& c : leaves[k].captured)
        if (c.id == leaves[i].finaliser) {
          out[i].push_back({k, &c});
          break;
        }
    }
  auto piece_instance = [&](const Capture& c) {
    ++counts[Instance{PredicateId::ZilahiPiece, {c.type, c.unmoved ? "true" : "false"}, 0}];
  };
  std::vector<bool> in_cycle(n, false);
  int64_t steps = 0;
  std::vector<int> path;
  std::vector<const Capture*> via;
  bool ok = true;
  // simple cycles whose smallest leaf is `start`, through leaves with distinct finalisers
  std::function<void(int, int)> search = [&](int start, int v) {
    for (auto [k, cap] : out[v]) {
      if (!ok || ++steps > kMaxCycleSteps) {
        ok = false;
        return;
      }
      if (k == start) {
        ++counts[Instance{PredicateId::Zilahi, {std::to_string(path.size())}, 0}];
        for (int member : path) in_cycle[member] = true;
        via.push_back(cap);
        for (const Capture* c : via) piece_instance(*c);
        via.pop_back();
        continue;
      }
      if (k < start || std::find(path.begin(), path.end(), k) != path.end()) continue;
      bool same_finaliser = false;
      for (int member : path) same_finaliser |= leaves[member].finaliser == leaves[k].finaliser;
      if (same_finaliser) continue;
      path.push_back(k);
      via.push_back(cap);
      search(start, k);
      via.pop_back();
      path.pop_back();
    }
  };
  for (int s = 0; s < n && ok; ++s) {
    path = {s};
    via.clear();
    search(s, s);
  }
  if (!ok) return false;
  if (help_play) {
    std::vector<int> seen;
    for (int i = 0; i < n; ++i) {
      if (in_cycle[i] || out[i].empty()) continue;
      int unit = leaves[i].finaliser;
      if (std::find(seen.begin(), seen.end(), unit) != seen.end()) continue;
      seen.push_back(unit);
      piece_instance(*out[i][0].second);
    }
  }
  return true;
}

}  // namespace cqlindex::yacpdb
