// The planner's walk: dispatch each node kind to its rule, the header's game-level conditions, and the
// index reads every rule shares.
#include "planner/planner.h"

#include "engine/cql/printer.h"
#include "store/family_keys.h"

namespace cqlindex::planner {

using cql::NodeKind;

namespace {

// A copy of `node` with about `budget` nodes, depth first; what is left out prints as "...". Every plan node
// shows its filter in 70 characters: printing each whole subtree would make planning a long chain
// (`a and b and ...`) quadratic in time and as deep in recursion as the chain.
cql::NodePtr pruned(const cql::Node& node, int& budget) {
  if (--budget < 0) {
    cql::NodePtr rest = cql::make_node(NodeKind::ColorValue, node.type, node.line, node.column);
    rest->text = "...";  // a ColorValue prints its text
    return rest;
  }
  cql::NodePtr copy = node.copy_without_kids();
  for (const cql::Child& k : node.kids) {
    // one "..." for the rest of a list of arguments (a compound's); every other role keeps its child, which
    // the printer reads by role
    if (budget < 0 && k.role == cql::Role::Arg && !copy->kids.empty() && copy->kids.back().role == cql::Role::Arg)
      continue;
    copy->kids.push_back(cql::Child{k.role, k.node ? pruned(*k.node, budget) : nullptr});
  }
  return copy;
}

}  // namespace

std::string filter_text(const cql::Node& node) {
  std::string text;
  try {
    int budget = 40;
    text = cql::print_cql(*pruned(node, budget));
  } catch (...) {
    text = cql::kind_name(node.kind);
  }
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\t') c = ' ';
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  if (out.size() > 70) out = out.substr(0, 67) + "...";
  return out;
}

PlanNode all_games(const cql::Node& node, std::string reason) {
  PlanNode n;
  n.filter = filter_text(node);
  n.rule = "all games";
  n.fallback = std::move(reason);
  return n;
}

PlanNode bounded(const cql::Node& node, std::string rule, std::string family, std::optional<Roaring> games) {
  PlanNode n;
  n.filter = filter_text(node);
  n.rule = std::move(rule);
  n.family = std::move(family);
  if (games) n.games = std::move(games);
  else n.fallback = "the index could not be read";
  return n;
}

std::optional<Roaring> Planner::postings(store::Family family, std::string_view key) {
  if (!error_.empty()) return std::nullopt;
  auto cached = cache_.find({family, std::string(key)});
  if (cached != cache_.end()) return cached->second;
  auto list = store_.postings(family, key, &error_);
  if (!list) return std::nullopt;
  cache_.emplace(std::make_pair(family, std::string(key)), list->bits());
  return list->bits();
}

std::optional<Roaring> Planner::position_games(std::string_view key) {
  if (!error_.empty()) return std::nullopt;
  auto list = store_.position_games(key, &error_);
  if (!list) return std::nullopt;
  return std::move(list->bits());
}

namespace {

// The union of many posting lists read one after the other, each united into the result as it comes (CRoaring's
// lazy in-place union: the counts are repaired once, at the end): memory follows the result, not the number or
// size of the lists read.
class StreamedUnion {
 public:
  void add(const Roaring& part) { roaring_bitmap_lazy_or_inplace(&result_.roaring, &part.roaring, false); }
  // Returns the union of everything added.
  Roaring take() {
    roaring_bitmap_repair_after_lazy(&result_.roaring);
    return std::move(result_);
  }

