// hhdb (the Heijden study database, HHdb VI): the award of a study, read from the start of its Event tag as
// CQL 6.2 reads it, and whether the game's text mentions a cook.
//
// Event starts with: [rank[/rank2]] [special] type, where special is "sp" (no rank) or ".sp" (after a rank) and
// type is ".p" (prize), ".hm" (honourable mention) or ".c" (commendation): "1.p", "2/3.hm", ".c", "1.sp.p".
// The value is the rank (rank2 with `max`; 1 and 10000 when there is none); an award that is special has no
// rank unless `special` was asked for. Read as a number (compared, assigned, sorted) such an award has no value
// and does not match; as a filter (in a compound, and/or/not, an if test) it matches, as in CQL 6.2, where the
// node's match_count wants a positive rank and its match_position does not.
#include <charconv>
#include <string_view>

#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {
namespace {

constexpr int64_t kNoRankMax = 10000;  // CQL's rank for "no rank given" as the upper end

// Consumes `prefix` at the start of s.
bool take(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// Consumes a positive integer at the start of s (0 when there is none).
int64_t take_rank(std::string_view& s) {
  int64_t r = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), r);
  if (ec != std::errc() || r <= 0) return 0;
  s.remove_prefix(size_t(end - s.data()));
  return r;
}

bool award(const Op& op, Ctx& ctx, Value& v) {
  const auto event = ctx.game().tag("Event");
  if (!event) return false;
  std::string_view s = *event;
  int64_t r1 = take_rank(s), r2 = r1;
  if (r1 && take(s, "/")) {
    r2 = take_rank(s);
    if (r2 <= r1) return false;
  }
  const bool special = take(s, r1 ? ".sp" : "sp");
  HhdbAwardKind type;  // as Op::sub
  if (take(s, ".p")) type = kHhdbPrize;
  else if (take(s, ".hm")) type = kHhdbHonourableMention;
  else if (take(s, ".c")) type = kHhdbCommendation;
  else return false;
  if (op.sub != kHhdbAnyAward && op.sub != type) return false;
  if (op.flag && !special) return false;
  if (!r1) {
    r1 = 1;
    r2 = kNoRankMax;
  }
  v.num = special && !op.flag ? 0 : op.a ? r2 : r1;
  return v.num > 0 || op.b == 1;
}

// "<cook" in a tag or a comment of the game (CQL 6.2 searches the game's PGN text).
bool cooked(const pgn::Game& g) {
  for (const pgn::Tag& t : g.tags)
    if (t.raw_value.find("<cook") != std::string_view::npos) return true;
  for (const pgn::Comment& c : g.comments)
    if (c.text.find("<cook") != std::string_view::npos) return true;
  return false;
}

}  // namespace

void mark_hhdb_filters(Op& op) {
  const bool filters = op.code == OpCode::Compound || op.code == OpCode::And || op.code == OpCode::Or ||
                       op.code == OpCode::Not;
  for (size_t i = 0; i < op.kids.size(); ++i) {
    Op* k = op.kids[i].get();
    if (!k) continue;
    if (k->code == OpCode::HhdbAward && (filters || (op.code == OpCode::If && i == 0))) k->b = 1;
    mark_hhdb_filters(*k);
  }
}

bool eval_hhdb(const Op& op, Ctx& ctx, Value& v) {
  if (op.code == OpCode::HhdbAward) return award(op, ctx, v);
  return cooked(ctx.game());
}

}  // namespace cqlindex::cql::eval
