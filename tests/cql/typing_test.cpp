// Types of the bound tree: what the evaluator can rely on.
#include <catch2/catch.hpp>

#include "engine/cql/error.h"
#include "engine/cql/query.h"

using namespace cqlindex::cql;

namespace {

// The type of the last top-level filter of `body`.
ValueType type_of(const std::string& body) {
  Query q = parse_query("cql()\n" + body);
  return q.body->kids.back().node->type;
}

const Node& last(const Query& q) { return *q.body->kids.back().node; }

}  // namespace

TEST_CASE("typing: every filter has the type CQL 6.2 gives it", "[cql][types]") {
  CHECK(type_of("K") == ValueType::Set);
  CHECK(type_of("check") == ValueType::Logical);
  CHECK(type_of("#A") == ValueType::Numeric);
  CHECK(type_of("A attacks k") == ValueType::Set);
  CHECK(type_of("A in B") == ValueType::Logical);
  CHECK(type_of("move from K") == ValueType::Set);        // first keyword from/to/capture: a set
  CHECK(type_of("move legal from K") == ValueType::Logical);
  CHECK(type_of("move legal count from K") == ValueType::Numeric);
  CHECK(type_of("find check") == ValueType::Position);
  CHECK(type_of("find all check") == ValueType::Numeric);
  CHECK(type_of("find 2 5 check") == ValueType::Numeric);
  CHECK(type_of("flipcolor K") == ValueType::Set);
  CHECK(type_of("flipcolor count K") == ValueType::Numeric);
  CHECK(type_of("line --> check --> mate") == ValueType::Numeric);
  CHECK(type_of("line lastposition --> check") == ValueType::Position);
  CHECK(type_of("path -- --") == ValueType::Numeric);
  CHECK(type_of("parent") == ValueType::Position);
  CHECK(type_of("parent : #A") == ValueType::Numeric);
  CHECK(type_of("event") == ValueType::String);
  CHECK(type_of("event \"Open\"") == ValueType::Logical);
  CHECK(type_of("#A > 3") == ValueType::Numeric);  // a comparison has the value of its left side
  CHECK(type_of("#A != 3") == ValueType::Logical);
  CHECK(type_of("A == B") == ValueType::Logical);
  CHECK(type_of("square x in A check") == ValueType::Set);
  CHECK(type_of("square all x in A check") == ValueType::Logical);
  CHECK(type_of("sort \"d\" #A") == ValueType::Numeric);
  CHECK(type_of("\"a\" + \"b\"") == ValueType::String);
  CHECK(type_of("max (1 2 3)") == ValueType::Numeric);
  CHECK(type_of("puremate") == ValueType::Set);
  CHECK(type_of("legal K--e4") == ValueType::Set);
  CHECK(type_of("K--(from)") == ValueType::Set);  // a dash with targets has its last target's value
  CHECK(type_of("dictionary D D[1] = K D[2]") == ValueType::Set);
}

TEST_CASE("typing: variables, their kinds and type errors", "[cql][types]") {
  Query q = parse_query("cql()\nx = 3 s = \"a\" S = A|a pos = parent piece Pc in A check square Q2 in . check persistent quiet n2 = 0 dictionary D");
  REQUIRE(q.variables.size() == 8);
  CHECK(q.variables[0].kind == VariableKind::Numeric);
  CHECK(q.variables[1].kind == VariableKind::String);
  CHECK(q.variables[2].kind == VariableKind::Set);
  CHECK(q.variables[3].kind == VariableKind::Position);
  CHECK(q.variables[4].kind == VariableKind::Piece);
  CHECK(q.variables[5].kind == VariableKind::Square);
  CHECK(q.variables[6].persistent);
  CHECK(q.variables[6].quiet);
  CHECK(q.variables[7].kind == VariableKind::Dictionary);
  CHECK(q.needs_single_thread);
  CHECK_THROWS_AS(parse_query("cql()\nx = 3 x = K"), CqlError);
  CHECK_THROWS_AS(parse_query("cql()\ncheck : mate"), CqlError);
  CHECK_THROWS_AS(parse_query("cql()\nK + 1"), CqlError);
  CHECK_THROWS_AS(parse_query("cql()\n\"a\" < 1"), CqlError);
}

TEST_CASE("typing: transforms stay nodes, functions are bound at each call", "[cql][types]") {
  Query q = parse_query("cql()\nfunction f(x) {x attacks k} flipcolor shift f(Q)");
  const Node& t = last(q);
  CHECK(t.kind == NodeKind::Transform);
  CHECK(t.text == "flipcolor");
  const Node* inner = t.child(Role::Body);
  REQUIRE(inner);
  CHECK(inner->kind == NodeKind::Transform);
  CHECK(inner->text == "shift");
  const Node* call = inner->child(Role::Body);
  REQUIRE(call);
  CHECK(call->kind == NodeKind::FunctionCall);
  const Node* body = call->child(Role::Body);
  REQUIRE(body);
  CHECK(body->kind == NodeKind::Attacks);
  CHECK(body->child(Role::Left)->kind == NodeKind::PieceSet);  // the argument Q, passed by name
  CHECK(body->type == ValueType::Set);
}