 private:
  Roaring result_;
};

}  // namespace

std::optional<std::vector<std::string>> Planner::kept_tag_keys(
    store::Family family, std::string_view prefix, const std::function<bool(std::string_view key)>& keep) {
  if (family != store::Family::Tags) return std::nullopt;
  std::vector<std::string> kept;
  size_t keys = 0;
  if (tag_keys_) {
    const auto [first, last] = tag_keys_->range(prefix);
    for (size_t i = first; i < last; ++i)
      if (keep(tag_keys_->key(i))) kept.emplace_back(tag_keys_->key(i));
    keys = last - first;
  } else {
    const auto read = store_.tag_keys(prefix, [&](std::string_view key) {
      ++keys;
      if (keep(key)) kept.emplace_back(key);
    }, &error_);
    if (read != store::IndexStore::DirectoryRead::Read) return std::nullopt;  // (Failed: error_ is set)
  }
  // A point read of a list costs a few times a streamed one (the filter, the index block, a seek in the block):
  // past an eighth of the keys the stream is cheaper.
  if (kept.size() * 8 > keys) return std::nullopt;
  return kept;
}

std::optional<Roaring> Planner::union_where(store::Family family, std::string_view prefix,
                                            const std::function<bool(std::string_view key)>& keep) {
  if (!error_.empty()) return std::nullopt;
  StreamedUnion games;
  if (auto kept = kept_tag_keys(family, prefix, keep)) {  // keys in memory or packed: read only the lists kept
    for (const std::string& key : *kept) {
      auto list = store_.postings(family, key, &error_);
      if (!list) return std::nullopt;
      games.add(list->bits());
    }
    return games.take();
  }
  if (!error_.empty()) return std::nullopt;
  bool ok = store_.for_each_read_once(family, prefix, [&](std::string_view key, std::string_view value) {
    if (!keep(key)) return true;
    auto list = store::PostingList::decode(value, &error_);
    if (!list) return false;
    games.add(list->bits());
    return true;
  }, &error_);
  if (!ok || !error_.empty()) {
    if (error_.empty()) error_ = "cannot read family " + std::string(store::family_name(family));
    return std::nullopt;
  }
  return games.take();
}

std::optional<Roaring> Planner::material_where(const std::function<bool(const store::keys::Material&)>& keep) {
  return union_where(store::Family::Material, "",
                     [&](std::string_view key) { return keep(store::keys::material_from_key(key)); });
}

std::optional<Roaring> Planner::memoised(const std::string& id, const std::function<std::optional<Roaring>()>& compute) {
  auto it = memo_.find(id);
  if (it != memo_.end()) return it->second;
  auto result = compute();
  if (result) memo_.emplace(id, *result);
  return result;
}

Roaring Planner::id_range(uint64_t first, uint64_t last) const {
  Roaring r;
  if (last >= total_) last = total_ ? total_ - 1 : 0;
  if (total_ && first <= last) r.addRange(first, last + 1);
  return r;
}

namespace {

// The set S of `#S OP N` (or `N OP #S`) when the comparison needs at least one square of S, else nullptr.
const cql::Node* counted_set_needing_one(const cql::Node& node) {
  const cql::Node* l = node.child(cql::Role::Left);
  const cql::Node* r = node.child(cql::Role::Right);
  if (!l || !r) return nullptr;
  std::string op = node.text;
  if (l->kind == NodeKind::Number) {
    std::swap(l, r);
    op = op == "<" ? ">" : op == "<=" ? ">=" : op == ">" ? "<" : op == ">=" ? "<=" : op;
  }
  if (r->kind != NodeKind::Number || l->kind != NodeKind::CountSquares || !l->child(cql::Role::Arg)) return nullptr;
  const int64_t n = r->a;
  const bool needs_one = (op == ">=" && n >= 1) || (op == ">" && n >= 0) || (op == "==" && n >= 1);
  return needs_one ? l->child(cql::Role::Arg) : nullptr;
}

}  // namespace

PlanNode Planner::plan(const cql::Node& node, const Frame& frame) {
  auto position_level = [&](auto rule) {
    if (!frame.positions_indexed)
      return all_games(node, "variations are searched and the index holds mainline positions only");
    return rule(*this, node, frame);
  };
  switch (node.kind) {
    case NodeKind::Compound: case NodeKind::And: case NodeKind::Or: case NodeKind::Union: case NodeKind::Intersect:
      return plan_logic(*this, node, frame);
    case NodeKind::Transform: return plan_transform(*this, node, frame);
    case NodeKind::PieceSet: return position_level(plan_piece_set);
    case NodeKind::Predicate: return position_level(plan_position_flag);
    case NodeKind::Move: return position_level(plan_move);
    case NodeKind::Result: return plan_result(*this, node, frame);
    case NodeKind::SimilarPosition: return position_level(plan_similar);
    case NodeKind::Find: return plan_find(*this, node, frame);
    case NodeKind::Line: return plan_line(*this, node, frame);
    case NodeKind::Attacks: case NodeKind::AttackedBy: case NodeKind::AttackRay: case NodeKind::Ray:
    case NodeKind::Pin: case NodeKind::LightDark: case NodeKind::SquareLoop: case NodeKind::PieceLoop:
    case NodeKind::If:
      return plan_set_relation(*this, node, frame);
    case NodeKind::StringIn: return plan_tag_test(*this, node, frame);
    case NodeKind::Relation: {
      if (auto term = material_term(node, frame)) {
        if (!frame.positions_indexed)
          return all_games(node, "variations are searched and the index holds mainline positions only");
        return plan_material(*this, node, {*term}, filter_text(node));
      }
      const cql::Node* left = node.child(cql::Role::Left);
      if (left && left->kind == NodeKind::Counter && left->text == "year") return plan_year(*this, node, frame);
      if (left && left->kind == NodeKind::Elo) return plan_elo(*this, node, frame);
      if (left && left->type == cql::ValueType::String) return plan_tag_test(*this, node, frame);
      if (const cql::Node* set = counted_set_needing_one(node)) {
        PlanNode out = plan(*set, frame);
        out.filter = filter_text(node);
        out.rule = "count >= 1: the set must be non-empty; " + out.rule;
        return out;
      }
      return all_games(node, "a comparison the index cannot decide");
    }
    case NodeKind::Not: return all_games(node, "negation: the index cannot bound what must NOT occur");
    case NodeKind::True: case NodeKind::AllSquares: return all_games(node, "always true");
    default: return all_games(node, std::string("no rule for ") + cql::kind_name(node.kind));
  }
}

namespace {

// The conditions of the cql(...) header and the body, as the plan's root (a conjunction).
PlanNode plan_query(Planner& p, const cql::Query& q) {
  PlanNode root;
  root.filter = "the whole query";
  root.rule = "and";
  const cql::Header& h = q.header;
  cql::Node dummy(NodeKind::True, cql::ValueType::Logical);
  if (h.matchcount && h.matchcount->min <= 0) {
    root.rule = "all games";
    root.fallback = "the matchcount range contains 0: games match with no matching position";
    return root;
  }
  if (std::string why = cross_game_reason(q); !why.empty()) {
    // every game must be evaluated, in order: a later game's result (or the console) depends on the earlier ones
    root.rule = "all games";
    root.fallback = why;
    return root;
  }
  if (h.gamenumber) {
    PlanNode n = bounded(dummy, "header: gamenumber", "games (ids)",
                         p.id_range(h.gamenumber->min > 0 ? h.gamenumber->min - 1 : 0,
                                    h.gamenumber->max > 0 ? h.gamenumber->max - 1 : 0));
    if (h.gamenumber->max <= 0) n.games = Roaring();
    n.filter = "gamenumber " + std::to_string(h.gamenumber->min) + " " + std::to_string(h.gamenumber->max);
    root.kids.push_back(std::move(n));
  }
  if (!h.result.empty()) {
    cql::Node r(NodeKind::Result, cql::ValueType::Logical);
    r.text = h.result;
    PlanNode n = plan_result(p, r, Frame{});
    n.filter = "header result " + h.result;
    root.kids.push_back(std::move(n));
  }
  Frame frame;
  frame.positions_indexed = !h.variations;
  if (q.body) root.kids.push_back(p.plan(*q.body, frame));
  std::optional<Roaring> acc;
  for (const PlanNode& k : root.kids)
    if (k.games) acc = acc ? (*acc & *k.games) : *k.games;
  if (acc) root.games = std::move(acc);
  else root.fallback = "no part of the query could be bounded";
  return root;
}

void format_node(const PlanNode& n, uint64_t total, int depth, std::string& out) {
  out.append(2 * depth, ' ');
  out += n.games ? "[" : "[all ";
  out += std::to_string(n.games ? n.games->cardinality() : total);
  out += "] ";
  out += n.filter;
  out += "  <- ";
  out += n.rule;
  if (!n.family.empty()) out.append(" (").append(n.family).append(")");
  if (!n.fallback.empty()) out.append(": ").append(n.fallback);
  out += '\n';
  for (const PlanNode& k : n.kids) format_node(k, total, depth + 1, out);
}

}  // namespace

std::optional<CandidateSet> plan_candidates(const cql::Query& query, const store::IndexStore& store,
                                            PlanReport* report, cql::similar::SubmissionFiles* submissions,
                                            const store::FamilyKeys* tag_keys) {
  const uint64_t total = store.meta().game_count;
  cql::similar::SubmissionFiles own;  // `explain`: the planner reads the submissions itself
  Planner p(store, total, submissions ? *submissions : own, tag_keys);
  PlanNode root = plan_query(p, query);
  if (!p.error().empty()) {  // a damaged family: never trust a partial plan
    root.games.reset();
    root.fallback = "index read error: " + p.error();
  }
  std::optional<CandidateSet> result;
  if (root.games) result = *root.games;
  if (report) {
    report->root = std::move(root);
    report->total_games = total;
    report->error = p.error();
    report->strategy = choose_strategy(query);
  }
  return result;
}

std::string format_plan(const PlanReport& report) {
  std::string out = format_strategy(report.strategy);
  format_node(report.root, report.total_games, 0, out);
  uint64_t n = report.root.games ? report.root.games->cardinality() : report.total_games;
  char share[32];
  std::snprintf(share, sizeof share, "%.2f%%", report.total_games ? 100.0 * double(n) / double(report.total_games) : 100.0);
  out += "candidates: " + std::to_string(n) + " of " + std::to_string(report.total_games) + " games (" + share + ")";
  out += report.root.games ? "\n" : ", full scan\n";
  return out;
}

}  // namespace cqlindex::planner
