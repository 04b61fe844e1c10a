// Compiling similarposition (spec/cql-similarposition.txt; its matcher: similar/similar_match.h).
#include "engine/cql/error.h"
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/similar/submission_files.h"

namespace cqlindex::cql::eval {

OpPtr Compiler::compile_similar(const Node& n) {
  if (n.kind != NodeKind::SimilarPosition) return nullptr;
  // its database is read here, once per file and run (submission_files.h)
  auto o = op(OpCode::SimilarPosition, n);
  std::string error;
  o->submissions = prog.options.submissions->load(n.text, n.has(Option::NoTransform), &error);
  if (!o->submissions) throw CqlError("similarposition: " + error, n.line, n.column, CqlError::Kind::Input);
  // without nosort, the games are sorted by the least submission game they list (CQL's sort comment
  // "submission game: N", "none" when the game matched otherwise)
  if (!n.has(Option::NoSort)) o->var = sort_slot(n, "submission game", true, false, false);
  return o;
}

}  // namespace cqlindex::cql::eval
