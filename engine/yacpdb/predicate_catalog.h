// The predicates of the YACPDB query language guide: name, parameter domains and what they need.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace cqlindex::yacpdb {

// The value domains of predicate parameters (guide, "Predicate parameter domains").
enum class Domain { Boolean, Color, Date, Integer, RefType, Transformations, Piece, String };

enum class PredicateId {
  // metadata
  Matrix,
  MatrixExtended,
  Entity,
  Author,
  Source,
  ReprintType,
  SourceId,
  IssueId,
  PublishedAfter,
  Stip,
  Option,
  Keyword,
  PCount,
  With,
  Fairy,
  Id,
  Text,
  // trajectories
  ClosedWalk,
  TraceBack,
  ArealCycle,
  LinearCycle,
  PW,
  PWPiece,
  Star,
  BigStar,
  Cross,
  BigCross,
  Wheel,
  Albino,
  Pickaninny,
  CornerToCorner,
  FourCorners,
  Excelsior,
  // miscellaneous
  Phases,
  Twins,
  ZilahiPiece,
  Zilahi,
  Models,
  HundredDollar,
};

// Metadata predicates read the entry's data; analysis predicates need the solution tree replayed.
enum class PredicateKind { Metadata, Analysis };

struct PredicateInfo {
  PredicateId id;
  std::string_view name;
  std::vector<Domain> params;
  PredicateKind kind;
};

// Every predicate of the guide, in the guide's order.
std::span<const PredicateInfo> all_predicates();
// The predicate called exactly `name` (TitleCase, case-sensitive), or nullptr.
const PredicateInfo* find_predicate(std::string_view name);
// The entry for `id` (always exists).
const PredicateInfo& predicate_info(PredicateId id);
// "BOOLEAN", "COLOR", ... as the guide writes the domain.
std::string_view domain_name(Domain d);

}  // namespace cqlindex::yacpdb
