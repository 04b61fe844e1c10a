#pragma once
// The planner's inside: the walk over the typed tree, the frame a subtree is seen in, and one entry point
// per rule (each rule in its own rule_*.cpp).
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/node.h"
#include "engine/cql/similar/submission_files.h"
#include "planner/plan.h"
#include "store/keys/flag_key.h"
#include "store/keys/material_key.h"
#include "store/keys/tag_key.h"

namespace cqlindex::planner {

// How the atoms below a node are seen: transforms above it widen what an atom may stand for.
struct Frame {
  bool swap_colors = false;     // inside the colour-swapped member of flipcolor / reversecolor
  bool mirror_ranks = false;    // inside the member of flipcolor that mirrors the board (rank 1 <-> 8)
  bool any_symmetry = false;    // inside flip/rotate/reversecolor...: squares closed under the 8 symmetries
  bool any_square = false;      // inside shift...: a square set may stand for any square
  bool positions_indexed = true;  // false when variations are searched: only game-level facts bound
};

// Reads the index for the rules; a read error makes every later read "all games".
class Planner {
 public:
  // `tag_keys`: the tags family's keys held in memory by a server (store/family_keys.h), or null: the family's
  // keys are then read from the index at each union over them.
  Planner(const store::IndexStore& store, uint64_t total_games, cql::similar::SubmissionFiles& submissions,
          const store::FamilyKeys* tag_keys = nullptr)
      : store_(store), total_(total_games), submissions_(submissions), tag_keys_(tag_keys) {}

  // Returns the plan of `node` seen in `frame` (dispatches to the rules).
  PlanNode plan(const cql::Node& node, const Frame& frame);

  // Returns the games under `key` (empty when absent); nullopt after a read error.
  std::optional<Roaring> postings(store::Family family, std::string_view key);
  // Returns the games (a superset: store/position_buckets.h) holding a position whose canonical key is `key`;
  // nullopt after a read error.
  std::optional<Roaring> position_games(std::string_view key);
  // Returns the union of the postings of every key of `family` under `prefix` that `keep` accepts (the same
  // whether the keys come from the index or from the tags family's keys held in memory).
  std::optional<Roaring> union_where(store::Family family, std::string_view prefix,
                                     const std::function<bool(std::string_view key)>& keep);
  // Returns the union of the material family's postings whose signature `keep` accepts. The family is read
  // as a stream, each list united as it is read: the plan's memory follows the answer, not the family (which
  // grows with the database: about 200 MB of lists at 10 million games).
  std::optional<Roaring> material_where(const std::function<bool(const store::keys::Material&)>& keep);
  // Returns compute(), remembered under `id` for the rest of the plan (transforms repeat the same look-ups).
  std::optional<Roaring> memoised(const std::string& id, const std::function<std::optional<Roaring>()>& compute);
  // Returns the ids first..last (0-based, clipped to the database).
  Roaring id_range(uint64_t first, uint64_t last) const;

  uint64_t total_games() const { return total_; }
  // The similarposition files of the query, each read once (shared with the evaluator when it read them).
  cql::similar::SubmissionFiles& submissions() { return submissions_; }
  const std::string& error() const { return error_; }

 private:
  const store::IndexStore& store_;
  uint64_t total_;
  cql::similar::SubmissionFiles& submissions_;
  // Returns the tags family keys under `prefix` that `keep` accepts, from the keys held in memory (a server) or
  // the index's key directory; nullopt when there are neither, when reading fails (error_ says why), or when
  // `keep` accepts so many that reading the family as a stream costs less than a point read of each.
  std::optional<std::vector<std::string>> kept_tag_keys(store::Family family, std::string_view prefix,
                                                        const std::function<bool(std::string_view key)>& keep);

  const store::FamilyKeys* tag_keys_;
  std::string error_;
  std::map<std::pair<store::Family, std::string>, Roaring> cache_;
  std::map<std::string, Roaring> memo_;
};

// Returns the shortened CQL text of `node` for the plan.
std::string filter_text(const cql::Node& node);
// Returns a plan node that keeps all games, with the reason.
PlanNode all_games(const cql::Node& node, std::string reason);
// Returns a plan node bounded by `games` (nullopt games: a read error, reported as all games).
PlanNode bounded(const cql::Node& node, std::string rule, std::string family, std::optional<Roaring> games);

// Returns the squares a designator's `squares` may stand for in `frame` (a1 = bit 0).
uint64_t seen_squares(uint64_t squares, const Frame& frame);
// Returns the piece kinds (cql piece_bits) a designator's `pieces` may stand for in `frame`.
uint16_t seen_pieces(uint16_t pieces, const Frame& frame);

// Returns whether the comparison `op` holds when a side has no value (`year` of a game without a year, `elo`
// of an unrated side): only `!=`, which CQL 6.2 builds as `not (a == b)` (the evaluator's Relation); every other
// comparison then fails. A rule reading a value from the index keeps the games without one for `!=`.
inline bool holds_without_value(std::string_view op) { return op == "!="; }

// A linear condition on a position's material (counts in store::keys::Material order): sum w[i]*m[i] OP value.
struct MaterialTerm {
  std::array<int, 10> weight{};
  std::string op;  // "==", "!=", "<", "<=", ">", ">="
  int64_t value = 0;
  bool holds(const store::keys::Material& m) const;
};
// The material conditions of one position (a conjunction).
using MaterialCondition = std::vector<MaterialTerm>;

// -- rules (one file each)
PlanNode plan_logic(Planner& p, const cql::Node& node, const Frame& frame);          // rule_logic.cpp
PlanNode plan_transform(Planner& p, const cql::Node& node, const Frame& frame);      // rule_transform.cpp
PlanNode plan_piece_set(Planner& p, const cql::Node& node, const Frame& frame);      // rule_piece_square.cpp
// Returns the material term of a count/power comparison seen in `frame`, or nullopt when it is not one.
std::optional<MaterialTerm> material_term(const cql::Node& node, const Frame& frame);  // rule_material.cpp
PlanNode plan_material(Planner& p, const cql::Node& node, const MaterialCondition& condition,
                       std::string text);                                          // rule_material.cpp
PlanNode plan_position_flag(Planner& p, const cql::Node& node, const Frame& frame);  // rule_flags.cpp
PlanNode plan_move(Planner& p, const cql::Node& node, const Frame& frame);           // rule_move.cpp
PlanNode plan_tag_test(Planner& p, const cql::Node& node, const Frame& frame);       // rule_tags.cpp
PlanNode plan_result(Planner& p, const cql::Node& node, const Frame& frame);         // rule_result.cpp
PlanNode plan_set_relation(Planner& p, const cql::Node& node, const Frame& frame);  // rule_set_relations.cpp
PlanNode plan_similar(Planner& p, const cql::Node& node, const Frame& frame);       // rule_similar.cpp
PlanNode plan_find(Planner& p, const cql::Node& node, const Frame& frame);          // rule_find.cpp
PlanNode plan_elo(Planner& p, const cql::Node& node, const Frame& frame);           // rule_elo.cpp
PlanNode plan_line(Planner& p, const cql::Node& node, const Frame& frame);          // rule_line.cpp
PlanNode plan_year(Planner& p, const cql::Node& node, const Frame& frame);           // rule_year.cpp
// Returns why one game's result depends on the games before it or the query acts beyond its output
// (persistent variables, dictionaries, message, readfile, writefile), or "" when it does not.
std::string cross_game_reason(const cql::Query& query);                            // rule_cross_game.cpp

}  // namespace cqlindex::planner
